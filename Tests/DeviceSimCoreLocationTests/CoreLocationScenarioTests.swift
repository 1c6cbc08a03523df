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
}
