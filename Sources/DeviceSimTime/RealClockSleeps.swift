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
