// The DeviceSimSimulated module; its contents arrive with their issue.
