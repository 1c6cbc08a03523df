print("devicesim")
