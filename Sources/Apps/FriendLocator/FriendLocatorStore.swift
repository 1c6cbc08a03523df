import DeviceSimHAL
import DeviceSimStorage
import DeviceSimTime

/// What the friend-locator app keeps on the device, so a killed or restarted app goes on where it
/// was: who is signed in, whether location tracking was turned off, what could not be sent yet
/// (the newest location and the pings, each with the request id its retries keep), and how far the
/// visits of the hotspots she is in got.
public struct FriendLocatorLocalState: Sendable, Hashable {
    /// How far the visit of a hotspot she is in got: a restarted app that finds her still there goes
    /// on from here instead of pinging her friends a second time.
    public struct Visit: Sendable, Hashable {
        /// The hotspot.
        public var hotspot: String
        /// The group informed on entering (nil: nobody, the user declined).
        public var group: String?
        /// Whether the visit is over (located or not, synced and pinged); otherwise only the group
        /// question is behind it (or still before it: ``isGroupAnswered``).
        public var isComplete: Bool
        /// Whether the user answered "inform a group?" (false: the app was killed or restarted while
        /// it showed; a restarted app asks it again and the visit goes on, `resumed: true`).
        public var isGroupAnswered: Bool

        /// Creates a visit's progress.
        public init(hotspot: String, group: String?, isComplete: Bool, isGroupAnswered: Bool = true) {
            self.hotspot = hotspot
            self.group = group
            self.isComplete = isComplete
            self.isGroupAnswered = isGroupAnswered
        }
    }

    /// A location or a ping waiting to be sent.
    public struct Queued: Sendable, Hashable {
        /// `sync` (the newest location) or `ping`.
        public var kind: Kind
        /// The request id every attempt carries (the server applies it once).
        public var requestID: String
        /// The group pinged (pings only).
        public var group: String?
        /// The location.
        public var location: SharedLocation
        /// The location's version (syncs only: the newest wins).
        public var version: Int
        /// Attempts made so far.
        public var attempts: Int

        /// What is waiting.
        public enum Kind: String, Sendable, Hashable {
            case sync, ping
        }

        /// Creates a queued request.
        public init(kind: Kind, requestID: String, group: String?, location: SharedLocation, version: Int, attempts: Int) {
            self.kind = kind
            self.requestID = requestID
            self.group = group
            self.location = location
            self.version = version
            self.attempts = attempts
        }
    }

    /// The signed-in account (nil: signed out).
    public var account: String?
    /// Whether the user turned location tracking off.
    public var trackingOff: Bool
    /// What waits to be sent, in order.
    public var queued: [Queued]
    /// The visits of the hotspots she is in that got past the group question, in the order entered.
    public var visits: [Visit]

    /// Creates a state.
    public init(account: String? = nil, trackingOff: Bool = false, queued: [Queued] = [], visits: [Visit] = []) {
        self.account = account
        self.trackingOff = trackingOff
        self.queued = queued
        self.visits = visits
    }
}

/// Where the friend-locator app keeps its ``FriendLocatorLocalState``; a save is all or nothing.
public protocol FriendLocatorStore: AnyObject {
    /// The saved state; nil when nothing was ever saved (the app starts from its settings).
    func load() throws(StorageError) -> FriendLocatorLocalState?
    /// Replaces the saved state.
    func save(_ state: FriendLocatorLocalState) throws(StorageError)
}

/// A ``FriendLocatorStore`` in memory, for tests and for apps without a database.
public final class InMemoryFriendLocatorStore: FriendLocatorStore {
    /// What is saved.
    public private(set) var state: FriendLocatorLocalState?

    /// A store holding `state` (nil: nothing saved).
    public init(_ state: FriendLocatorLocalState? = nil) {
        self.state = state
    }

    public func load() throws(StorageError) -> FriendLocatorLocalState? { state }

    public func save(_ state: FriendLocatorLocalState) throws(StorageError) { self.state = state }
}

