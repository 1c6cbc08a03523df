import DeviceSimFriendLocator
import DeviceSimHAL
import DeviceSimStorage
import Foundation
import Testing

/// The friend locator's store leaves a table alone when a save would write the same rows into it
/// again (a database in a memory folder): the file must stay byte for byte what rewriting every
/// table gives, as a store on disk (which always rewrites them) leaves it.
@Suite final class FriendLocatorStoreTests {
    let disk: DataFolder
    let unused: DataFolder

    init() throws {
        disk = try DataFolder.temporary(prefix: "devicesim-friend-store-disk-")
        unused = try DataFolder.temporary(prefix: "devicesim-friend-store-unused-")
    }

    static func queued(_ number: Int, hotspot: String? = "library", latitude: Double = 52.51) -> FriendLocatorLocalState.Queued {
        FriendLocatorLocalState.Queued(
            kind: number.isMultiple(of: 2) ? .sync : .ping, requestID: "alice-\(number)", group: number.isMultiple(of: 2) ? nil : "family",
            location: SharedLocation(
                account: "alice", hotspot: hotspot, coordinate: GeoCoordinate(latitude: latitude, longitude: 13.33), precision: .beacon),
            version: number, attempts: 1)
    }

    static func visit(_ hotspot: String, complete: Bool = true) -> FriendLocatorLocalState.Visit {
        FriendLocatorLocalState.Visit(hotspot: hotspot, group: "family", isComplete: complete)
    }

    /// States an app saves one after another: some change only the outbox or only the visits, some
    /// change nothing, one outbox is too large for one page (40 rows), and a coordinate turns from
    /// 0.0 into -0.0 (equal numbers, different bytes).
    static let states: [FriendLocatorLocalState] = {
        let many = (0..<40).map { queued($0) }
        return [
            FriendLocatorLocalState(account: "alice"),
            FriendLocatorLocalState(account: "alice"),
            FriendLocatorLocalState(account: "alice", queued: [queued(1)]),
            FriendLocatorLocalState(account: "alice", queued: [queued(1)], visits: [visit("library", complete: false)]),
            FriendLocatorLocalState(account: "alice", queued: [queued(1)], visits: [visit("library")]),
            FriendLocatorLocalState(account: "alice", queued: [queued(1), queued(2)], visits: [visit("library")]),
            FriendLocatorLocalState(account: "alice", queued: [queued(1), queued(2)], visits: [visit("library")]),
            FriendLocatorLocalState(account: "alice", trackingOff: true, queued: [queued(1), queued(2)], visits: [visit("library")]),
            FriendLocatorLocalState(account: "alice", queued: many, visits: [visit("library")]),
            FriendLocatorLocalState(account: "alice", queued: many, visits: [visit("library"), visit("mensa")]),
            FriendLocatorLocalState(account: "alice", queued: many, visits: [visit("library"), visit("mensa")]),
            FriendLocatorLocalState(account: "alice", queued: [queued(3, latitude: 0.0)], visits: [visit("mensa")]),
            FriendLocatorLocalState(account: "alice", queued: [queued(3, latitude: -0.0)], visits: [visit("mensa")]),
            FriendLocatorLocalState(account: nil, queued: [], visits: []),
            FriendLocatorLocalState(account: nil, queued: [], visits: []),
        ]
    }()

    func store(on disk: Bool, memory: SQLiteMemoryFolder? = nil) -> SQLiteFriendLocatorStore {
        let database = disk
            ? SQLiteDatabase(folder: self.disk, file: "alice.friend-locator.sqlite", migrations: SQLiteFriendLocatorStore.migrations, now: { .zero })
            : SQLiteDatabase(
                folder: unused, file: "alice.friend-locator.sqlite", migrations: SQLiteFriendLocatorStore.migrations,
                pool: SQLiteConnectionPool(capacity: 1), memory: memory, now: { .zero })
        return SQLiteFriendLocatorStore(database: database)
    }

    @Test func everySaveLeavesTheFileARewriteOfEveryTableLeaves() throws {
        let memory = try SQLiteMemoryFolder()
        let rewriting = store(on: true), keeping = store(on: false, memory: memory)
        for (index, state) in Self.states.enumerated() {
            try rewriting.save(state)
            try keeping.save(state)
            rewriting.database.close()   // so that the disk file holds every page
            let onDisk = try #require(FileManager.default.contents(atPath: rewriting.database.path))
            let inMemory = try #require(memory.contents(of: "alice.friend-locator.sqlite"))
            #expect([UInt8](onDisk) == inMemory, "after save \(index + 1)")
            #expect(try keeping.load() == state, "after save \(index + 1)")
        }
    }

    @Test func aSaveAfterTheFileWasDamagedWritesEveryTableAgain() throws {
        let memory = try SQLiteMemoryFolder()
        let keeping = store(on: false, memory: memory)
        let state = FriendLocatorLocalState(account: "alice", queued: [Self.queued(1)], visits: [Self.visit("library")])
        try keeping.save(state)
        keeping.database.damageFile()
        #expect(throws: StorageError.self) { try keeping.load() }   // the damaged file is set aside, a fresh one made
        try keeping.save(state)
        #expect(try keeping.load() == state)
    }

    @Test func aSaveTheAppIsKilledInLeavesWhatTheLastSaveLeft() throws {
        let memory = try SQLiteMemoryFolder()
        let keeping = store(on: false, memory: memory)
        let first = FriendLocatorLocalState(account: "alice", queued: [Self.queued(1)], visits: [Self.visit("library")])
        try keeping.save(first)
        keeping.database.killDuringNextWrite()
        #expect(throws: StorageError.self) { try keeping.save(FriendLocatorLocalState(account: "alice", visits: [Self.visit("library")])) }
        #expect(try keeping.load() == first)
        try keeping.save(first)
        #expect(try keeping.load() == first)
    }
}
