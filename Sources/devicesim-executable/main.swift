import DeviceSim
import DeviceSimCLI

// The shipped `devicesim`: the command line with the bundled apps, registered as a user's own
// executable registers its apps.
DeviceSimCommandLine.main(apps: BundledApps.all)