/// The friend-locator app's state in tables of an ``SQLiteDatabase`` (`<device>.friend-locator.sqlite`
/// in scenarios): `session` (`account`, `tracking_off`), `outbox` (what waits to be sent) and `visits`
/// (`hotspot`, `grp`, `complete`, `group_answered`: how far the visit of each hotspot she is in got).
///
/// ```swift
/// let store = SQLiteFriendLocatorStore(database: SQLiteDatabase(path: path, migrations: SQLiteFriendLocatorStore.migrations, now: { scheduler.now }))
/// sqlite3 alice.friend-locator.sqlite 'SELECT kind, grp, hotspot FROM outbox'
/// ```
public final class SQLiteFriendLocatorStore: FriendLocatorStore {
    /// The schema, one migration per version.
    public static let migrations: [[String]] = [
        [
            "CREATE TABLE session (id INTEGER PRIMARY KEY CHECK (id = 1), account TEXT, tracking_off INTEGER NOT NULL)",
            """
            CREATE TABLE outbox (
                position INTEGER PRIMARY KEY,
                kind TEXT NOT NULL,
                request_id TEXT NOT NULL,
                grp TEXT,
                account TEXT NOT NULL,
                hotspot TEXT,
                latitude REAL,
                longitude REAL,
                precision TEXT NOT NULL,
                version INTEGER NOT NULL,
                attempts INTEGER NOT NULL)
            """,
        ],
        [
            "CREATE TABLE visits (position INTEGER PRIMARY KEY, hotspot TEXT NOT NULL, grp TEXT, complete INTEGER NOT NULL)",
        ],
        [
            // A visit begun while "inform a group?" showed (0: not answered yet).
            "ALTER TABLE visits ADD COLUMN group_answered INTEGER NOT NULL DEFAULT 1",
        ],
    ]

    /// The database file the tables are in.
    public let database: SQLiteDatabase

    /// A store in `database`, which must have been made with ``migrations``.
    public init(database: SQLiteDatabase) {
        self.database = database
    }

    public func load() throws(StorageError) -> FriendLocatorLocalState? {
        try database.read("friend locator") { db throws(SQLiteError) -> FriendLocatorLocalState? in
            guard let session = try db.query("SELECT account, tracking_off FROM session WHERE id = 1").first else { return nil }
            let queued = try db.query(
                "SELECT kind, request_id, grp, account, hotspot, latitude, longitude, precision, version, attempts FROM outbox ORDER BY position"
            ).map { row in
                let coordinate = row[5].double.flatMap { lat in row[6].double.map { GeoCoordinate(latitude: lat, longitude: $0) } }
                return FriendLocatorLocalState.Queued(
                    kind: FriendLocatorLocalState.Queued.Kind(rawValue: row[0].string ?? "") ?? .sync, requestID: row[1].string ?? "",
                    group: row[2].string,
                    location: SharedLocation(
                        account: row[3].string ?? "", hotspot: row[4].string, coordinate: coordinate,
                        precision: LocationPrecision(rawValue: row[7].string ?? "") ?? .hotspot),
                    version: Int(row[8].int ?? 0), attempts: Int(row[9].int ?? 0))
            }
            let visits = try db.query("SELECT hotspot, grp, complete, group_answered FROM visits ORDER BY position").map { row in
                FriendLocatorLocalState.Visit(
                    hotspot: row[0].string ?? "", group: row[1].string, isComplete: (row[2].int ?? 0) != 0, isGroupAnswered: (row[3].int ?? 1) != 0)
            }
            return FriendLocatorLocalState(account: session[0].string, trackingOff: (session[1].int ?? 0) != 0, queued: queued, visits: visits)
        }
    }

    /// What the last committed save left in `visits` and `outbox`, with the database's
    /// ``SQLiteDatabase/revision`` right after it (nil: not known, the next save rewrites both).
    private var written: (revision: Int, visits: [FriendLocatorLocalState.Visit], queued: [FriendLocatorLocalState.Queued])?

