import DeviceSim
import DeviceSimHAL
import DeviceSimScenario
import DeviceSimTime
import Foundation
import Testing

/// What a person writing scenarios from the documentation alone trips over: world and game files kept
/// beside the scenarios, a place name in a game file, times written `10 sec` or `08:10`, and a failed
/// expectation that only said "0 found".
@Suite struct ReaderInputTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static let world = "name: flat\nplaces:\n  home: [55.758, 37.617]\n"
    static let roadsOnlyWorld = "name: streets\nroads: { osm: ../helsinki.osm.pbf }\n"
    static let game = "name: hunt\ntime-zone: Europe/Helsinki\nobjectives:\n  - { id: a, at: [60.1865, 24.8258], radius: 40, points: 10 }\n"
    static let scenario = "name: s\nworld: world.yaml\nduration: 1s\ndevices: [{ id: d, at: home }]\n"

    @Test func filesAreToldApartByTheirTopLevelKeys() {
        #expect(YAMLFileKind(topLevelKeys: ["name", "places"]) == .world)
        #expect(YAMLFileKind(topLevelKeys: ["name", "roads"]) == .world)
        #expect(YAMLFileKind(topLevelKeys: ["name", "time-zone", "objectives"]) == .appData)
        #expect(YAMLFileKind(topLevelKeys: ["name", "world", "devices"]) == .scenario)
        #expect(YAMLFileKind(topLevelKeys: ["name", "places", "devices"]) == .scenario)
        #expect(YAMLFileKind(topLevelKeys: ["name"]) == .scenario)
    }

    @Test func aFolderSearchForScenariosLeavesOutItsWorldAndGameFilesButNotFilesNamedOneByOne() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, text) in [("world.yaml", Self.world), ("game.yaml", Self.game), ("streets.yaml", Self.roadsOnlyWorld), ("s.yaml", Self.scenario)] {
            try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        }
        #expect(try ScenarioDiscovery.find([folder.path], scenariosOnly: true).map(\.relativeName) == ["s.yaml"])
        #expect(try ScenarioDiscovery.find([folder.path]).count == 4)
        let world = folder.appendingPathComponent("world.yaml").path
        #expect(try ScenarioDiscovery.find([world], scenariosOnly: true).map(\.relativeName) == ["world.yaml"])
        #expect(WorldCheck.isWorldFile(folder.appendingPathComponent("streets.yaml").path) == true)
    }

    @Test func aWorldOrGameFileReadAsAScenarioSaysWhatItIs() throws {
        let world = try #require(throws: ScenarioError.self) { try ScenarioParser.parse(Self.world, file: "w.yaml") }
        #expect(world.description.hasPrefix("w.yaml:1:1: this is a world file, not a scenario: a scenario names it with 'world: "), "\(world)")
        let game = try #require(throws: ScenarioError.self) { try ScenarioParser.parse(Self.game, file: "g.yaml") }
        #expect(game.description.hasPrefix("g.yaml:1:1: this is a campus game file, not a scenario"), "\(game)")
        #expect(game.description.contains("settings: { game: "))
    }

    @Test func aPlaceNameInAGameFileIsRefusedWithWhatToWriteInstead() throws {
        let text = "name: hunt\nobjectives:\n  - { id: a, at: main-building, radius: 40, points: 10 }\n"
        let error = try #require(throws: ScenarioError.self) { try GameFileParser.parse(text, file: "g.yaml") }
        #expect(error.description.hasPrefix("g.yaml:3:18: expected the objective's position as [latitude, longitude], found the place name 'main-building'"), "\(error)")
        #expect(error.description.contains("a game file has no world"))
    }

    @Test func durationsMaySpellTheirUnitsAndHaveSpaces() {
        #expect(DurationText.parse("10 s") == .seconds(10))
        #expect(DurationText.parse("10sec") == .seconds(10))
        #expect(DurationText.parse("2 minutes") == .seconds(120))
        #expect(DurationText.parse("1 hour 30 min") == .seconds(5_400))
        #expect(DurationText.parse("1h 30m") == .seconds(5_400))
        #expect(DurationText.parse("3 days") == .seconds(259_200))
        #expect(DurationText.parse("250 ms") == .milliseconds(250))
        #expect(DurationText.parse("1h30") == nil)
        #expect(DurationText.parse("5 parsecs") == nil)
        #expect(DurationText.parse("10:00") == nil)
    }

    @Test func aClockTimeWhereADurationGoesIsExplained() throws {
        #expect(DurationText.looksLikeClockTime("10:00"))
        #expect(DurationText.looksLikeClockTime("08:00:10"))
        #expect(!DurationText.looksLikeClockTime("10m"))
        #expect(!DurationText.looksLikeClockTime("2026-09-01T08:00"))
        let text = "name: s\ndevices: [{ id: d, at: [0, 0] }]\ntimeline:\n  - { at: '08:10', do: gps-off }\n"
        let error = try #require(throws: ScenarioError.self) { try ScenarioParser.parse(text, file: "s.yaml") }
        #expect(error.description.hasPrefix("s.yaml:4:11: expected a step time"), "\(error)")
        #expect(error.description.contains("'08:10', which looks like a clock time: scenario times count from the start of the run"), "\(error)")
    }

    @Test func aFailedExpectationShowsTheFirstEventOfItsNameThatDidNotMatch() throws {
        // Campus-game events, so the device runs the game (validate refuses an app's events on a device without it).
        let aino = "{ id: aino, at: [0, 0], app: { name: campus-game, settings: { game: \(FileManager.default.currentDirectoryPath)/Simulator/games/tu-campus.yaml } } }"
        let text = """
            name: s
            devices: [\(aino)]
            expect:
              - { event: objective.confirmed, device: aino, within: [7m, 8m], where: { objective: library, daily: 20 } }
              - { event: objective.not-here, device: aino }
              - { event: objective.confirmed, device: aino, where: { objective: dipoli } }
            """
        let scenario = try ScenarioParser.parse(text, file: "s.yaml")
        let tally = ExpectationTally(scenario.expectations)
        func confirmed(_ seconds: Int64, _ device: String, _ objective: String, daily: Int) -> TraceEvent {
            TraceEvent(time: VirtualInstant(offset: .seconds(seconds)), device: device, name: "objective.confirmed",
                       fields: [("objective", .string(objective)), ("points", .int(30)), ("daily", .int(daily))])
        }
        tally.record(confirmed(60, "olli", "library", daily: 20))     // another device: not a miss
        tally.record(confirmed(1_200, "aino", "dipoli", daily: 50))
        tally.record(confirmed(1_300, "aino", "dipoli", daily: 50))
        tally.record(confirmed(1_400, "aino", "library", daily: 70))   // the closest: only its window and daily differ
        tally.record(confirmed(1_500, "aino", "library", daily: 70))
        let outcomes = tally.outcomes
        #expect(!outcomes[0].passed)
        #expect(outcomes[0].observed == "0 found; 4 'objective.confirmed' on aino did not match, the closest at 23m20s on aino: outside [7m, 8m], daily=70, not 20", "\(outcomes[0].observed)")
        #expect(outcomes[1].observed == "0 found; no 'objective.not-here' event on aino in the whole run (Scenarios/README.md lists the events each app records)")
        #expect(outcomes[2].passed)
        #expect(outcomes[2].observed == "2 found, first at 20m")
        let twice = ExpectationTally(try ScenarioParser.parse("name: s\ndevices: [\(aino)]\nexpect:\n  - { event: objective.confirmed, at-least: 2 }\n", file: "s.yaml").expectations)
        twice.record(confirmed(1_200, "aino", "dipoli", daily: 50))
        #expect(twice.outcomes[0].observed == "1 found, first at 20m")   // nothing else of its name to show
        let single = ExpectationTally(scenario.expectations)
        single.record(confirmed(1_200, "aino", "dipoli", daily: 50))
        #expect(single.outcomes[0].observed == "0 found; 1 'objective.confirmed' on aino did not match at 20m on aino: outside [7m, 8m], objective=dipoli, not library, daily=50, not 20")
    }

    @Test func anAnswerToAPromptTheAppNeverShowsIsRefusedWithTheNearestId() throws {
        let text = """
            name: s
            devices: [{ id: phone, at: [0, 0], app: { name: task-list } }]
            timeline:
              - { at: 5s, do: answer, prompt: sign-in, choice: google }
            """
        let error = try #require(throws: ScenarioError.self) { try ScenarioParser.parse(text, file: "s.yaml") }
        #expect(error.description == "s.yaml:4:35: unknown prompt 'sign-in' for the task-list app; did you mean 'sign-in-method'? (its prompts: sign-in-method, choose-account, add-account, download-failed, upload-failed)")
        let valid = text.replacingOccurrences(of: "prompt: sign-in,", with: "prompt: sign-in-method,")
        #expect(try ScenarioParser.parse(valid, file: "s.yaml").timeline.count == 1)
    }

    @Test func aFailedScenarioShowsWhatTheRunRefusedWithItsFirstFailedExpectation() throws {
        let text = """
            name: s
            devices:
              - id: phone
                at: [55.758, 37.617]
                app: { name: task-list, settings: { device-accounts: { google: [masha@gmail.com] } } }
            timeline:
              - { at: 5s, do: answer, prompt: sign-in-method, choice: Google }
              - { at: 1m, do: add-task, text: Milk }
            expect:
              - { event: app.started }
              - { event: signed-in }
              - { event: task.added }
            """
        let scenario = try ScenarioParser.parse(text, file: "s.yaml")
        for keepingEvents in [true, false] {
            let outcomes = ScenarioRunner().run(scenario, traceFile: nil, keepingEvents: keepingEvents).outcomes
            #expect(outcomes.map(\.passed) == [true, false, false])
            #expect(outcomes[1].observed.hasSuffix("; the run also recorded: 7s phone prompt.answer-rejected (prompt=sign-in-method, choice=Google, reason=not one of google|email); 1m phone action.ignored (action=add-task, reason=no one is signed in (the sign-in screens show))"), "\(outcomes[1].observed)")
            #expect(!outcomes[2].observed.contains("the run also recorded"))
            #expect(!outcomes[0].observed.contains("the run also recorded"))
        }
    }

    @Test func anUnknownKeyOfAnAppActionNamesTheKeysOfThatAction() throws {
        let text = """
            name: s
            devices: [{ id: phone, at: [0, 0], app: { name: routes } }]
            timeline:
              - { at: 5s, do: select-suggestion, places: kiasma }
            """
        let error = try #require(throws: ScenarioError.self) { try ScenarioParser.parse(text, file: "s.yaml") }
        #expect(error.description == "s.yaml:4:38: unknown key 'places' for the action 'select-suggestion'; did you mean 'place'? (it takes: place)")
        // A key no action takes, on a device action: the general message with every key.
        let general = try #require(throws: ScenarioError.self) { try ScenarioParser.parse(text.replacingOccurrences(of: "do: select-suggestion, places: kiasma", with: "do: gps-off, brightness: dark"), file: "s.yaml") }
        #expect(general.description.hasPrefix("s.yaml:4:28: unknown key 'brightness' in timeline step; expected one of: at, device, do"), "\(general)")
    }
}
