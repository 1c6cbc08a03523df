// The DeviceSimNMEA module; its contents arrive with their issue.
