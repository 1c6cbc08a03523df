import DeviceSim
import DeviceSimHAL
import DeviceSimScenario
import Foundation
import Testing

/// The routes app's `saved-routes` setting names places of the world or of its OpenStreetMap roads,
/// which only the running app's map service knows: a route through a place it does not know is left
/// out, with the unknown place named.
@Suite struct RoutesSettingsTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scenarios/routes/test.yaml").path

    @Test func aSavedRouteThroughAnUnknownPlaceIsLeftOutNamingThePlace() throws {
        let text = """
            name: saved
            world: ../../Simulator/worlds/helsinki.yaml
            duration: 1s
            devices:
              - id: phone
                at: railway-station
                app:
                  name: routes
                  settings:
                    saved-routes:
                      - { name: Museums, through: [ateneum, kiasma] }
                      - { name: West, through: [kiasma, kampi-centre] }
            """
        let result = ScenarioRunner().run(try ScenarioParser.parse(text, file: Self.file))
        let ignored = result.events.filter { $0.name == "settings.ignored" }
        #expect(ignored.count == 1)
        #expect(ignored.first?["route"] == .string("West"))
        #expect(ignored.first?["reason"] == .string("unknown place 'kampi-centre': neither a place of the world nor a name on its OpenStreetMap roads"))
        #expect(result.events.contains { $0.name == "app.started" && $0["saved"] == .int(1) })
    }
}
