import DeviceSimNMEA
import Foundation

/// Runs our decoder over a gpsd regression capture and compares it with gpsd's own output (`.chk`).
///
/// A `.chk` file echoes each input sentence and follows it with the JSON reports gpsd made after it.
/// For every TPV report that carries a position we look at our assembler's state after the same
/// sentence and compare latitude and longitude (1e-6 degrees), mode, and time, speed and track where
/// gpsd reports them.
struct CorpusComparison {
    /// How one gpsd TPV report compared with ours.
    enum Outcome: String, CaseIterable, Sendable {
        /// Every compared field agrees.
        case agree
        /// Every compared field agrees; gpsd also reports a speed or track it computed from successive
        /// positions, which the sentences do not carry (not a decoding disagreement).
        case agreeButGpsdDerivedMotion
        /// Position and time of day agree; the date differs by whole 1024-week GPS rollovers because
        /// gpsd corrects old receivers' week numbers (not a decoding disagreement).
        case agreeButWeekRollover
        /// The report follows a sentence that is not in the capture at all: gpsd made it from a binary
        /// protocol (UBX, SiRF, Ashtech...) mixed into the log and echoed it as NMEA. Not NMEA decoding,
        /// so these reports are left out of the agreement ratio.
        case fromBinaryProtocol
        /// gpsd decoded a sentence of the capture that our framer rejected.
        case sentenceNotDecoded
        /// Our position differs by more than 1e-6 degrees.
        case positionDiffers
        /// We have no position at that sentence.
        case noPositionHere
        /// Mode differs (gpsd infers mode from more sentence kinds than we do).
        case modeDiffers
        /// Time differs otherwise, or we lack a date gpsd had.
        case timeDiffers
        /// Speed differs by more than 0.01 m/s.
        case speedDiffers
        /// Track differs by more than 0.01 degrees.
        case trackDiffers
    }

    static let fixtures = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/gpsd-nmea")

    static var logs: [URL] {
        (try? FileManager.default.contentsOfDirectory(at: fixtures, includingPropertiesForKeys: nil))?
            .filter { $0.pathExtension == "log" }.sorted { $0.lastPathComponent < $1.lastPathComponent } ?? []
    }

    /// Outcome counts for one log.
    static func compare(log: URL) throws -> [Outcome: Int] {
        let ours = try decodePerSentence(try Data(contentsOf: log))
        let check = try String(contentsOf: log.appendingPathExtension("chk"), encoding: .isoLatin1)
        var counts: [Outcome: Int] = [:]
        var cursor = 0
        var matched: NMEAFix?
        var echoInInput = true
        let inputBodies = Set(ours.map(\.body))
        var lastEcho = ""
        for line in check.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("$") || line.hasPrefix("!") {
                lastEcho = String(line)
                let body = line.split(separator: "*", maxSplits: 1).first.map(String.init) ?? String(line)
                matched = nil
                echoInInput = inputBodies.contains(body)
                var probe = cursor
                while probe < ours.count, probe < cursor + 64 {
                    if ours[probe].body == body {
                        matched = ours[probe].state
                        cursor = probe + 1
                        break
                    }
                    probe += 1
                }
                continue
            }
            guard line.hasPrefix("{\"class\":\"TPV\""), let json = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let lat = json["lat"] as? Double, let lon = json["lon"] as? Double
            else { continue }
            guard let state = matched else {
                counts[echoInInput ? .sentenceNotDecoded : .fromBinaryProtocol, default: 0] += 1
                if ProcessInfo.processInfo.environment["CORPUS_DEBUG"] == "sentenceNotDecoded", (counts[.sentenceNotDecoded] ?? 0) <= 3 {
                    print("[\(log.lastPathComponent)] not decoded, after echo: \(lastEcho)")
                }
                continue
            }
            let result = outcome(gpsd: json, lat: lat, lon: lon, ours: state)
            counts[result, default: 0] += 1
            if let debug = ProcessInfo.processInfo.environment["CORPUS_DEBUG"], debug == result.rawValue, (counts[result] ?? 0) <= 3 {
                print("[\(log.lastPathComponent)] \(result): gpsd \(line)\n    ours: mode \(state.mode) time \(state.isoTime ?? "-") speed \(state.speed.map { "\($0)" } ?? "-") track \(state.track.map { "\($0)" } ?? "-") lat \(state.latitude ?? .nan)")
            }
        }
        return counts
    }

    private static func outcome(gpsd: [String: Any], lat: Double, lon: Double, ours: NMEAFix) -> Outcome {
        guard let ourLat = ours.latitude, let ourLon = ours.longitude else { return .noPositionHere }
        if abs(ourLat - lat) > 1e-6 || abs(ourLon - lon) > 1e-6 { return .positionDiffers }
        if let mode = gpsd["mode"] as? Int, mode != ours.mode { return .modeDiffers }
        if let time = gpsd["time"] as? String {
            guard let ourTime = ours.isoTime else { return .timeDiffers }
            if ourTime != time {
                return isWeekRollover(time, ourTime) ? .agreeButWeekRollover : .timeDiffers
            }
        }
        // gpsd reports a speed or track it computed from successive fixes when the sentences carry
        // none; there is nothing to decode then, so such a field is counted apart, not compared.
        var derived = false
        if let speed = gpsd["speed"] as? Double {
            if let ourSpeed = ours.speed {
                if abs(ourSpeed - speed) > 0.01 { return .speedDiffers }
            } else {
                derived = true
            }
        }
        if let track = gpsd["track"] as? Double {
            if let ourTrack = ours.track {
                if abs(ourTrack - track) > 0.01 { return .trackDiffers }
            } else {
                derived = true
            }
        }
        return derived ? .agreeButGpsdDerivedMotion : .agree
    }

    private static func isWeekRollover(_ a: String, _ b: String) -> Bool {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let x = formatter.date(from: a), let y = formatter.date(from: b) else { return false }
        let weeks = abs(x.timeIntervalSince(y)) / (7 * 86_400)
        return weeks >= 1023 && abs(weeks / 1024 - (weeks / 1024).rounded()) < 0.01
    }

    /// Every framed sentence's body (text before `*`) with the assembler's state after it.
    static func decodePerSentence(_ data: Data) throws -> [(body: String, state: NMEAFix)] {
        var framer = NMEAFramer()
        var parser = NMEASentenceParser()
        var assembler = NMEAFixAssembler()
        var result: [(String, NMEAFix)] = []
        data.withUnsafeBytes { bytes in
            framer.feed(bytes) { body in
                if let sentence = parser.parse(body) { assembler.add(sentence) { _ in } }
                result.append((String(decoding: body, as: UTF8.self), assembler.current))
            }
        }
        return result
    }
}
