// `import DeviceSimCore`: what app code needs from DeviceSim and nothing more. The HAL's protocols
// and values (`Device`, `LocationProvider`, `LocationUpdate`, `LocationFix`, `GeoCoordinate`, the
// radios, notifications, storage, the backend protocol, trace events) and the clock's values and
// protocols (`VirtualClock`, `VirtualInstant`, `DeviceScheduling`, `SimulationExecuting`), with no
// dependency outside the Swift toolchain: no Yams, no scenario runner, no simulated drivers, no test
// machinery. The discrete-event scheduler, the simulation executor and the wall-clock driver live in
// `DeviceSimTime`, and the lookup of the Swift runtime's private enqueue hooks and the Dispatch timer watch
// in `DeviceSimRuntimeHooks`: only tests, the runner and the CLI link them (`.ci/check-app-side` checks it).
// Link it from an app target; tests link `DeviceSim` and `DeviceSimTesting`.
@_exported import DeviceSimHAL
@_exported import DeviceSimClock
