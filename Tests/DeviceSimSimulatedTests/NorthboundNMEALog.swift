import DeviceSimNMEA
import Foundation

/// An NMEA log for tests: one 3D fix a second from 2026-01-01T00:00:00Z, moving north from [0, 0] at
/// 0.0001° (11.1 m) a second, written to a temporary file named `<prefix>-<uuid>.nmea`.
func northboundNMEALog(seconds: Int, prefix: String) throws -> URL {
    var text = ""
    for second in 0..<seconds {
        var fix = NMEAFix()
        fix.setTime(unixNanoseconds: (1_767_225_600 + Int64(second)) * 1_000_000_000)
        fix.mode = 3
        fix.latitude = Double(second) * 0.0001
        fix.longitude = 0
        text += NMEASentenceWriter.epoch(fix)
    }
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString).nmea")
    try Data(text.utf8).write(to: url)
    return url
}
