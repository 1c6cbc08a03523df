import CheckInScenarios
import DeviceSimCLI

// The example's own `devicesim`: every subcommand, with the check-in app registered for scenario files.
DeviceSimCommandLine.main(apps: [CheckInScenarioApp.self])
