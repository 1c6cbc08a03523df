// `import DeviceSimCore`: what app code needs from DeviceSim and nothing more. The HAL's protocols
// and values (`Device`, `LocationProvider`, `LocationUpdate`, `LocationFix`, `GeoCoordinate`, the
// radios, notifications, storage, the backend protocol, trace events) and the clock types
// (`VirtualClock`, `VirtualInstant`, `EventScheduler`), with no dependency outside the Swift toolchain:
// no Yams, no scenario runner, no simulated drivers, and nothing below the language: the lookup of the
// Swift runtime's private enqueue hooks and the Dispatch timer watch live in `DeviceSimRuntimeHooks`, which
// only tests, the runner and the CLI link (`.ci/check-app-side` checks it). Link it from an app target;
// tests link `DeviceSim` and `DeviceSimTesting`.
@_exported import DeviceSimHAL
@_exported import DeviceSimTime
