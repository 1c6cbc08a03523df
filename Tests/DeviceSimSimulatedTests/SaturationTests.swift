import DeviceSimHAL
import DeviceSimNMEA
import DeviceSimSimulated
import DeviceSimTime
import Foundation
import Testing

/// Durations computed from valid but extreme values saturate instead of trapping (issue 37).
@Suite struct SaturationTests {
    @Test func aCrawlingRouteEndsAtTheLongestDurationInsteadOfTrapping() {
        let route = Route(start: GeoCoordinate(latitude: 0, longitude: 0), waypoints: [.init(GeoCoordinate(latitude: 0, longitude: 1))], speed: 1e-300)
        let timeline = RouteTimeline(route)
        #expect(timeline.duration == .seconds(100 * 365 * 86_400))
        #expect(!timeline.state(at: .seconds(86_400)).finished)
        let paused = Route(start: GeoCoordinate(latitude: 0, longitude: 0),
                           waypoints: (0..<4_000).map { .init(GeoCoordinate(latitude: 0, longitude: Double($0 % 2) * 0.001), pause: .seconds(29 * 86_400)) })
        #expect(RouteTimeline(paused).duration == .seconds(100 * 365 * 86_400))
    }

    @Test func aPlaybackFarSlowerThanRecordedDoesNotTrap() throws {
        var text = ""
        for second in 0..<3 {
            var fix = NMEAFix()
            fix.setTime(unixNanoseconds: (1_767_225_600 + Int64(second) * 1_000_000) * 1_000_000_000)   // a million seconds apart
            fix.mode = 3
            fix.latitude = Double(second) * 0.001
            fix.longitude = 0
            text += NMEASentenceWriter.epoch(fix)
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("slow-\(UUID().uuidString).nmea")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let scheduler = EventScheduler()
        var configuration = NMEAPlaybackLocationProvider.Configuration()
        configuration.speedFactor = 1e-12
        let playback = try NMEAPlaybackLocationProvider(scheduler: scheduler, file: url, configuration: configuration)
        var fixes: [VirtualInstant] = []
        let subscription = playback.observe { if case .fix = $0 { fixes.append(scheduler.now) } }
        playback.start()
        try scheduler.run(for: .seconds(3_600))
        #expect(fixes == [.zero])
        subscription.cancel()
    }

    @Test func aGPXTrackDatedPastItsYearsIsRefusedWithItsLine() {
        let gpx = """
            <?xml version="1.0"?>
            <gpx version="1.1"><trk><trkseg>
            <trkpt lat="52.5" lon="13.4"><time>2000-01-01T00:00:00Z</time></trkpt>
            <trkpt lat="52.6" lon="13.4"><time>9999-01-01T00:00:00Z</time></trkpt>
            </trkseg></trk></gpx>
            """
        #expect(throws: GPXError.self) { try GPXDocument(data: Data(gpx.utf8), file: "far.gpx") }
        do {
            _ = try GPXDocument(data: Data(gpx.utf8), file: "far.gpx").route(speed: 1.4)
        } catch {
            #expect(error.description.hasPrefix("far.gpx:4:"))
            #expect(error.description.contains("outside the years 1970 to 2199"))
        }
    }
}
