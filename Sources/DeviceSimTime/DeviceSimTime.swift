// DeviceSimTime is the engine of virtual time: the discrete-event scheduler (`EventScheduler`), the
// simulation executor, the wall-clock driver of live runs and seeded randomness. Tests, the runner and the
// CLI link it; app targets do not. The values and protocols app code sees (`VirtualInstant`, `VirtualClock`,
// `DeviceScheduling`, `SimulationExecuting`) are in DeviceSimClock, re-exported here so that code importing
// DeviceSimTime sees both.
@_exported import DeviceSimClock
