/// Where a simulation task was started: the file and line of the ``EventScheduler/spawn(_:fileID:line:)``
/// call (or `TestSimulation.spawn`, `Device.spawn`).
///
/// The spawned task carries its origin as a task-local value, so its child tasks, and any `Task {}` it
/// starts (unstructured tasks copy task-local values), can say where they came from: pending work and
/// escape messages name it.
///
/// ```swift
/// scheduler.spawn { SimulationTaskOrigin.current?.description }  // "MyTests/SearchTests.swift:12"
/// ```
public struct SimulationTaskOrigin: Hashable, Sendable, CustomStringConvertible {
    /// The `#fileID` of the spawn call, e.g. `MyAppTests/SearchTests.swift`.
    public let fileID: String
    /// The line of the spawn call.
    public let line: Int

    /// An origin at `fileID`:`line`.
    public init(fileID: String, line: Int) {
        self.fileID = fileID
        self.line = line
    }

    public var description: String { "\(fileID):\(line)" }

    /// The origin of the simulation task the caller runs in (or descends from), if any.
    @TaskLocal public static var current: SimulationTaskOrigin?
}
