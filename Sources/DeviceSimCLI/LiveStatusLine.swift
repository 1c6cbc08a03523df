#if canImport(DeviceSimGPSD)
import DeviceSimGPSD
import Foundation

/// The one-line summary of a live run, like cgps's essentials: the prompt waiting for a key (if any),
/// fix mode, satellites used/seen, HDOP, position, age of the last fix, events so far.
///
/// ```
/// 3D fix | sats 8/12 | HDOP 0.9 | 52.510800 N 13.330500 E | fix 0.4 s ago | 42 events
/// ```
enum LiveStatusLine {
    static func render(_ status: GPSDStatus, events: Int, prompt: PromptBoard.Entry?, now: ContinuousClock.Instant = .now) -> String {
        var parts: [String] = []
        if let prompt {
            var text = "answer \(prompt.prompt.id): \(PromptBoard.numberedChoices(prompt.prompt))"
            if let deadline = prompt.deadline { text += " (\(max(0, Int(now.duration(to: deadline).components.seconds))) s left)" }
            parts.append(text)
        }
        switch status.problem {
        case .unreachable?: parts.append("no gpsd at \(status.endpoint) (retrying)")
        case .misbehaving?: parts.append("gpsd at \(status.endpoint) sends what cannot be used (reconnecting)")
        case .noReceiver?: parts.append("gpsd up, no receiver")
        case .noFix?: parts.append("no fix yet")
        case .fixLost?: parts.append("FIX LOST")
        case nil: parts.append(status.isConnected ? fixMode(status) : "connecting to gpsd at \(status.endpoint)")
        }
        if status.isConnected, (status.problem?.depth ?? 2) >= 2 {
            let used = status.satellitesUsed ?? status.latestReport?.satellitesUsed
            parts.append("sats \(used.map(String.init) ?? "-")/\(status.satellitesSeen.map(String.init) ?? "-")")
            parts.append("HDOP \(status.latestReport?.hdop.map { String(format: "%.1f", $0) } ?? "-")")
        }
        if let fix = status.latestFix, let latitude = fix.latitude, let longitude = fix.longitude {
            parts.append(String(format: "%.6f %@ %.6f %@", abs(latitude), latitude < 0 ? "S" : "N", abs(longitude), longitude < 0 ? "W" : "E"))
        }
        if let at = status.latestFixAt {
            let (seconds, attoseconds) = at.duration(to: now).components
            parts.append(String(format: "fix %.1f s ago", Double(seconds) + Double(attoseconds) / 1e18))
        } else {
            parts.append("no fix yet")
        }
        parts.append("\(events) events")
        var seen = Set<String>()
        return parts.filter { seen.insert($0).inserted }.joined(separator: " | ")
    }

    private static func fixMode(_ status: GPSDStatus) -> String {
        switch status.latestReport?.mode ?? 0 {
        case 3: "3D fix"
        case 2: "2D fix"
        case 1: "no fix"
        default: "waiting for a report"
        }
    }
}
#endif
