import DeviceSimHAL
import DeviceSimNMEA
import DeviceSimSimulated
import DeviceSimTime
import Foundation
import Testing

@Suite struct NMEAPlaybackTests {
    /// Writes a log of `seconds` epochs moving north, optionally with a gap without a fix.
    func makeLog(seconds: Int, dated: Bool = true, gap: Range<Int>? = nil) throws -> URL {
        var text = "# a comment line, as gpsd's captures have\r\n"
        for second in 0..<seconds {
            var fix = NMEAFix()
            fix.setTime(unixNanoseconds: (1_767_225_600 + Int64(second)) * 1_000_000_000)
            if !dated { fix.date = nil }
            let lost = gap?.contains(second) ?? false
            fix.mode = lost ? 1 : 3
            fix.latitude = Double(second) * 0.0001
            fix.longitude = 0
            fix.altitudeMSL = 10
            text += dated ? NMEASentenceWriter.epoch(fix) : NMEASentenceWriter.gga(fix)
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("playback-\(UUID().uuidString).nmea")
        try Data(text.utf8).write(to: url)
        return url
    }

    final class Collector {
        var fixes: [LocationFix] = []
        var unavailable: [(String, Double)] = []
        var subscription: ObservationToken?
    }

    func play(_ url: URL, _ configure: (inout NMEAPlaybackLocationProvider.Configuration) -> Void = { _ in }, for duration: Duration) throws -> (Collector, NMEAPlaybackLocationProvider) {
        let scheduler = EventScheduler()
        var configuration = NMEAPlaybackLocationProvider.Configuration()
        configure(&configuration)
        let playback = try NMEAPlaybackLocationProvider(scheduler: scheduler, file: url, configuration: configuration)
        let collector = Collector()
        collector.subscription = playback.observe { update in
            switch update {
            case .fix(let fix): collector.fixes.append(fix)
            case .unavailable(let reason): collector.unavailable.append((reason, scheduler.now.seconds))
            case .satellites: break
            }
        }
        playback.start()
        try scheduler.run(for: duration)
        return (collector, playback)
    }

    @Test func epochsPlayAtTheirOwnTimes() throws {
        let url = try makeLog(seconds: 10)
        defer { try? FileManager.default.removeItem(at: url) }
        let (collector, playback) = try play(url, for: .seconds(30))
        #expect(collector.fixes.map(\.receivedAt.seconds) == (0..<10).map(Double.init))
        #expect(abs(collector.fixes[3].coordinate.latitude - 0.0003) < 1e-9)
        #expect(collector.fixes[0].time == Date(timeIntervalSince1970: 1_767_225_600))
        #expect(collector.unavailable.map(\.0) == ["end of NMEA log"])
        #expect(playback.finished)
        #expect(playback.statistics.badChecksumSentences == 0)
        #expect(playback.statistics.noiseBytes > 0)  // the comment line
    }

    @Test func speedFactorAndStartOffsetScaleTheTimeline() throws {
        let url = try makeLog(seconds: 10)
        defer { try? FileManager.default.removeItem(at: url) }
        let (collector, _) = try play(url, { $0.speedFactor = 2; $0.startOffset = .seconds(4) }, for: .seconds(30))
        #expect(collector.fixes.map(\.receivedAt.seconds) == [0, 0.5, 1, 1.5, 2, 2.5])
        #expect(abs(collector.fixes[0].coordinate.latitude - 0.0004) < 1e-9)
    }

    @Test func loopingStartsAgainAfterTheEnd() throws {
        let url = try makeLog(seconds: 5)
        defer { try? FileManager.default.removeItem(at: url) }
        let (collector, playback) = try play(url, { $0.loop = true }, for: .seconds(14))
        #expect(collector.fixes.map(\.receivedAt.seconds) == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14])
        #expect(playback.passes == 3)
        #expect(collector.unavailable.isEmpty)
    }

    @Test func epochsWithoutAFixMakeLocationUnavailableOnce() throws {
        let url = try makeLog(seconds: 10, gap: 3..<6)
        defer { try? FileManager.default.removeItem(at: url) }
        let (collector, _) = try play(url, for: .seconds(9))
        #expect(collector.unavailable.map(\.1) == [3])
        #expect(collector.fixes.map(\.receivedAt.seconds) == [0, 1, 2, 6, 7, 8, 9])
    }

    @Test func undatedLogsPlayByTimeOfDay() throws {
        let url = try makeLog(seconds: 4, dated: false)
        defer { try? FileManager.default.removeItem(at: url) }
        let (collector, _) = try play(url, for: .seconds(10))
        #expect(collector.fixes.map(\.receivedAt.seconds) == [0, 1, 2, 3])
        #expect(collector.fixes.allSatisfy { $0.time == nil })
    }

    @Test func aMissingFileIsAClearError() {
        #expect(throws: PlaybackError.self) {
            try NMEAPlaybackLocationProvider(scheduler: EventScheduler(), file: URL(fileURLWithPath: "/nonexistent/log.nmea"))
        }
    }

    @Test func chunkedReadingGivesTheSameFixesAsOneRead() throws {
        let url = try makeLog(seconds: 50)
        defer { try? FileManager.default.removeItem(at: url) }
        let (small, _) = try play(url, { $0.chunkSize = 7 }, for: .seconds(60))
        let (large, _) = try play(url, for: .seconds(60))
        #expect(small.fixes == large.fixes)
        #expect(small.fixes.count == 50)
    }
}
