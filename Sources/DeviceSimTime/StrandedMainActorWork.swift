/// Main-actor work (a `Task { @MainActor in ... }`, a resumed `await` in a `@MainActor` view model,
/// `DispatchQueue.main.async`) queued by code running in a simulation that another thread drives: the
/// main actor does not run in step with that simulation, so the work runs late, outside virtual time, or
/// never (a program that never returns to the main queue). Seen through the main-queue enqueue it makes,
/// in simulations that ask for it (``SimulationExecutor/reportsStrandedMainActorWork``).
///
/// ```swift
/// // A scenario app whose adapter starts its view model with `Task { @MainActor in ... }`, run from a
/// // worker thread: the run stops with
/// // "main-actor work was queued by code running in the simulation, in CheckInScenarioApp.perform(_:) at CheckInScenarioApp.swift:31: ..."
/// ```
public struct StrandedMainActorWork: Hashable, Sendable, CustomStringConvertible {
    /// The simulation task it descends from, if any (the file:line of its `spawn`).
    public let origin: SimulationTaskOrigin?
    /// The function that queued it, e.g. `CheckInScenarioApp.perform(_:)` (nil when the stack cannot be
    /// symbolicated, and for every one after the first).
    public let caller: String?
    /// The file and line of that call (`CheckInScenarioApp.swift:31`), when asked for and known.
    public let location: String?

    /// Work queued from `origin`, in `caller`, at `location`.
    public init(origin: SimulationTaskOrigin?, caller: String?, location: String? = nil) {
        self.origin = origin
        self.caller = caller
        self.location = location
    }

    public var description: String {
        var text = "main-actor work (a `Task { @MainActor in ... }`, a call into @MainActor code, DispatchQueue.main.async) was queued by code running in the simulation"
        if let caller { text += ", in \(caller)" }
        if let location { text += " at \(location)" }
        if let origin { text += ", in the task spawned at \(origin)" }
        return text + ", while the simulation ran on a thread of its own: the main actor does not run in step with it, "
            + "so that work would run late, outside virtual time, or never"
    }
}
