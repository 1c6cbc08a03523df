@_exported import DeviceSimBackend
@_exported import DeviceSimFlows
@_exported import DeviceSimHAL
@_exported import DeviceSimNMEA
@_exported import DeviceSimRoads
@_exported import DeviceSimScenario
@_exported import DeviceSimSimulated
@_exported import DeviceSimTime
