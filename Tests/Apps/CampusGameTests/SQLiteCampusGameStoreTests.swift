import DeviceSimCampusGame
import DeviceSimHAL
import DeviceSimStorage
import DeviceSimTime
import Foundation
import Testing

@Suite final class SQLiteCampusGameStoreTests {
    let folder: DataFolder

    init() throws {
        folder = try DataFolder.temporary(prefix: "devicesim-campus-game-tests-")
    }

    func store() -> SQLiteCampusGameStore {
        SQLiteCampusGameStore(path: folder.appending("alice.campus-game.sqlite"), now: { .zero })
    }

    let state = CampusGameLocalState(
        gameID: "2026-03-29",
        objectives: [
            StoredObjective(GameObjective(id: "library", name: "University Library", center: GeoCoordinate(latitude: 52.5108, longitude: 13.3305), radius: 30, points: 10)),
            StoredObjective(GameObjective(id: "mensa", center: GeoCoordinate(latitude: 52.5098, longitude: 13.326), radius: 40, points: 5)),
        ],
        achieved: ["mensa"], unanswered: ["library"])

    @Test func theStateRoundTripsThroughTheFile() throws {
        #expect(try store().load() == CampusGameLocalState())
        let first = store()
        try first.save(state)
        first.database.close()
        #expect(try store().load() == state)
    }

    @Test func aFailedSaveKeepsTheStateSavedBefore() throws {
        let db = store()
        try db.save(state)
        db.database.faults.inject(.diskFull, count: 1)
        var later = state
        later.achieved.insert("library")
        #expect(throws: StorageError.noSpace(key: "campus game")) { try db.save(later) }
        #expect(try db.load() == state)
        try db.save(later)
        #expect(try db.load().achieved == ["library", "mensa"])
    }

    @Test func theUnansweredRequestsAreKeptAndCleared() throws {
        let db = store()
        try db.save(state)
        #expect(try db.load().unanswered == ["library"])
        var answered = state
        answered.unanswered = []
        try db.save(answered)
        #expect(try db.load().unanswered.isEmpty)
    }
}
