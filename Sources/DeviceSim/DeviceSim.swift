@_exported import DeviceSimBackend
@_exported import DeviceSimCore
@_exported import DeviceSimFlows
@_exported import DeviceSimHAL
@_exported import DeviceSimNMEA
@_exported import DeviceSimScenario
@_exported import DeviceSimSimulated
@_exported import DeviceSimTime
