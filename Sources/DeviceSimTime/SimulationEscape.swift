/// A sleep on a ``VirtualClock`` that came from outside the simulation's thread: its wake-up time
/// would depend on thread timing, so it is not part of the deterministic simulation.
///
/// Its description says where the sleeping code came from and how to keep it inside.
public struct SimulationEscape: Hashable, Sendable, CustomStringConvertible {
    /// Where the sleeping code ran.
    public enum Place: Hashable, Sendable {
        /// On the main thread (`@MainActor` code) while the simulation was not driven from the main actor.
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
            return "\(what) came from @MainActor code while the simulation was not driven from the main actor; "
                + "make the test @MainActor and advance with `try await simulation.advanceOnMainActor(by:)`"
        case (.otherThread, let origin?):
            return "\(what) came from a task started inside the simulation task spawned at \(origin) that runs off "
                + "the simulation's executor: a `Task {}` or `Task.detached {}` in nonisolated code, or a "
                + "nonisolated async function called from @MainActor code; start the task with `spawn` "
                + "(`device.spawn`, `simulation.spawn`) and mark such functions `nonisolated(nonsending)`"
        case (.otherThread, nil):
            return "\(what) came from a task outside the simulation (a `Task {}` or `Task.detached {}` not "
                + "started with `spawn`, or a nonisolated async function called from @MainActor code); start it "
                + "with `simulation.spawn` / `device.spawn`, or mark such functions `nonisolated(nonsending)`"
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
