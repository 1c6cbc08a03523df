import CommuteScenarios
import DeviceSimCLI

DeviceSimCommandLine.main(apps: [CommuteScenarioApp.self])
