import DeviceSimHAL
import Foundation
import Testing

@Suite struct SimulatedStorageTests {
    @Test func savesReadsAndDeletes() throws {
        let storage = SimulatedStorage()
        try storage.write(Data("a".utf8), for: "routes/1")
        try storage.write(Data("bb".utf8), for: "routes/0")
        #expect(try storage.read("routes/1") == Data("a".utf8))
        #expect(try storage.keys() == ["routes/0", "routes/1"])
        try storage.delete("routes/1")
        #expect(try storage.read("routes/1") == nil)
        #expect(storage.usedBytes == 2)
    }

    @Test func aFullDiskRefusesTheWriteAndKeepsTheOldValue() throws {
        let storage = SimulatedStorage(capacity: 10)
        try storage.write(Data(count: 6), for: "a")
        #expect(throws: StorageError.diskFull(key: "b", needed: 5, available: 4)) { try storage.write(Data(count: 5), for: "b") }
        // Replacing a value counts the space it frees.
        try storage.write(Data(count: 10), for: "a")
        #expect(try storage.read("a")?.count == 10)
    }

    @Test func injectedFaultsFailWithoutLosingData() throws {
        let storage = SimulatedStorage()
        try storage.write(Data("kept".utf8), for: "k")
        storage.failingWrites = true
        #expect(throws: StorageError.self) { try storage.write(Data("lost".utf8), for: "k") }
        #expect(throws: StorageError.self) { try storage.delete("k") }
        storage.failingWrites = false
        #expect(try storage.read("k") == Data("kept".utf8))
        storage.failingReads = true
        #expect(throws: StorageError.readFailed(key: "k", reason: "injected read error")) { try storage.read("k") }
        #expect(StorageError.diskFull(key: "x", needed: 3, available: 1).description == "cannot save 'x': the disk is full (3 bytes needed, 1 available)")
    }
}
