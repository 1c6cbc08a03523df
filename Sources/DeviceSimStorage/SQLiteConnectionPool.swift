/// Keeps at most ``capacity`` of many databases' connections open at once: a database that is used
/// again after its connection was closed opens its file again, as an app that closed it would. The
/// least recently used connection is closed to make room, never one in the middle of a read or a write.
///
/// Closing a connection between transactions changes nothing in the file (every write is one committed
/// transaction, and the rollback journal is in memory), so a run's files are the same whatever the
/// capacity; what it bounds is memory (about 49 KB an idle connection keeping a device's cached pages
/// while the pool has room, about 32 KB once it is full and they are freed after each use) and the
/// work SQLite's unix VFS does at every open (it walks its list of the process's open files).
///
/// When the pool is full, a database of a memory folder whose schema its migrations made borrows the
/// least recently used idle connection instead, when that one holds the same schema in the same
/// folder (``connection(lentTo:)``): the connection is pointed at the other file, keeping its parsed
/// schema and prepared statements, so a fleet's devices no longer each pay for a reopen.
///
/// ```swift
/// let pool = SQLiteConnectionPool(capacity: 256)
/// let database = SQLiteDatabase(folder: folder, file: "d1.sqlite", migrations: migrations, pool: pool, now: { scheduler.now })
/// ```
///
/// Not thread-safe: one simulation's databases, used on its thread.
public final class SQLiteConnectionPool {
    /// How many connections may be open at once.
    public let capacity: Int
    /// The databases whose connection is open, with when each was last used.
    private var open: [ObjectIdentifier: (database: SQLiteDatabase, lastUse: UInt64)] = [:]
    /// Every use of an open database, oldest first; an entry whose instant is no longer its
    /// database's last use (or whose database closed) is stale and skipped. The least recently used
    /// database is the first entry that is not stale: found without looking at every open one.
    private var uses: [(database: ObjectIdentifier, instant: UInt64)] = []
    /// Where ``uses`` begins (entries before it were taken).
    private var usesStart = 0
    private var clock: UInt64 = 0

    /// A pool of at most `capacity` open connections (at least one).
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// How many connections are open now.
    public var openCount: Int { open.count }
    /// Whether as many connections are open as the pool allows (a database opening one then borrows
    /// or closes another's).
    public var isFull: Bool { open.count >= capacity }
    /// How many times a database borrowed another's connection instead of opening its file
    /// (``connection(lentTo:)``).
    public private(set) var connectionsLent = 0

    /// `database` was used: it is now the most recently used.
    func touch(_ database: SQLiteDatabase) {
        let key = ObjectIdentifier(database)
        guard open[key] != nil else { return }
        clock &+= 1
        open[key]?.lastUse = clock
        record(database, at: clock)
    }

    /// The connection of the least recently used idle database, taken from it for `database` (which
    /// has none open), when the pool is full and that connection holds the schema `database`'s
    /// migrations make, in its memory folder; nil otherwise (`database` then opens its own, and
    /// ``opened(_:)`` closes the least recently used one as before). The set of open databases after
    /// either is the same.
    func connection(lentTo database: SQLiteDatabase) -> SQLiteConnection? {
        guard isFull else { return nil }
        var passedOver: [(database: SQLiteDatabase, lastUse: UInt64)] = []
        // Those passed over stay the least recently used, in their order.
        defer {
            for entry in passedOver.reversed() {
                usesStart -= 1
                uses[usesStart] = (ObjectIdentifier(entry.database), entry.lastUse)
            }
        }
        while usesStart < uses.count {
            let (key, instant) = uses[usesStart]
            usesStart += 1
            guard let entry = open[key], entry.lastUse == instant else { continue }   // stale
            if entry.database.isInUse || entry.database === database {
                passedOver.append(entry)
                continue
            }
            guard entry.database.canLendConnection(to: database) else {
                passedOver.append(entry)
                return nil
            }
            connectionsLent += 1
            return entry.database.takeConnection()
        }
        return nil
    }

    /// Closes the idle connections whose own file is `name` that another database borrowed: after a
    /// crash left a rollback journal beside `name`, none but `name`'s own next connection may find it.
    func closeConnections(named name: String) {
        let named = open.values.filter { !$0.database.isInUse && $0.database.connectionName == name }
        for entry in named { entry.database.close() }
    }

    /// `database` opened its connection: the least recently used idle ones are closed while the pool
    /// is over capacity.
    func opened(_ database: SQLiteDatabase) {
        clock &+= 1
        open[ObjectIdentifier(database)] = (database, clock)
        record(database, at: clock)
        var busy: [(database: SQLiteDatabase, lastUse: UInt64)] = []
        while open.count > capacity, usesStart < uses.count {
            let (key, instant) = uses[usesStart]
            usesStart += 1
            guard let entry = open[key], entry.lastUse == instant else { continue }   // stale
            if entry.database.isInUse || entry.database === database {
                busy.append(entry)
                continue
            }
            entry.database.close()
        }
        // Busy ones stay the least recently used, in their order, for the next time.
        for entry in busy.reversed() {
            usesStart -= 1
            uses[usesStart] = (ObjectIdentifier(entry.database), entry.lastUse)
        }
    }

    /// `database` closed its connection.
    func closed(_ database: SQLiteDatabase) {
        open[ObjectIdentifier(database)] = nil
    }

    /// Notes a use; the log is rebuilt from the open databases when stale entries make up most of it.
    private func record(_ database: SQLiteDatabase, at instant: UInt64) {
        uses.append((ObjectIdentifier(database), instant))
        if uses.count - usesStart > 4 * max(open.count, 64) || usesStart > max(uses.count / 2, 1024) {
            uses = open.map { ($0.key, $0.value.lastUse) }.sorted { $0.instant < $1.instant }
            usesStart = 0
        }
    }
}
