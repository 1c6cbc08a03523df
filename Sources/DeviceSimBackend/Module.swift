// The DeviceSimBackend module; its contents arrive with their issue.
