// The DeviceSimScenario module; its contents arrive with their issue.
