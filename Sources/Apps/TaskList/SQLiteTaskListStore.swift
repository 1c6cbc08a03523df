import DeviceSimHAL
import DeviceSimStorage
import DeviceSimTime
import Foundation

/// The task-list app's local state (who is signed in, the tasks in their order, the server revision,
/// whether there are unsent changes, an upload whose answer never came) in tables of an ``SQLiteDatabase``, saved whole in one transaction.
///
/// ```swift
/// let store = SQLiteTaskListStore(path: dir + "/phone.task-list.sqlite", now: { scheduler.now })
/// try store.save(TaskListLocalState(account: "anna@gmail.com", tasks: [TaskItem(id: "t1", text: "Buy milk")]))
/// sqlite3 phone.task-list.sqlite 'SELECT position, text, important FROM tasks'
/// ```
public final class SQLiteTaskListStore: TaskListStore {
    /// The schema, one migration per version.
    public static let migrations: [[String]] = [
        [
            """
            CREATE TABLE task_list (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                account TEXT,
                revision INTEGER NOT NULL,
                has_unsent_changes INTEGER NOT NULL,
                next_task_number INTEGER NOT NULL)
            """,
            """
            CREATE TABLE tasks (
                position INTEGER PRIMARY KEY,
                id TEXT NOT NULL UNIQUE,
                text TEXT NOT NULL,
                important INTEGER NOT NULL)
            """,
        ],
        [
            // The server's list the device's tasks are changes of (version 2: merges, not overwrites).
            """
            CREATE TABLE base_tasks (
                position INTEGER PRIMARY KEY,
                id TEXT NOT NULL UNIQUE,
                text TEXT NOT NULL,
                important INTEGER NOT NULL)
            """,
        ],
        [
            // An upload whose answer never came (version 3): its list and the revision it was based on
            // (NULL: none), so that a change made after it is merged on top of it.
            "ALTER TABLE task_list ADD COLUMN unacknowledged_based_on INTEGER",
            """
            CREATE TABLE unacknowledged_tasks (
                position INTEGER PRIMARY KEY,
                id TEXT NOT NULL UNIQUE,
                text TEXT NOT NULL,
                important INTEGER NOT NULL)
            """,
        ],
    ]

    /// The database file the tables are in.
    public let database: SQLiteDatabase

    /// A store in the file at `path` (created on first use).
    public convenience init(path: String, faults: StorageFaults = StorageFaults(), now: @escaping () -> VirtualInstant) {
        self.init(database: SQLiteDatabase(path: path, migrations: Self.migrations, faults: faults, now: now))
    }

    /// A store in `database`, which must have been made with ``migrations``.
    public init(database: SQLiteDatabase) {
        self.database = database
    }

    public func load() throws(StorageError) -> TaskListLocalState {
        try database.read("task list") { db throws(SQLiteError) -> TaskListLocalState in
            guard let list = try db.query(
                "SELECT account, revision, has_unsent_changes, next_task_number, unacknowledged_based_on FROM task_list WHERE id = 1"
            ).first else {
                return TaskListLocalState()
            }
            func tasks(in table: String) throws(SQLiteError) -> [TaskItem] {
                try db.query("SELECT id, text, important FROM \(table) ORDER BY position").map { row in
                    TaskItem(id: row[0].string ?? "", text: row[1].string ?? "", important: row[2].int == 1)
                }
            }
            return TaskListLocalState(
                account: list[0].string, tasks: try tasks(in: "tasks"), revision: Int(list[1].int ?? 0), base: try tasks(in: "base_tasks"),
                hasUnsentChanges: list[2].int == 1, nextTaskNumber: Int(list[3].int ?? 1),
                unacknowledged: try list[4].int.map { basedOn throws(SQLiteError) in
                    UnacknowledgedTaskUpload(tasks: try tasks(in: "unacknowledged_tasks"), basedOn: Int(basedOn))
                })
        }
    }

    public func save(_ state: TaskListLocalState) throws(StorageError) {
        try database.write("task list") { db throws(SQLiteError) in
            try db.execute("DELETE FROM tasks")
            try db.execute("DELETE FROM base_tasks")
            try db.execute("DELETE FROM unacknowledged_tasks")
            try db.execute(
                """
                INSERT OR REPLACE INTO task_list (id, account, revision, has_unsent_changes, next_task_number, unacknowledged_based_on)
                VALUES (1, ?, ?, ?, ?, ?)
                """,
                [SQLiteValue(state.account), .integer(Int64(state.revision)), .integer(state.hasUnsentChanges ? 1 : 0), .integer(Int64(state.nextTaskNumber)),
                 state.unacknowledged.map { .integer(Int64($0.basedOn)) } ?? .null])
            for (table, tasks) in [("tasks", state.tasks), ("base_tasks", state.base), ("unacknowledged_tasks", state.unacknowledged?.tasks ?? [])] {
                for (position, task) in tasks.enumerated() {
                    try db.execute("INSERT INTO \(table) (position, id, text, important) VALUES (?, ?, ?, ?)",
                                   [.integer(Int64(position)), .text(task.id), .text(task.text), .integer(task.important ? 1 : 0)])
                }
            }
        }
    }
}
