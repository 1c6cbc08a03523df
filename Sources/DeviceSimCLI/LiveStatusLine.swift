#if canImport(DeviceSimGPSD)
import DeviceSimGPSD
import Foundation

/// The one-line summary of a live run, like cgps's essentials: fix mode, the prompt waiting for a key
/// (if any), position, age of the last fix, satellites used/seen, HDOP, events so far.
///
/// ```
/// 3D fix | 52.510800 N 13.330500 E | fix 0.4 s ago | sats 8/12 | HDOP 0.9 | 42 events
/// ```
///
/// In a narrow terminal whole parts are left out, the least useful first (events, HDOP, satellites,
/// then the prompt's choices), so the fix and the position stay in view; nothing is cut mid-word
/// unless the fix alone is wider than the terminal.
enum LiveStatusLine {
    static func render(_ status: GPSDStatus, events: Int, prompt: PromptBoard.Entry?, width: Int = .max, now: ContinuousClock.Instant = .now) -> String {
        var parts: [Part] = []
        switch status.problem {
        case .unreachable?: parts.append(Part("no gpsd at \(status.endpoint) (retrying)", 0))
        case .misbehaving?: parts.append(Part("gpsd at \(status.endpoint) sends what cannot be used (reconnecting)", 0))
        case .noReceiver?: parts.append(Part("gpsd up, no receiver", 0))
        case .noFix?: parts.append(Part("no fix yet", 0))
        case .fixLost?: parts.append(Part("FIX LOST", 0))
        case nil: parts.append(Part(status.isConnected ? fixMode(status) : "connecting to gpsd at \(status.endpoint)", 0))
        }
        if let prompt {
            var left = ""
            if let deadline = prompt.deadline { left = " (\(max(0, Int(now.duration(to: deadline).components.seconds))) s left)" }
            parts.append(Part("answer \(prompt.prompt.id): \(PromptBoard.numberedChoices(prompt.prompt))\(left)", 4, shortForm: "answer \(prompt.prompt.id)\(left)"))
        }
        if let fix = status.latestFix, let latitude = fix.latitude, let longitude = fix.longitude {
            parts.append(Part(String(format: "%.6f %@ %.6f %@", abs(latitude), latitude < 0 ? "S" : "N", abs(longitude), longitude < 0 ? "W" : "E"), 1))
        }
        if let at = status.latestFixAt {
            let (seconds, attoseconds) = at.duration(to: now).components
            parts.append(Part(String(format: "fix %.1f s ago", Double(seconds) + Double(attoseconds) / 1e18), 2))
        } else {
            parts.append(Part("no fix yet", 2))
        }
        if status.isConnected, (status.problem?.depth ?? 2) >= 2 {
            let used = status.satellitesUsed ?? status.latestReport?.satellitesUsed
            parts.append(Part("sats \(used.map(String.init) ?? "-")/\(status.satellitesSeen.map(String.init) ?? "-")", 3))
            parts.append(Part("HDOP \(status.latestReport?.hdop.map { String(format: "%.1f", $0) } ?? "-")", 5))
        }
        parts.append(Part("\(events) events", 6))
        var seen = Set<String>()
        parts = parts.filter { seen.insert($0.text).inserted }
        return fit(parts, width: width)
    }

    /// A part of the line and its rank: the higher, the sooner it is left out (or shortened, when it
    /// has a short form) when the line is too wide.
    struct Part {
        var text: String
        var rank: Int
        var shortForm: String?

        init(_ text: String, _ rank: Int, shortForm: String? = nil) {
            self.text = text
            self.rank = rank
            self.shortForm = shortForm
        }
    }

    /// The parts joined with ` | `, shortening or leaving out the highest ranks until the line fits in
    /// `width`; the first part (the fix) is cut only if it alone is too wide.
    static func fit(_ parts: [Part], width: Int) -> String {
        var kept = parts
        func line() -> String { kept.map(\.text).joined(separator: " | ") }
        while line().count > width, let worst = kept.indices.dropFirst().max(by: { kept[$0].rank < kept[$1].rank }) {
            if let short = kept[worst].shortForm {
                kept[worst] = Part(short, 1)
            } else {
                kept.remove(at: worst)
            }
        }
        let text = line()
        return text.count <= width ? text : String(text.prefix(max(0, width - 1))) + "…"
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
