// The DeviceSimGPSD module; its contents arrive with their issue.
