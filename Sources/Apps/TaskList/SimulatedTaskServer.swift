import DeviceSimHAL
import DeviceSimServer
import DeviceSimTime

/// The task-list app's storage server in virtual time: each account's task list, downloaded and
/// uploaded whole, with a revision that grows with every upload; latency on every request and
/// injected failures.
///
/// Events (no device): `tasks.downloaded` (`account`, `revision`, `count`), `tasks.uploaded`
/// (`account`, `revision`, `count`), `tasks.failed` (`account`, `operation`).
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
        let list = list(of: account)
        record("tasks.downloaded", account: account, [("revision", .int(list.revision)), ("count", .int(list.tasks.count))])
        return list
    }

    public func upload(account: String, tasks: [TaskItem]) async throws(BackendError) -> Int {
        try await request(.upload, account: account)
        let revision = list(of: account).revision + 1
        lists[account] = TaskListSnapshot(tasks: tasks, revision: revision)
        record("tasks.uploaded", account: account, [("revision", .int(revision)), ("count", .int(tasks.count))])
        return revision
    }

    private func request(_ operation: Operation, account: String) async throws(BackendError) {
        do {
            try await VirtualClock(scheduler).sleep(for: latency)
        } catch {
            throw .serverError(operation: operation.rawValue)
        }
        if failures.consume(operation, at: scheduler.now) {
            record("tasks.failed", account: account, [("operation", .string(operation.rawValue))])
            throw .serverError(operation: operation.rawValue)
        }
    }

    private func record(_ name: String, account: String, _ fields: [(key: String, value: TraceValue)]) {
        events.record(TraceEvent(time: scheduler.now, device: nil, name: name, fields: [("account", .string(account))] + fields))
    }
}
