import DeviceSimCampusGame
import DeviceSimScenario
import Foundation
import Testing

/// The campus game's data-already-there settings, as `validate` reads them.
@Suite struct CampusGameScenarioSettingsTests {
    init() throws { try ScenarioAppRegistry.register(CampusGameScenarioApp.self) }

    static let game = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../Scenarios/nothing-lost/viikki.game.yaml").standardized.path

    func parse(_ settings: String) -> String {
        let text = """
            name: s
            devices:
              - { id: aino, at: [60.2269, 25.0139], app: { name: campus-game, settings: { game: \(Self.game), \(settings) } } }
            """
        do {
            _ = try ScenarioParser.parse(text, file: "s.yaml")
            return "parsed"
        } catch {
            return error.description
        }
    }

    @Test func serverPlayersAndJoinedNameObjectivesOfTheGame() {
        #expect(parse("server-players: { bob: [biocenter], carol: [] }, joined: { achieved: [ecocenter] }") == "parsed")
        #expect(parse("joined: true") == "parsed")
        let unknown = parse("server-players: { bob: [biocentre] }")
        #expect(unknown.hasPrefix("s.yaml:3:"))
        #expect(unknown.contains("unknown objective 'biocentre': the game's objectives are biocenter, infokeskus, ecocenter"))
        #expect(parse("joined: { won: [biocenter] }").contains("unknown key 'won'"))
    }

    @Test func serverFailuresRefuseWindowsAndCountsThatFailNothing() {
        #expect(parse("server-failures: [{ operation: achieve, within: [10s, 1m], count: 1 }]") == "parsed")
        let reversed = parse("server-failures: [{ operation: achieve, within: [1m, 10s] }]")
        #expect(reversed.hasPrefix("s.yaml:3:"))
        #expect(reversed.hasSuffix("the failure window [1m, 10s] ends before it starts: write [from, until] with the earlier time first, e.g. [10s, 1m]"))
        #expect(parse("server-failures: [{ operation: achieve, within: [10s, 10s] }]").contains("the failure window [10s, 10s] is empty"))
        for count in ["0", "-1"] {
            let refused = parse("server-failures: [{ operation: achieve, count: \(count) }]")
            #expect(refused.hasPrefix("s.yaml:3:"), "count: \(count)")
            #expect(refused.contains("a failure's count is how many requests fail, at least 1; found \(count)"), "count: \(count)")
        }
    }
}
