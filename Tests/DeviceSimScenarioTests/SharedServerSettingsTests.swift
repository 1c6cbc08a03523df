import DeviceSim
@testable import DeviceSimDogWalk
import DeviceSimScenario
import Foundation
import Testing

/// An app's server is one for the whole scenario: every device's server settings count, and devices
/// that configure it differently are refused where they do.
@Suite struct SharedServerSettingsTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    func dogWalk(_ second: String) -> String {
        """
        name: two walkers
        devices:
          - id: anna
            at: [52.52, 13.405]
            app: { name: dog-walk, settings: { server-accounts: [{ email: anna@example.org, password: walkies-2026 }] } }
          - id: ben
            at: [52.52, 13.405]
            app: { name: dog-walk, settings: { server-accounts: [\(second)] } }
        """
    }

    @Test func everyDogWalkDevicesAccountsReachTheOneServer() throws {
        let scenario = try ScenarioParser.parse(dogWalk("{ email: ben@example.org, password: fetch-it-99 }"), file: "two.yaml")
        let server = try #require(scenario.servers["dog-walk"] as? DogWalkScenarioApp.ServerSpec)
        #expect(server.accounts.map(\.email) == ["anna@example.org", "ben@example.org"])
        let alike = try ScenarioParser.parse(dogWalk("{ email: ANNA@example.org, password: walkies-2026 }"), file: "two.yaml")
        #expect((alike.servers["dog-walk"] as? DogWalkScenarioApp.ServerSpec)?.accounts.count == 1)
    }

    @Test func anAccountTwoDevicesListDifferentlyIsRefusedAtTheSecond() throws {
        let error = try #require(throws: ScenarioError.self) {
            try ScenarioParser.parse(dogWalk("{ email: anna@example.org, password: another-one }"), file: "two.yaml")
        }
        #expect(error.description.hasPrefix("two.yaml:6:"))
        #expect(error.description.contains("lists the server account anna@example.org, which device 'anna' lists differently"))
    }

    @Test func campusGameDevicesThatConfigureTheServerDifferentlyAreRefused() throws {
        let text = """
            name: two players
            devices:
              - { id: a, at: [60.18, 24.83], app: { name: campus-game, settings: { game: ../../Simulator/games/otaniemi.yaml } } }
              - { id: b, at: [60.18, 24.83], app: { name: campus-game, settings: { game: ../../Simulator/games/otaniemi.yaml, server-latency: 2s } } }
            """
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Scenarios/campus-game/two.yaml").standardizedFileURL.path
        let error = try #require(throws: ScenarioError.self) { try ScenarioParser.parse(text, file: file) }
        #expect(error.description.contains(":4:"))
        #expect(error.description.contains("device 'b' gives the campus game's server other settings than device 'a'"))
    }
}
