import DeviceSimHAL
import DeviceSimServer

/// A task of the task-list app.
public struct TaskItem: Sendable, Hashable, Codable {
    /// A stable id, made by the device that created the task (`t1`, `t2`, ...).
    public var id: String
    /// What the task says.
    public var text: String
    /// Whether it is marked important.
    public var important: Bool

    /// Creates a task.
    public init(id: String, text: String, important: Bool = false) {
        self.id = id
        self.text = text
        self.important = important
    }
}

/// A user's whole task list as the server stores it: the tasks and the revision the server gave them.
public struct TaskListSnapshot: Sendable, Hashable, Codable {
    /// The tasks, in the list's order.
    public var tasks: [TaskItem]
    /// The server's revision of the list (0: never uploaded).
    public var revision: Int

    /// Creates a snapshot.
    public init(tasks: [TaskItem], revision: Int) {
        self.tasks = tasks
        self.revision = revision
    }
}

/// What the server did with an upload.
public enum TaskUploadOutcome: Sendable, Hashable {
    /// The list was stored as the new revision.
    case accepted(revision: Int)
    /// The upload was based on an older revision than the server's (another device uploaded
    /// meanwhile): nothing was stored, and this is the server's list, to merge with and send again.
    case conflict(TaskListSnapshot)
}

/// The task-list app's storage server ("Хранилище" in the app's document): each account's task list,
/// downloaded and uploaded whole. Every upload names the revision it was based on: a stale one is
/// refused with the server's list (never a silent overwrite), and every upload has a request id, so
/// that a retry after a lost reply is not applied twice. DeviceSim's `SimulatedTaskServer` implements
/// it in virtual time.
///
/// ```swift
/// let list = try await server.download(account: "anna@gmail.com")
/// let outcome = try await server.upload(account: "anna@gmail.com", tasks: list.tasks, basedOn: list.revision, requestID: "phone-1")
/// ```
public protocol TaskBackend: AnyObject {
    /// The account's task list (empty at revision 0 for a new account).
    func download(account: String) async throws(BackendError) -> TaskListSnapshot
    /// Replaces the account's task list if it is still at `revision`; the same `requestID` again gets
    /// the first answer again.
    func upload(account: String, tasks: [TaskItem], basedOn revision: Int, requestID: String) async throws(BackendError) -> TaskUploadOutcome
}

/// What the task-list app keeps on the device between launches: who is signed in, the tasks, and
/// whether the tasks hold changes not yet uploaded.
public struct TaskListLocalState: Sendable, Hashable, Codable {
    /// The signed-in account (nil: signed out).
    public var account: String?
    /// The tasks as the device has them.
    public var tasks: [TaskItem]
    /// The server revision the device's tasks were last in step with.
    public var revision: Int
    /// The server's list at ``revision``: what this device's changes are changes of (the common list
    /// of a merge with another device's upload).
    public var base: [TaskItem]
    /// Whether the device has changes the server has not accepted yet.
    public var hasUnsentChanges: Bool
    /// The next task number the device hands out.
    public var nextTaskNumber: Int
    /// The list of an upload on its way, or whose answer never came (the connection dropped, the app
    /// was killed): the server may have stored it. Kept until the server answers it, so that a change
    /// made meanwhile is merged on top of it, not as if it had never been sent.
    public var unacknowledged: UnacknowledgedTaskUpload?

    /// Creates a state.
    public init(
        account: String? = nil, tasks: [TaskItem] = [], revision: Int = 0, base: [TaskItem] = [], hasUnsentChanges: Bool = false, nextTaskNumber: Int = 1,
        unacknowledged: UnacknowledgedTaskUpload? = nil
    ) {
        self.account = account
        self.tasks = tasks
        self.revision = revision
        self.base = base
        self.hasUnsentChanges = hasUnsentChanges
        self.nextTaskNumber = nextTaskNumber
        self.unacknowledged = unacknowledged
    }
}

/// An upload the task-list app sent without hearing the server's answer: the list and the revision it
/// was based on, which with the device make its request id. Sent again as it was, the server answers
/// it as it did the first time (or stores it now, if it never arrived).
public struct UnacknowledgedTaskUpload: Sendable, Hashable, Codable {
    /// The tasks sent.
    public var tasks: [TaskItem]
    /// The server revision the upload was based on.
    public var basedOn: Int

    /// Creates one.
    public init(tasks: [TaskItem], basedOn: Int) {
        self.tasks = tasks
        self.basedOn = basedOn
    }
}

/// Where the task-list app keeps its ``TaskListLocalState`` on the device; a save is all or nothing.
public protocol TaskListStore: AnyObject {
    /// The saved state (an empty, signed-out state when nothing was saved).
    func load() throws(StorageError) -> TaskListLocalState
    /// Replaces the saved state.
    func save(_ state: TaskListLocalState) throws(StorageError)
}

/// A ``TaskListStore`` in memory, for tests.
public final class InMemoryTaskListStore: TaskListStore {
    /// What is saved.
    public private(set) var state: TaskListLocalState
    /// How many saves succeeded.
    public private(set) var saveCount = 0

    /// A store holding `state`.
    public init(_ state: TaskListLocalState = TaskListLocalState()) {
        self.state = state
    }

    public func load() throws(StorageError) -> TaskListLocalState { state }

    public func save(_ state: TaskListLocalState) throws(StorageError) {
        self.state = state
        saveCount += 1
    }
}
