import DeviceSim
import DeviceSimHAL
import DeviceSimRoads
import DeviceSimScenario
import Foundation
import Testing

@Suite struct FollowRouteTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    /// A scenario file "in" Scenarios/roads/, so that the Helsinki world path resolves.
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scenarios/roads/test.yaml").path

    func scenario(step: String, world: String = "../../Simulator/worlds/helsinki.yaml") -> String {
        """
        name: follow
        world: \(world)
        devices:
          - id: walker
            at: railway-station
            app: { name: dog-walk }
        timeline:
          - { at: 0s, do: start-service }
          - \(step)
        """
    }

    func error(_ text: String) -> ScenarioError? {
        do { _ = try ScenarioParser.parse(text, file: Self.file); return nil } catch { return error }
    }

    @Test func parsesPlacesFromTheWorldAndFromOSM() throws {
        let parsed = try ScenarioParser.parse(
            scenario(step: "{ at: 5s, do: follow-route, through: [kiasma, senaatintori, [60.17, 24.94]], mode: bike, order: fastest }"), file: Self.file)
        guard case .followRoute(let spec) = parsed.timeline[1].action else { Issue.record("not a follow-route step"); return }
        #expect(spec.stops.map(\.name) == ["kiasma", "Senaatintori", "(60.17, 24.94)"])
        #expect(spec.mode == .bike)
        #expect(spec.order == .fastest)
        #expect(parsed.world?.roads != nil)
    }

    @Test func badInputGivesClearErrors() {
        let unknown = error(scenario(step: "{ at: 5s, do: follow-route, to: senaatintor }"))
        #expect(unknown?.message.contains("unknown place 'senaatintor'") == true)
        #expect(unknown?.message.contains("did you mean 'Senaatintori'") == true)
        #expect(unknown?.location?.line == 9)
        #expect(error(scenario(step: "{ at: 5s, do: follow-route }"))?.message.contains("needs 'to: place' or 'through") == true)
        #expect(error(scenario(step: "{ at: 5s, do: follow-route, to: kiasma, mode: plane }"))?.message.contains("unknown travel mode 'plane'") == true)
        #expect(error(scenario(step: "{ at: 5s, do: follow-route, to: kiasma, order: random }"))?.message.contains("unknown route order") == true)
        let campus = error(scenario(step: "{ at: 5s, do: follow-route, to: library }", world: "../../Simulator/worlds/campus.yaml").replacingOccurrences(of: "railway-station", with: "library"))
        #expect(campus?.message.contains("follow-route needs a world with roads") == true)
    }

    @Test func aMissingExtractIsAnErrorAtTheWorldFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("roads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let world = folder.appendingPathComponent("w.yaml")
        try "name: w\nroads: { osm: missing.osm.pbf }\n".write(to: world, atomically: true, encoding: .utf8)
        let error = error(scenario(step: "{ at: 5s, do: gps-off }", world: world.path))
        #expect(error?.message.contains("no OpenStreetMap extract at") == true)
        try "name: w\nroads: { osm: w.yaml }\n".write(to: world, atomically: true, encoding: .utf8)
        #expect(self.error(scenario(step: "{ at: 5s, do: gps-off }", world: world.path))?.message.contains("not a valid OSM PBF file") == true)
    }

    @Test func theDeviceWalksTheStreetsAtWalkingPace() throws {
        let parsed = try ScenarioParser.parse(scenario(step: "{ at: 5s, do: follow-route, to: senate-square }"), file: Self.file)
        let result = ScenarioRunner().run(parsed)
        let step = try #require(result.events.first { $0.name == "step" && $0["do"] == .string("follow-route") })
        let seconds = try #require(step["time"]?.number), metres = try #require(step["length"]?.number)
        // Walking at 5 km/h, along streets longer than the straight line.
        #expect(abs(metres / seconds - 5 / 3.6) < 0.01)
        #expect(metres > GeoCoordinate(latitude: 60.171, longitude: 24.9414).distance(to: GeoCoordinate(latitude: 60.1695, longitude: 24.9523)))
    }
}
