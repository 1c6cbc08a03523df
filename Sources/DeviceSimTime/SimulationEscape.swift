import DeviceSimClock

/// A sleep on a ``VirtualClock`` that came from outside the simulation's thread: its wake-up time
/// would depend on thread timing, so it is not part of the deterministic simulation.
///
/// Its description says where the sleeping code came from and how to keep it inside.
public struct SimulationEscape: Hashable, Sendable, CustomStringConvertible {
    /// Where the sleeping code ran.
    public enum Place: Hashable, Sendable {
        /// On the main actor, for a simulation that is not driven from the main actor.
        case mainActor
        /// On another thread: the global concurrent executor or a thread of its own.
        case otherThread
    }

    /// The deadline it asked for.
    public let deadline: VirtualInstant
    /// The simulation task it descends from, when a `Task {}` inherited its task-local origin.
    public let origin: SimulationTaskOrigin?
    /// Where it ran.
    public let place: Place

    /// An escape of a sleep until `deadline`, from `origin`, caught at `place`.
    public init(deadline: VirtualInstant, origin: SimulationTaskOrigin?, place: Place) {
        self.deadline = deadline
        self.origin = origin
        self.place = place
    }

    public var description: String {
        let what = "a sleep until \(deadline) on the virtual clock"
        switch (place, origin) {
        case (.mainActor, _):
            return "\(what) came from @MainActor code of a simulation that is not driven from the main actor; "
                + "make the test @MainActor, create the simulation there and advance with "
                + "`try await simulation.advance(by:)`"
        case (.otherThread, let origin?):
            return "\(what) came from a task started inside the simulation task spawned at \(origin), running "
                + "while the simulation was not advancing (or with capturesGlobalWork off); start it with "
                + "`simulation.spawn`, or call it through `simulation.run { ... }`, so that it runs only in the simulation"
        case (.otherThread, nil):
            return "\(what) came from code outside the simulation: a `Task {}` or `Task.detached {}` started by "
                + "the test, or @MainActor code (a view model) that ran while no `advance` from the main actor was in "
                + "progress; call the app through `simulation.perform { ... }` / `simulation.run { ... }` or start tasks with "
                + "`simulation.spawn`, and drive main-actor code from a @MainActor test with `try await simulation.advance(by:)`"
        }
    }
}

/// Why a sleep on a ``VirtualClock`` failed.
public enum VirtualClockError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The sleep was called from outside the simulation's thread while the executor's
    /// ``SimulationExecutor/failsEscapedSleeps`` is on.
    case sleptOutsideTheSimulation(SimulationEscape)

    public var description: String {
        switch self {
        case .sleptOutsideTheSimulation(let escape): "not deterministic: \(escape)"
        }
    }
}
