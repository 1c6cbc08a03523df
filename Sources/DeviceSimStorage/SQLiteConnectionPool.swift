/// Keeps at most ``capacity`` of many databases' connections open at once: a database that is used
/// again after its connection was closed opens its file again, as an app that closed it would. The
/// least recently used connection is closed to make room, never one in the middle of a read or a write.
///
/// Closing a connection between transactions changes nothing in the file (every write is one committed
/// transaction, and the rollback journal is in memory), so a run's files are the same whatever the
/// capacity; what it bounds is memory (about 150 KB an open connection) and the work SQLite's unix VFS
/// does at every open (it walks its list of the process's open files).
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
    private var clock: UInt64 = 0

    /// A pool of at most `capacity` open connections (at least one).
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// How many connections are open now.
    public var openCount: Int { open.count }

    /// `database` was used: it is now the most recently used.
    func touch(_ database: SQLiteDatabase) {
        clock &+= 1
        open[ObjectIdentifier(database)]?.lastUse = clock
    }

    /// `database` opened its connection: the least recently used idle ones are closed while the pool
    /// is over capacity.
    func opened(_ database: SQLiteDatabase) {
        clock &+= 1
        open[ObjectIdentifier(database)] = (database, clock)
        while open.count > capacity {
            var oldest: (database: SQLiteDatabase, lastUse: UInt64)?
            for entry in open.values where !entry.database.isInUse && entry.database !== database {
                if entry.lastUse < oldest?.lastUse ?? .max { oldest = entry }
            }
            guard let oldest else { return }
            oldest.database.close()
        }
    }

    /// `database` closed its connection.
    func closed(_ database: SQLiteDatabase) {
        open[ObjectIdentifier(database)] = nil
    }
}
