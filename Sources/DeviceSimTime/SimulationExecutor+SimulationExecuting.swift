import DeviceSimClock

/// The simulation executor is what app-side code sees of a device's executor through ``SimulationExecuting``.
extension SimulationExecutor: SimulationExecuting {}

extension SimulationThread {
    /// The executor the calling thread drains, if any.
    package static var currentExecutor: SimulationExecutor? {
        current.map { Unmanaged<SimulationExecutor>.fromOpaque($0).takeUnretainedValue() }
    }
}
