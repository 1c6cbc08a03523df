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
}
