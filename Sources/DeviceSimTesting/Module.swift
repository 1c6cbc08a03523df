// The DeviceSimTesting module; its contents arrive with their issue.
