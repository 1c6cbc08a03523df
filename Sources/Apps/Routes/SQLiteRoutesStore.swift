import DeviceSimHAL
import DeviceSimStorage
import DeviceSimTime

/// The routes app's saved routes in tables of an ``SQLiteDatabase``: `routes` (one row a route) and
/// `route_places` (its places in order); each insert, update or delete is one transaction.
///
/// ```swift
/// let store = SQLiteRoutesStore(path: dir + "/phone.routes.sqlite", now: { scheduler.now })
/// let saved = try store.insert(name: "To Kamppi", route: route)
/// sqlite3 phone.routes.sqlite 'SELECT name, length_m, time_s FROM routes'
/// ```
public final class SQLiteRoutesStore: RoutesStore {
    /// The schema, one migration per version.
    public static let migrations: [[String]] = [
        [
            """
            CREATE TABLE routes (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                mode TEXT NOT NULL,
                start_latitude REAL NOT NULL,
                start_longitude REAL NOT NULL,
                length_m REAL NOT NULL,
                time_s REAL NOT NULL)
            """,
            """
            CREATE TABLE route_places (
                route_id INTEGER NOT NULL REFERENCES routes(id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                name TEXT NOT NULL,
                latitude REAL NOT NULL,
                longitude REAL NOT NULL,
                PRIMARY KEY (route_id, position))
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

    public func load() throws(StorageError) -> [SavedRoute] {
        try database.read("routes") { db throws(SQLiteError) -> [SavedRoute] in
            var places: [Int64: [RoutePlace]] = [:]
            for row in try db.query("SELECT route_id, name, latitude, longitude FROM route_places ORDER BY route_id, position") {
                places[row[0].int ?? 0, default: []].append(
                    RoutePlace(name: row[1].string ?? "", coordinate: GeoCoordinate(latitude: row[2].double ?? 0, longitude: row[3].double ?? 0)))
            }
            return try db.query("SELECT id, name, mode, start_latitude, start_longitude, length_m, time_s FROM routes ORDER BY id").map { row in
                let id = row[0].int ?? 0
                let route = PlannedRoute(
                    start: GeoCoordinate(latitude: row[3].double ?? 0, longitude: row[4].double ?? 0), places: places[id] ?? [],
                    mode: row[2].string ?? "", metres: row[5].double ?? 0, seconds: row[6].double ?? 0)
                return SavedRoute(id: Int(id), name: row[1].string ?? "", route: route)
            }
        }
    }

    public func insert(name: String, route: PlannedRoute) throws(StorageError) -> SavedRoute {
        try database.write("routes") { db throws(SQLiteError) -> SavedRoute in
            try db.execute(
                "INSERT INTO routes (name, mode, start_latitude, start_longitude, length_m, time_s) VALUES (?, ?, ?, ?, ?, ?)",
                [.text(name), .text(route.mode), .real(route.start.latitude), .real(route.start.longitude), .real(route.metres), .real(route.seconds)])
            let saved = SavedRoute(id: Int(db.lastInsertID), name: name, route: route)
            try Self.insertPlaces(of: saved, into: db)
            return saved
        }
    }

    public func update(_ route: SavedRoute) throws(StorageError) {
        try database.write("routes") { db throws(SQLiteError) in
            try db.execute(
                "UPDATE routes SET name = ?, mode = ?, start_latitude = ?, start_longitude = ?, length_m = ?, time_s = ? WHERE id = ?",
                [.text(route.name), .text(route.route.mode), .real(route.route.start.latitude), .real(route.route.start.longitude),
                 .real(route.route.metres), .real(route.route.seconds), .integer(Int64(route.id))])
            try db.execute("DELETE FROM route_places WHERE route_id = ?", [.integer(Int64(route.id))])
            try Self.insertPlaces(of: route, into: db)
        }
    }

    public func delete(id: Int) throws(StorageError) {
        try database.write("routes") { db throws(SQLiteError) in
            try db.execute("DELETE FROM route_places WHERE route_id = ?", [.integer(Int64(id))])
            try db.execute("DELETE FROM routes WHERE id = ?", [.integer(Int64(id))])
        }
    }

    private static func insertPlaces(of route: SavedRoute, into db: SQLiteConnection) throws(SQLiteError) {
        for (position, place) in route.route.places.enumerated() {
            try db.execute(
                "INSERT INTO route_places (route_id, position, name, latitude, longitude) VALUES (?, ?, ?, ?, ?)",
                [.integer(Int64(route.id)), .integer(Int64(position)), .text(place.name), .real(place.coordinate.latitude), .real(place.coordinate.longitude)])
        }
    }
}
