/// How a task finds the simulation it belongs to (``RealClockSleeps/simulationOfTask``): the executor
/// of the simulation, once one is made.
///
/// A struct, not a bare closure: a task-local value's type is found by the runtime from its mangled
/// name, and Swift 6.3's runtime found none for an optional function type returning an optional class,
/// so an optimized (`-c release`) `withValue` of such a value crashed in `swift_task_localValuePush`.
///
/// ```swift
/// try await RealClockSleeps.$simulationOfTask.withValue(SimulationOfTask { simulation?.scheduler.executor }) { ... }
/// ```
public struct SimulationOfTask: Sendable {
    /// The simulation's executor, or nil while no simulation is made.
    public let executor: @Sendable () -> SimulationExecutor?

    /// Finds the simulation through `executor`.
    public init(_ executor: @escaping @Sendable () -> SimulationExecutor?) {
        self.executor = executor
    }
}