    /// Replaces the saved state in one transaction. A table whose rows are the ones the last
    /// committed save of this store left there, when nothing else changed the file since and the
    /// rows fit in the table's one page, is left alone: deleting and inserting the same rows again
    /// would leave the same bytes (SQLite's `secure_delete` clears a page before its rows are
    /// written again), so the file is byte for byte what rewriting both tables gives, for fewer
    /// statements. The session row is always written, so every save commits a change as before.
    public func save(_ state: FriendLocatorLocalState) throws(StorageError) {
        let known = database.isInMemoryFolder && !database.isNextWriteKilled ? written.flatMap { $0.revision == database.revision ? $0 : nil } : nil
        let keepVisits = known.map { $0.visits == state.visits && Self.fitInOnePage(state.visits) } ?? false
        let keepQueued = known.map { Self.sameBytes($0.queued, state.queued) && Self.fitInOnePage(state.queued) } ?? false
        written = nil
        try database.write("friend locator") { db throws(SQLiteError) in
            if !keepQueued { try db.execute("DELETE FROM outbox") }
            if !keepVisits {
                try db.execute("DELETE FROM visits")
                for (position, visit) in state.visits.enumerated() {
                    try db.execute(
                        "INSERT INTO visits (position, hotspot, grp, complete, group_answered) VALUES (?, ?, ?, ?, ?)",
                        [.integer(Int64(position)), .text(visit.hotspot), SQLiteValue(visit.group), .integer(visit.isComplete ? 1 : 0),
                         .integer(visit.isGroupAnswered ? 1 : 0)])
                }
            }
            try db.execute(
                "INSERT OR REPLACE INTO session (id, account, tracking_off) VALUES (1, ?, ?)",
                [SQLiteValue(state.account), .integer(state.trackingOff ? 1 : 0)])
            guard !keepQueued else { return }
            for (position, item) in state.queued.enumerated() {
                try db.execute(
                    """
                    INSERT INTO outbox (position, kind, request_id, grp, account, hotspot, latitude, longitude, precision, version, attempts)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [.integer(Int64(position)), .text(item.kind.rawValue), .text(item.requestID), SQLiteValue(item.group),
                     .text(item.location.account), SQLiteValue(item.location.hotspot),
                     item.location.coordinate.map { .real($0.latitude) } ?? .null, item.location.coordinate.map { .real($0.longitude) } ?? .null,
                     .text(item.location.precision.rawValue), .integer(Int64(item.version)), .integer(Int64(item.attempts))])
            }
        }
        written = (database.revision, state.visits, state.queued)
    }

    /// Whether `visits` certainly fit in one 4096-byte page of the `visits` table: then deleting and
    /// inserting them again frees and takes no page, and leaves other tables' pages alone.
    static func fitInOnePage(_ visits: [FriendLocatorLocalState.Visit]) -> Bool {
        visits.count <= 16 && visits.reduce(0) { $0 + $1.hotspot.utf8.count + ($1.group?.utf8.count ?? 0) + 32 } <= 2048
    }

    /// Whether `a` and `b` are the same rows to the bit (`==` takes 0.0 and -0.0 for one number).
    static func sameBytes(_ a: [FriendLocatorLocalState.Queued], _ b: [FriendLocatorLocalState.Queued]) -> Bool {
        a == b && zip(a, b).allSatisfy { first, second in
            first.location.coordinate?.latitude.bitPattern == second.location.coordinate?.latitude.bitPattern
                && first.location.coordinate?.longitude.bitPattern == second.location.coordinate?.longitude.bitPattern
        }
    }

    /// Whether `queued` certainly fit in one 4096-byte page of the `outbox` table.
    static func fitInOnePage(_ queued: [FriendLocatorLocalState.Queued]) -> Bool {
        queued.count <= 16 && queued.reduce(0) { total, item in
            total + item.requestID.utf8.count + (item.group?.utf8.count ?? 0) + item.location.account.utf8.count
                + (item.location.hotspot?.utf8.count ?? 0) + 80
        } <= 2048
    }
}
