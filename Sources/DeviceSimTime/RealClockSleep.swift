/// A sleep on a real clock (`Task.sleep`, `ContinuousClock`, `SuspendingClock`, `DispatchQueue.asyncAfter`)
/// started by code running in a simulation: it waits for wall-clock time, which never passes in virtual
/// time, so the code after it runs late or never (see ``SimulationExecutor/realClockSleeps``).
///
/// ```swift
/// // A view model that sleeps with `Task.sleep` instead of its injected clock:
/// try await simulation.advance(by: .seconds(5))
/// // throws TestSimulationError.realClockSleep: "a sleep on a real clock ... started by CheckInModel.start()"
/// ```
public struct RealClockSleep: Hashable, Sendable, CustomStringConvertible {
    /// Where the sleeping code ran.
    public enum Place: Hashable, Sendable {
        /// In a task or event running on the simulation's thread.
        case simulationThread
        /// In `@MainActor` code during the simulation's advance from the main actor.
        case mainActor
        /// In a task of the test (or a task it started) that belongs to the simulation but runs outside
        /// its advance.
        case testTask
    }

    /// The simulation task it descends from, if any (the file:line of its `spawn`).
    public let origin: SimulationTaskOrigin?
    /// The function that started the sleep, e.g. `closure #1 in CheckInViewModel.arrived()` (nil when the
    /// stack cannot be symbolicated).
    public let caller: String?
    /// Where it ran.
    public let place: Place
    /// The file and line of the call that started the sleep (`CheckInViewModel.swift:42`), when the
    /// simulation asked for it (a scenario run, which stops there: see
    /// ``SimulationExecutor/onRealClockSleep``) and the binary has debug information.
    public let location: String?

    /// A sleep started at `place`, from `origin`, in `caller`, at `location`.
    public init(origin: SimulationTaskOrigin?, caller: String?, place: Place, location: String? = nil) {
        self.origin = origin
        self.caller = caller
        self.place = place
        self.location = location
    }

    public var description: String {
        var text = "a sleep on a real clock (Task.sleep, ContinuousClock, SuspendingClock or DispatchQueue.asyncAfter)"
        switch place {
        case .simulationThread: text += " was started by code running in the simulation"
        case .mainActor: text += " was started by @MainActor code during an advance of the simulation"
        case .testTask: text += " was started by the test's own task (or a task it started)"
        }
        if let caller { text += ", in \(caller)" }
        if let location { text += " at \(location)" }
        if let origin { text += ", in the task spawned at \(origin)" }
        return text + ": it waits for wall-clock time, which does not pass in virtual time. Sleep on the injected "
            + "clock (`simulation.clock`, `any Clock<Duration>`), or allow this one deliberately with "
            + "`try await RealClockSleeps.allowed { ... }` (or `simulation.allowsRealClockSleeps = true`)"
    }
}
