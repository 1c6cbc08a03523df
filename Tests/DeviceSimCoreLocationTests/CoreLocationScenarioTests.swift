import DeviceSim
import DeviceSimScenario
import Foundation
import Testing

/// ``LibraryCheckIn`` on a scenario's device: the scenario adapter only launches it and traces what it shows.
final class LibraryCheckInScenarioApp: ScenarioApp {
    static let name = "library-check-in"
    static let settingKeys: [String] = []
    static let actions: [String: [String]] = [:]

    private let app: LibraryCheckIn

    static func parseSettings(_ settings: YAMLMapping?) throws(ScenarioError) {}
    static func parseAction(_ name: String, step: YAMLMapping) throws(ScenarioError) {}

    init(context: ScenarioAppContext, settings: Void) {
        app = LibraryCheckIn()   // the runner made context.device current: the manager is its
        let device = context.device
        app.onChange = { shown in device.record("library.shown", [("text", .string(shown))]) }
        app.start()
    }

    func perform(_ action: Void) {}
}

@Suite struct CoreLocationScenarioTests {
    static let campus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Simulator/worlds/campus.yaml").path

    static let scenario = """
        name: library check-in with CLLocationManager
        world: \(campus)
        devices:
          - id: reader
            at: [52.51080, 13.32300]            # 500 m west of the library
            route: { waypoints: [[52.51082, 13.33044]] }
            app: { name: library-check-in }
        timeline:
          - { at: 2s, device: reader, do: answer, prompt: location.authorization, choice: Allow While Using App }
          - { at: 9m, device: reader, do: location-services-off }
        expect:
          - { event: prompt.shown, device: reader, where: { prompt: location.authorization }, count: 1 }
          - { event: corelocation.region.entered, device: reader, where: { region: library }, count: 1 }
          - { event: library.shown, device: reader, where: { text: arrived }, count: 1 }
          - { event: library.shown, device: reader, where: { text: near the entrance }, count: 1 }
          - { event: library.shown, device: reader, where: { text: location refused }, count: 1 }
          - { event: location.services, device: reader, where: { value: false }, count: 1 }
          - { event: api.diagnostic, never: true }
        duration: 10m
        """

    @Test func aScenarioAppWrittenWithCLLocationManagerRunsAndTraces() throws {
        try ScenarioAppRegistry.register(LibraryCheckInScenarioApp.self)
        let result = ScenarioRunner().run(try ScenarioParser.parse(Self.scenario, file: "library.yaml"))
        #expect(result.passed, "\(result.outcomes.filter { !$0.passed })")
        let shown = result.events.filter { $0.name == "library.shown" }.compactMap { $0.fields.first?.value }
        #expect(shown == [.string("arrived"), .string("near the entrance"), .string("location refused")])
        let again = ScenarioRunner().run(try ScenarioParser.parse(Self.scenario, file: "library.yaml"))
        #expect(again.events == result.events, "the same scenario and seed give the same trace")
    }

    /// Issue 43: scenario traces carry the RSSI of every scan and ranging result (docs/radios.md,
    /// "What traces show"): the ranging round that made the app show "near the entrance" is in the trace
    /// with the beacon's id, RSSI and proximity, and Wi-Fi scans with each access point's RSSI.
    @Test func theTraceCarriesTheRSSIOfTheScansAndTheRangingRoundsTheAppActedOn() throws {
        try ScenarioAppRegistry.register(LibraryCheckInScenarioApp.self)
        let result = ScenarioRunner().run(try ScenarioParser.parse(Self.scenario, file: "library.yaml"))
        let near = try #require(result.events.firstIndex { $0.name == "library.shown" && $0.fields.first?.value == .string("near the entrance") })
        let rounds = result.events[..<near].filter { $0.name == "beacons.ranged" }
        let round = try #require(rounds.last, "the ranging round the app acted on is traced before what it showed")
        #expect(round.time == result.events[near].time)
        guard case .string(let beacons)? = round.fields.first(where: { $0.key == "beacons" })?.value else {
            Issue.record("beacons.ranged without its beacons: \(round)")
            return
        }
        // `id rssi proximity distance`, nearest first: the entrance beacon, near or immediate, its RSSI a number.
        let first = beacons.split(separator: "|")[0].split(separator: " ")
        #expect(first.count == 4 && Double(first[1]) != nil && ["near", "immediate"].contains(first[2]), "\(beacons)")
        #expect(rounds.count < 60, "ranging is traced on change and every 10 s, not every second: \(rounds.count) rounds")
        let scans = result.events.filter { $0.name == "wifi.scan" }
        let library = try #require(scans.last, "the walk ends in reach of the library's access points")
        guard case .string(let aps)? = library.fields.first(where: { $0.key == "aps" })?.value else {
            Issue.record("wifi.scan without its access points: \(library)")
            return
        }
        #expect(aps.contains("02:00:00:00:01:01 -"), "each access point with its RSSI: \(aps)")
        #expect(scans.count <= 21, "one scan every 30 s of the 10 minutes at most: \(scans.count)")
    }
}
