import DeviceSim
import DeviceSimHAL
import DeviceSimScenario
import DeviceSimStorage
import Foundation
import Testing

@Suite struct DogWalkStorageScenarioTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    func scenario(_ name: String) throws -> Scenario {
        try ScenarioParser.parse(contentsOf: repositoryRoot.appendingPathComponent("Scenarios/dog-walk/\(name).yaml").path)
    }

    @Test func theAppKilledMidWriteLeavesADatabaseWithEveryEarlierRecordAndNothingHalfWritten() throws {
        let folder = try DataFolder.temporary(prefix: "devicesim-kill-test-")
        let simulation = ScenarioSimulation(try scenario("storage-killed-while-writing"), dataFolder: folder.path)
        try simulation.run()
        let database = try #require(simulation.device("walker")?.databases.first.map(SQLiteUserDataStore.init(database:)))
        // The kill left the poo's rollback journal beside the file, as a real kill of the process can.
        #expect(database.crashLeftJournal)
        #expect(simulation.trace.events.contains { $0.name == "app.killed" })
        // Opened afresh (as `sqlite3` would), the file is sound and holds exactly the three earlier records.
        let reopened = SQLiteUserDataStore(path: folder.appending("walker.sqlite"), now: { .zero })
        #expect(try reopened.integrityCheck() == "ok")
        let data = try #require(try reopened.load())
        #expect(data.records.map(\.kind) == [.pee, .poo, .pee])
        #expect(data.records.map(\.id) == [1, 2, 3])
    }

    @Test func aDiskFullWriteChangesNothingSavedAndTheDamagedFileIsSetAside() throws {
        let full = try DataFolder.temporary(prefix: "devicesim-full-test-")
        let result = ScenarioRunner().run(try scenario("storage-disk-full-placing-a-poo-loses-nothing"), traceFile: nil, keepingEvents: true, dataFolder: full.path)
        #expect(result.passed, "\(result.outcomes.filter { !$0.passed })")
        let records = try #require(try SQLiteUserDataStore(path: full.appending("walker.sqlite"), now: { .zero }).load()).records
        #expect(records.map(\.kind) == [.pee, .poo, .poo])

        let corrupt = try DataFolder.temporary(prefix: "devicesim-corrupt-test-")
        let restored = ScenarioRunner().run(try scenario("storage-corrupt-database-at-start"), traceFile: nil, keepingEvents: true, dataFolder: corrupt.path)
        #expect(restored.passed, "\(restored.outcomes.filter { !$0.passed })")
        #expect(FileManager.default.fileExists(atPath: corrupt.appending("walker.sqlite.corrupt-1")))
    }

    @Test func storageStepsAreCheckedWithTheirPlaceInTheFile() throws {
        func error(_ steps: String, app: String = "dog-walk") -> String {
            let text = """
                name: bad
                devices:
                  - { id: walker, at: [52.52, 13.405], app: { name: \(app) } }
                timeline:
                \(steps)
                """
            do {
                _ = try ScenarioParser.parse(text, file: "bad.yaml")
                return "parsed"
            } catch {
                return error.description
            }
        }
        #expect(error("  - { at: 1s, do: storage-fault, kind: disk-full }").contains("say how long the disk-full fault lasts: 'for: 30s' (a window) or 'count: 1'"))
        #expect(error("  - { at: 1s, do: storage-fault, kind: disk-ful, for: 1m }").contains("did you mean 'disk-full'?"))
        #expect(error("  - { at: 1s, do: storage-fault, kind: corrupt-at-start, count: 1 }").hasPrefix("bad.yaml:5:"))
        #expect(error("  - { at: 1s, do: kill-app, during: later }").contains("expected one of: now, next-write"))
        // Every bundled app keeps its data on the device; a device that runs no app has none to restart.
        #expect(error("  - { at: 1s, do: restart-app }", app: "friend-locator") == "parsed")
        do {
            _ = try ScenarioParser.parse("name: bad\ndevices:\n  - { id: walker, at: [52.52, 13.405] }\ntimeline:\n  - { at: 1s, do: restart-app }\n", file: "bad.yaml")
            Issue.record("a restart of a device without an app was accepted")
        } catch {
            #expect(error.description.contains("the device runs no app"))
        }
        #expect(error("  - { at: 1s, do: restart-app }", app: "task-list") == "parsed")
        #expect(error("  - { at: 1s, do: storage-fault, kind: read-only, for: 1m }") == "parsed")
        // The dog walk's user steps of issue 33: closing the popup, clearing profile attributes.
        #expect(error("  - { at: 1s, do: close-statistics }") == "parsed")
        #expect(error("  - { at: 1s, do: fill-dog-profile, clear: [sex, date-of-birth] }") == "parsed")
        #expect(error("  - { at: 1s, do: fill-dog-profile, clear: [colour] }").contains("expected one of: name, sex, date-of-birth"))
        #expect(error("  - { at: 1s, do: fill-dog-profile, sex: male, clear: [sex] }").contains("fill-dog-profile both fills and clears 'sex'"))
        let zone = (try? ScenarioParser.parse("name: z\ntime-zone: Europe/Berln\ndevices: [{ id: a, at: [1, 1] }]\n", file: "z.yaml")).map { _ in "parsed" }
        #expect(zone == nil)
    }
}
