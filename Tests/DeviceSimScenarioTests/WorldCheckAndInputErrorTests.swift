import DeviceSim
import DeviceSimScenario
import DeviceSimSimulated
import DeviceSimTime
import Foundation
import Testing

/// Issue 11, points 7 and 12: world files checked on their own, coverage warnings, errors a user can
/// act on, and one trace per scenario file.
@Suite struct WorldCheckAndInputErrorTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wt11-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func theDahlemHallIsWarnedAboutAtItsLineAndTheCafeIsNot() throws {
        let path = repositoryRoot.appendingPathComponent("Simulator/worlds/dahlem.yaml").path
        #expect(WorldCheck.isWorldFile(path) == true)
        let check = try WorldCheck(contentsOf: path)
        #expect(check.warnings.count == 1)
        let warning = try #require(check.warnings.first)
        #expect(warning.location?.line == 32)
        #expect(warning.message.contains("hotspot 'long-hall': its access points cannot cover its area"))
        #expect(warning.message.contains("below the app's -70 dBm"))
    }

    @Test func aScenarioIsNotTakenForAWorldAndNamesItsWorld() throws {
        let scenario = repositoryRoot.appendingPathComponent("Scenarios/friend-locator/long-hall-area.yaml").path
        #expect(WorldCheck.isWorldFile(scenario) == false)
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("s.yaml").path
        let world = repositoryRoot.appendingPathComponent("Simulator/worlds/dahlem.yaml").path
        try Data("name: x\nworld: \(world)\ndevices:\n  - { id: a, at: [52, 13] }\n".utf8).write(to: URL(fileURLWithPath: file))
        #expect(WorldCheck.worldPath(of: try ScenarioParser.parse(contentsOf: file))?.hasSuffix("Simulator/worlds/dahlem.yaml") == true)
        try Data("name: x\ndevices:\n  - { id: a, at: [52, 13] }\n".utf8).write(to: URL(fileURLWithPath: file))
        #expect(WorldCheck.worldPath(of: try ScenarioParser.parse(contentsOf: file)) == nil)
    }

    @Test func aWorldPathThatNamesAFolderSaysSoAtItsPosition() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("s.yaml").path
        try Data("name: x\nworld: \"\"\ndevices:\n  - { id: a, at: [52, 13] }\n".utf8).write(to: URL(fileURLWithPath: file))
        #expect(throws: ScenarioError.self) { try ScenarioParser.parse(contentsOf: file) }
        do {
            _ = try ScenarioParser.parse(contentsOf: file)
        } catch {
            #expect(error.description.hasPrefix("\(file):2:8: '' names the folder"), "\(error)")
            #expect(error.description.contains("not a world file"))
            #expect(!error.description.contains("NSCocoaErrorDomain"))
        }
    }

    @Test func malformedGPXIsExplainedInWordsWithItsPosition() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("<gpx><trk><trkseg><trkpt lat=\"52\" lat=\"53\" lon=\"13\"/></trkseg></trk></gpx>".utf8).write(to: folder.appendingPathComponent("t.gpx"))
        let file = folder.appendingPathComponent("s.yaml").path
        try Data("name: x\ndevices:\n  - { id: a, at: [52, 13], track: { file: t.gpx } }\n".utf8).write(to: URL(fileURLWithPath: file))
        do {
            _ = try ScenarioParser.parse(contentsOf: file)
            Issue.record("parsed")
        } catch {
            #expect(error.description.contains("t.gpx:1:"), "\(error)")
            #expect(error.description.contains("an element has the same attribute twice"), "\(error)")
            #expect(!error.description.contains("NSXMLParserErrorDomain"))
        }
    }

    @Test func twoScenariosWithTheSameFileNameGetTwoTraceNames() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for sub in ["a", "b"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
            try Data("name: \(sub)\ndevices: [{ id: d, at: [0, 0] }]\n".utf8).write(to: folder.appendingPathComponent("\(sub)/same.yaml"))
        }
        let a = folder.appendingPathComponent("a/same.yaml").path, b = folder.appendingPathComponent("b/same.yaml").path
        let found = try ScenarioDiscovery.find([a, b, a])
        #expect(found.count == 2)
        #expect(Set(found.map(\.relativeName)).count == 2)
        #expect(found.map(\.relativeName).allSatisfy { $0.hasSuffix("same.yaml") })
        #expect(try ScenarioDiscovery.find([a]).map(\.relativeName) == ["same.yaml"])
    }

    @Test func anAnswerStepRecordsAllItsKeys() throws {
        let text = """
            name: x
            devices: [{ id: a, at: [0, 0] }]
            timeline:
              - { at: 1s, do: answer, prompt: inform-group, choice: "no", after: 5s, when: showing }
            """
        let result = ScenarioRunner().run(try ScenarioParser.parse(text, file: "x.yaml"))
        let step = try #require(result.events.first { $0.name == "step" })
        #expect(step.fields.map(\.key) == ["do", "prompt", "choice", "after", "when"])
        #expect(result.events.contains { $0.name == "prompt.answer-rejected" && $0.time == VirtualInstant(offset: .seconds(6)) })
    }

    @Test func anAppActionStepRecordsItsKeysToo() throws {
        let text = """
            name: x
            devices: [{ id: a, at: [0, 0], app: { name: friend-locator } }]
            timeline:
              - { at: 1s, do: add-friend, email: bob@example.org }
              - { at: 2s, do: teleport, to: [1, 2] }
            """
        let result = ScenarioRunner().run(try ScenarioParser.parse(text, file: "x.yaml"))
        let steps = result.events.filter { $0.name == "step" }
        #expect(steps.first?.fields.map(\.key) == ["do", "email"])
        #expect(steps.first?["email"]?.description == "bob@example.org")
        #expect(steps.last?.fields.map(\.key) == ["do", "lat", "lon"])
    }
}
