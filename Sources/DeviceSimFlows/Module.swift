// The DeviceSimFlows module; its contents arrive with their issue.
