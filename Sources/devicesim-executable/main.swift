import DeviceSimCLI

// The shipped `devicesim`: the command line with the bundled apps only.
DeviceSimCommandLine.main()
