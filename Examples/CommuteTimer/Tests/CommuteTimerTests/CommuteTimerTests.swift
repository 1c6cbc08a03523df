import CommuteScenarios
import CommuteTimer
import DeviceSim
import DeviceSimTesting
import Foundation
import Testing

/// The app's logic on a simulated device, in virtual time.
@Suite struct CommuteTimerTests {
    let home = GeoCoordinate(latitude: 52.51450, longitude: 13.35010)
    var office: GeoCoordinate { home.destination(distance: 1_350, bearing: 90) }

    @Test func leavingHomeStartsTheTimerAndYesAtTheOfficeStopsIt() throws {
        let simulation = TestSimulation(seed: 7)
        let commuter = simulation.addDevice("commuter", at: home)
        let timer = CommuteTimer(device: commuter.device, settings: .init(home: home, office: office))
        try timer.start()
        commuter.answer(prompt: "arrived", with: "yes", after: .seconds(10))

        try simulation.advance(by: .seconds(60))
        #expect(timer.startedAt == nil, "still at home")
        commuter.walk(to: [office])                       // 150 m out of home: about 107 s
        try simulation.advance(by: .seconds(120))
        #expect(timer.startedAt != nil)
        try simulation.advance(by: .seconds(1_200))
        #expect(timer.commutes.count == 1)
        // From the home boundary (150 m) to the office boundary (1200 m) at 1.4 m/s, plus the 10 s answer.
        let seconds = Double(timer.commutes[0].components.seconds)
        #expect(abs(seconds - (1_050 / 1.4 + 10)) < 5, "\(seconds) s")
        #expect(simulation.events(named: "commute.finished").count == 1)
    }

    @Test func noKeepsTheTimerRunningAndRealisticGeofencesReportLater() throws {
        let simulation = TestSimulation(seed: 7)
        let commuter = simulation.addDevice("commuter", at: home, geofences: .init(timing: .realistic))
        let timer = CommuteTimer(device: commuter.device, settings: .init(home: home, office: office))
        try timer.start()
        commuter.answer(prompt: "arrived", with: "no", after: .seconds(3))
        commuter.walk(to: [office])
        try simulation.advance(by: .seconds(1_200))
        let started = try #require(simulation.events(named: "commute.started").first)
        // Realistic: 50 m past the 150 m boundary, then 20 s: (200 / 1.4) + 20 s.
        #expect(abs(started.time.seconds - (200 / 1.4 + 20)) < 3)
        #expect(simulation.events(named: "commute.continued").count == 1)
        #expect(timer.startedAt != nil && timer.commutes.isEmpty)
    }

    @Test func withoutGeofencingTheAppSaysSo() throws {
        let simulation = TestSimulation(seed: 7)
        let commuter = simulation.addDevice("commuter", at: home)
        commuter.device.geofences = nil
        #expect(throws: CommuteTimer.StartError.noGeofencing) { try CommuteTimer(device: commuter.device, settings: .init(home: home, office: office)).start() }
    }
}

/// The package's scenario files, run as part of `swift test`, and what `validate` says about mistakes.
@Suite struct CommuteScenarioFileTests {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    init() throws { try ScenarioAppRegistry.register(CommuteScenarioApp.self) }

    @Test(arguments: ["commute-answered-yes.yaml", "commute-question-unanswered.yaml"])
    func theScenarioFilesPass(_ file: String) throws {
        let scenario = try ScenarioParser.parse(contentsOf: Self.package.appendingPathComponent("Scenarios/\(file)").path)
        let result = ScenarioRunner().run(scenario)
        let failures = result.outcomes.filter { !$0.passed }.map { "\($0.location): \($0.expected); observed \($0.observed)" }
        #expect(failures.isEmpty && result.runError == nil, "\(failures) \(result.runError ?? "")")
        #expect(result.traceJSONLines == ScenarioRunner().run(scenario).traceJSONLines, "the same seed gives the same trace")
    }

    @Test func aMistypedActionIsCaughtWithItsPlaceAndASuggestion() throws {
        let text = try String(contentsOf: Self.package.appendingPathComponent("Scenarios/commute-answered-yes.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "do: start }", with: "do: strat }")
        #expect {
            try ScenarioParser.parse(text, file: "typo.yaml")
        } throws: { error in
            "\(error)".hasPrefix("typo.yaml:24:") && "\(error)".contains("did you mean 'start'?")
        }
    }
}
