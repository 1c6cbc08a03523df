/// A `Sendable` box for a value that belongs to one simulation and may be touched only on its
/// thread, like SwiftNIO's `NIOLoopBound`.
///
/// Tasks started with `Device.spawn` (or DeviceSimTime's `EventScheduler.spawn`) run on the simulation's executor, so they may carry
/// simulation objects (devices, flows, drivers) in a `SimulationBound` and unwrap them there. Unwrapping
/// anywhere else stops the program with a clear message instead of racing silently.
///
/// ```swift
/// let app = SimulationBound(self, executor: device.scheduling.executor)
/// device.spawn { await app.value.run() }
/// ```
public struct SimulationBound<Value>: @unchecked Sendable {
    private let storage: Value
    private let executor: any SimulationExecuting

    /// Wraps `value`, which belongs to the simulation running on `executor`.
    public init(_ value: Value, executor: any SimulationExecuting) {
        self.storage = value
        self.executor = executor
    }

    /// The value; must be read on the simulation's thread.
    public var value: Value {
        precondition(
            executor.isOnSimulationThread,
            "a simulation object was used outside its simulation's executor; start tasks with Device.spawn or EventScheduler.spawn"
        )
        return storage
    }
}
