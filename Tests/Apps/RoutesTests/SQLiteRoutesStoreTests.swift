import DeviceSimHAL
import DeviceSimRoutes
import DeviceSimStorage
import DeviceSimTime
import Foundation
import Testing

@Suite final class SQLiteRoutesStoreTests {
    let folder: DataFolder

    init() throws {
        folder = try DataFolder.temporary(prefix: "devicesim-routes-tests-")
    }

    func store() -> SQLiteRoutesStore {
        SQLiteRoutesStore(path: folder.appending("phone.routes.sqlite"), now: { .zero })
    }

    let museums = PlannedRoute(
        start: GeoCoordinate(latitude: 60.171, longitude: 24.9414),
        places: [RoutePlace(name: "ateneum", coordinate: GeoCoordinate(latitude: 60.17, longitude: 24.9442)),
                 RoutePlace(name: "kiasma", coordinate: GeoCoordinate(latitude: 60.1719, longitude: 24.9368))],
        mode: "foot", metres: 1235.4, seconds: 891.8)

    @Test func routesRoundTripThroughTheFileWithTheirPlacesInOrder() throws {
        let first = store()
        #expect(try first.load().isEmpty)
        let one = try first.insert(name: "Museums", route: museums)
        var shorter = museums
        shorter.places.removeFirst()
        let two = try first.insert(name: "Kiasma", route: shorter)
        #expect(one.id != two.id)
        first.database.close()
        #expect(try store().load() == [one, two])
    }

    @Test func updateReplacesNameAndPlacesAndDeleteRemovesOnlyThatRoute() throws {
        let db = store()
        var one = try db.insert(name: "Museums", route: museums)
        let two = try db.insert(name: "Other", route: museums)
        one.name = "Art"
        one.route.places.append(RoutePlace(name: "senate-square", coordinate: GeoCoordinate(latitude: 60.1695, longitude: 24.9523)))
        try db.update(one)
        #expect(try db.load() == [one, two])
        try db.delete(id: one.id)
        #expect(try db.load() == [two])
    }

    @Test func aFailedWriteKeepsWhatWasSavedBefore() throws {
        let db = store()
        let saved = try db.insert(name: "Museums", route: museums)
        for kind in [StorageFaults.Kind.diskFull, .writeError, .readOnly] {
            db.database.faults.inject(kind, count: 1)
            #expect(throws: StorageError.self) { _ = try db.insert(name: "New", route: museums) }
            db.database.faults.inject(kind, count: 1)
            #expect(throws: StorageError.self) { try db.update(SavedRoute(id: saved.id, name: "Renamed", route: museums)) }
            db.database.faults.inject(kind, count: 1)
            #expect(throws: StorageError.self) { try db.delete(id: saved.id) }
            #expect(try db.load() == [saved])
        }
    }
}
