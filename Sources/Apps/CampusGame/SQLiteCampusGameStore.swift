import DeviceSimHAL
import DeviceSimStorage
import DeviceSimTime
import Foundation

/// The campus game's local state (the joined game, its objectives, the ones achieved, the ones whose
/// request got no answer) in tables of an ``SQLiteDatabase``, saved whole in one transaction.
///
/// ```swift
/// let store = SQLiteCampusGameStore(path: dir + "/alice.campus-game.sqlite", now: { scheduler.now })
/// sqlite3 alice.campus-game.sqlite 'SELECT objective_id FROM achieved'
/// ```
public final class SQLiteCampusGameStore: CampusGameStore {
    /// The schema, one migration per version.
    public static let migrations: [[String]] = [
        [
            "CREATE TABLE game (id INTEGER PRIMARY KEY CHECK (id = 1), game_id TEXT)",
            """
            CREATE TABLE objectives (
                position INTEGER PRIMARY KEY,
                id TEXT NOT NULL UNIQUE,
                name TEXT NOT NULL,
                latitude REAL NOT NULL,
                longitude REAL NOT NULL,
                radius REAL NOT NULL,
                points INTEGER NOT NULL)
            """,
            "CREATE TABLE achieved (objective_id TEXT PRIMARY KEY)",
        ],
        // Version 2: the objectives whose request got no answer (sent again when tapped again).
        ["CREATE TABLE unanswered (objective_id TEXT PRIMARY KEY)"],
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

    public func load() throws(StorageError) -> CampusGameLocalState {
        try database.read("campus game") { db throws(SQLiteError) -> CampusGameLocalState in
            let gameID = try db.query("SELECT game_id FROM game WHERE id = 1").first?.first?.string
            let objectives = try db.query("SELECT id, name, latitude, longitude, radius, points FROM objectives ORDER BY position").map { row in
                StoredObjective(GameObjective(
                    id: row[0].string ?? "", name: row[1].string, center: GeoCoordinate(latitude: row[2].double ?? 0, longitude: row[3].double ?? 0),
                    radius: row[4].double ?? 0, points: Int(row[5].int ?? 0)))
            }
            let achieved = try db.query("SELECT objective_id FROM achieved").compactMap { $0[0].string }
            let unanswered = try db.query("SELECT objective_id FROM unanswered").compactMap { $0[0].string }
            return CampusGameLocalState(gameID: gameID, objectives: objectives, achieved: Set(achieved), unanswered: Set(unanswered))
        }
    }

    public func save(_ state: CampusGameLocalState) throws(StorageError) {
        try database.write("campus game") { db throws(SQLiteError) in
            try db.execute("DELETE FROM objectives")
            try db.execute("DELETE FROM achieved")
            try db.execute("DELETE FROM unanswered")
            try db.execute("INSERT OR REPLACE INTO game (id, game_id) VALUES (1, ?)", [SQLiteValue(state.gameID)])
            for (position, objective) in state.objectives.enumerated() {
                try db.execute(
                    "INSERT INTO objectives (position, id, name, latitude, longitude, radius, points) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [.integer(Int64(position)), .text(objective.id), .text(objective.name), .real(objective.latitude), .real(objective.longitude),
                     .real(objective.radius), .integer(Int64(objective.points))])
            }
            for id in state.achieved.sorted() { try db.execute("INSERT INTO achieved (objective_id) VALUES (?)", [.text(id)]) }
            for id in state.unanswered.sorted() { try db.execute("INSERT INTO unanswered (objective_id) VALUES (?)", [.text(id)]) }
        }
    }
}
