/// Lets code sleep on a real clock deliberately inside a simulation, without it being reported (see
/// ``RealClockSleep``).
///
/// ```swift
/// // A real pause that the test wants (a file watcher's debounce, say), not timing of the app:
/// try await RealClockSleeps.allowed { try await Task.sleep(for: .milliseconds(50)) }
/// ```
public enum RealClockSleeps {
    /// Whether real-clock sleeps started by the calling task (and tasks it starts) are allowed.
    @TaskLocal public static var areAllowed = false

    /// Runs `operation` with real-clock sleeps allowed: those it starts are not reported.
    public static func allowed<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws -> Result
    ) async rethrows -> Result {
        try await $areAllowed.withValue(true, operation: operation, isolation: isolation)
    }

    /// Finds the simulation that the calling task belongs to outside any advance (a test's own task and
    /// the tasks it starts): set by `DeviceSimTesting` for a test's simulation.
    @TaskLocal public static var simulationOfTask: SimulationOfTask?
}

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
