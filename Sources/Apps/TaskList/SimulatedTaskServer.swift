import DeviceSimHAL
import DeviceSimServer
import DeviceSimTime

/// The task-list app's storage server in virtual time: each account's task list (one list per
/// account, shared by every device signed in to it), downloaded and uploaded whole, with a revision
/// that grows with every accepted upload. An upload based on an older revision is refused with the
/// server's list (``TaskUploadOutcome/conflict(_:)``), never applied over it; an upload whose request
/// id was seen before gets its first answer again, and is not applied twice. Latency on every
/// request and injected failures; ``client(connection:)`` puts a device's connection (drops,
/// timeouts) in front of it.
///
/// Events (no device): `tasks.downloaded` (`account`, `revision`, `count`), `tasks.uploaded`
/// (`account`, `revision`, `count`), `tasks.conflict` (`account`, `based-on`, `revision`),
/// `tasks.repeated` (`account`, `request`: a retried request answered as before), `tasks.failed`
/// (`account`, `operation`).
///
/// ```swift
/// let server = SimulatedTaskServer(scheduler: scheduler, events: trace, lists: ["anna@gmail.com": [TaskItem(id: "t1", text: "Milk")]])
/// server.injectFailure(.upload, count: 1)
/// ```
public final class SimulatedTaskServer: TaskBackend {
    /// The server's requests, as failures name them.
    public enum Operation: String, Sendable, Hashable, CaseIterable {
        case download, upload
    }

    /// Latency of every request.
    public var latency: Duration
    /// Each account's list.
    public private(set) var lists: [String: TaskListSnapshot] = [:]

    private let scheduler: EventScheduler
    private let events: any EventSink
    private var failures = InjectedFailures<Operation>()
    /// The answer to every upload by request id (a retry after a lost reply gets it again).
    private var answered: [String: TaskUploadOutcome] = [:]

    /// A server holding `lists` (by account, each at revision 1).
    public init(scheduler: EventScheduler, events: any EventSink, latency: Duration = .milliseconds(200), lists: [String: [TaskItem]] = [:]) {
        self.scheduler = scheduler
        self.events = events
        self.latency = latency
        self.lists = lists.mapValues { TaskListSnapshot(tasks: $0, revision: 1) }
    }

    /// Makes requests of `operation` fail from `from` (default: now) until `until` (nil: for good), or only the next `count`.
    public func injectFailure(_ operation: Operation, from: VirtualInstant? = nil, until: VirtualInstant? = nil, count: Int? = nil) {
        failures.add(operation, from: from ?? scheduler.now, until: until, count: count)
    }

    /// The account's list as stored (empty at revision 0 when it has none).
    public func list(of account: String) -> TaskListSnapshot {
        lists[account] ?? TaskListSnapshot(tasks: [], revision: 0)
    }

    public func download(account: String) async throws(BackendError) -> TaskListSnapshot {
        try await request(.download, account: account)
        return answerDownload(account: account)
    }

    public func upload(account: String, tasks: [TaskItem], basedOn revision: Int, requestID: String) async throws(BackendError) -> TaskUploadOutcome {
        try await request(.upload, account: account)
        return answerUpload(account: account, tasks: tasks, basedOn: revision, requestID: requestID)
    }

    /// A client of the server for one device: its requests cross `connection` (the device's
    /// connectivity, drops in flight, timeouts) instead of the server's own latency.
    public func client(connection: ServerConnection) -> any TaskBackend {
        TaskServerClient(server: self, connection: connection)
    }

    /// Handles a download that has arrived (injected failures apply).
    func serveDownload(account: String) throws(BackendError) -> TaskListSnapshot {
        try failIfInjected(.download, account: account)
        return answerDownload(account: account)
    }

    /// Handles an upload that has arrived (injected failures apply).
    func serveUpload(account: String, tasks: [TaskItem], basedOn revision: Int, requestID: String) throws(BackendError) -> TaskUploadOutcome {
        try failIfInjected(.upload, account: account)
        return answerUpload(account: account, tasks: tasks, basedOn: revision, requestID: requestID)
    }

    private func answerDownload(account: String) -> TaskListSnapshot {
        let list = list(of: account)
        record("tasks.downloaded", account: account, [("revision", .int(list.revision)), ("count", .int(list.tasks.count))])
        return list
    }

    private func answerUpload(account: String, tasks: [TaskItem], basedOn revision: Int, requestID: String) -> TaskUploadOutcome {
        let key = account + "\u{1F}" + requestID
        if let earlier = answered[key] {
            record("tasks.repeated", account: account, [("request", .string(requestID))])
            return earlier
        }
        let current = list(of: account)
        let outcome: TaskUploadOutcome
        if revision == current.revision {
            lists[account] = TaskListSnapshot(tasks: tasks, revision: current.revision + 1)
            record("tasks.uploaded", account: account, [("revision", .int(current.revision + 1)), ("count", .int(tasks.count))])
            outcome = .accepted(revision: current.revision + 1)
        } else {
            record("tasks.conflict", account: account, [("based-on", .int(revision)), ("revision", .int(current.revision))])
            outcome = .conflict(current)
        }
        answered[key] = outcome
        return outcome
    }

    private func request(_ operation: Operation, account: String) async throws(BackendError) {
        do {
            try await VirtualClock(scheduler).sleep(for: latency)
        } catch {
            throw .cancelled(operation: operation.rawValue)   // the app was stopped while waiting
        }
        try failIfInjected(operation, account: account)
    }

    private func failIfInjected(_ operation: Operation, account: String) throws(BackendError) {
        if failures.consume(operation, at: scheduler.now) {
            record("tasks.failed", account: account, [("operation", .string(operation.rawValue))])
            throw .serverError(operation: operation.rawValue)
        }
    }

    private func record(_ name: String, account: String, _ fields: [(key: String, value: TraceValue)]) {
        events.record(TraceEvent(time: scheduler.now, device: nil, name: name, fields: [("account", .string(account))] + fields))
    }
}
