import DeviceSim
import DeviceSimGPSD
import DeviceSimHAL
import DeviceSimScenario
import DeviceSimTime
import DeviceSimTestSupport
import Foundation
import Testing

/// Recording what gpsd sends, and replaying it in virtual time.
@Suite(.serialized, .enabled(if: SlowTests.run, "slow: DEVICESIM_SLOW_TESTS=1 swift test (or .ci/run) runs it"), .enabled(if: GPSFake.shouldRun, "gpsd and gpsfake (Debian gpsd, gpsd-clients) are not installed"))
struct RecordAndReplayTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    static let walk = GPSDLocationProviderTests.walk

    static let scenario = """
        name: live dog walk
        duration: 1h
        devices:
          - id: walker
            at: [52.5145, 13.3501]
            app: { name: dog-walk, settings: { update-interval: 500ms } }
        timeline:
          - { at: 0s, do: start-service }
        """

    @Test func aLiveRunAndItsRecordingReplayTheSamePositions() throws {
        let fake = try GPSFake(log: Self.walk, cycle: 0.05)
        defer { fake.stop() }
        try fake.waitUntilReady()
        let endpoint = GPSDEndpoint(host: "127.0.0.1", port: fake.port)
        let recording = fake.folder.appendingPathComponent("live.nmea")
        let recorder = try GPSDRecorder(endpoint: endpoint, output: recording, format: .nmea)
        recorder.start()

        // Live: the dog-walk flow on the wall clock, its location from gpsd.
        let scenario = try ScenarioParser.parse(Self.scenario, file: "live.yaml")
        let live = ScenarioSimulation(scenario, locationSources: ["walker": { scheduler in
            let provider = GPSDLocationProvider(scheduler: scheduler, endpoint: endpoint)
            provider.start()
            return provider
        }])
        let stop = StopSignal()
        let watcher = live.scheduler.repeating(every: .milliseconds(50)) { _ in
            if live.trace.events.filter({ $0.name == "marker.moved" }).count >= 8 { stop.raise() }
        }
        try live.runLive(stop: stop, for: .seconds(40))
        watcher.cancel()
        Thread.sleep(forTimeInterval: 0.3)
        recorder.stop()

        let liveMarkers = live.trace.events.filter { $0.name == "marker.moved" || $0.name == "marker.shown" }.compactMap(\.coordinate)
        #expect(liveMarkers.count >= 9)
        #expect(recorder.progress.lines > 20)

        // Every position the live flow showed is a position of the recording.
        let recorded = try recordedPositions(recording)
        for marker in liveMarkers {
            #expect(recorded.contains { abs($0.latitude - marker.latitude) < 1e-7 && abs($0.longitude - marker.longitude) < 1e-7 }, "\(marker)")
        }

        // Replaying the recording in virtual time is deterministic, and shows recorded positions too.
        let replayText = Self.scenario.replacingOccurrences(of: "    at: [52.5145, 13.3501]\n", with: "    track: { file: \(recording.path) }\n")
        let replayScenario = try ScenarioParser.parse(replayText, file: "replay.yaml")
        let first = ScenarioRunner().run(replayScenario), second = ScenarioRunner().run(replayScenario)
        #expect(first.traceJSONLines == second.traceJSONLines)
        let replayed = first.events.filter { $0.name == "marker.moved" }.compactMap(\.coordinate)
        #expect(replayed.count >= 5)
        for marker in replayed {
            #expect(recorded.contains { abs($0.latitude - marker.latitude) < 1e-7 && abs($0.longitude - marker.longitude) < 1e-7 })
        }
    }

    @Test func recordingJSONWritesGpsdReports() throws {
        let fake = try GPSFake(log: Self.walk, cycle: 0.02)
        defer { fake.stop() }
        try fake.waitUntilReady()
        let output = fake.folder.appendingPathComponent("live.json")
        let recorder = try GPSDRecorder(endpoint: GPSDEndpoint(host: "127.0.0.1", port: fake.port), output: output, format: .json)
        recorder.start()
        let deadline = Date().addingTimeInterval(20)
        while recorder.progress.fixes < 10, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        recorder.stop()
        let lines = try String(contentsOf: output, encoding: .utf8).split(whereSeparator: \.isNewline)
        #expect(lines.contains { $0.hasPrefix("{\"class\":\"TPV\"") })
        #expect(lines.allSatisfy { $0.hasPrefix("{") })
        #expect(lines.count == recorder.progress.lines)
    }

    @Test func aRecordingIntoAMissingFolderIsAClearError() {
        #expect(throws: GPSDError.self) {
            try GPSDRecorder(endpoint: .default, output: URL(fileURLWithPath: "/nonexistent/folder/x.nmea"), format: .nmea)
        }
    }

    func recordedPositions(_ url: URL) throws -> [GeoCoordinate] {
        let data = try Data(contentsOf: url)
        var decoder = NMEADecoderBridge()
        return decoder.positions(data)
    }
}
