import CafeCheckIn
import DeviceSimCLI

// A developer's own `devicesim`, with an app whose code is @MainActor registered (and its unmarked twin,
// whose runs must stop): the end-to-end tests run its scenario files through the whole command line.
DeviceSimCommandLine.main(apps: [CafeCheckInScenarioApp.self, UnmarkedCafeCheckInScenarioApp.self])
