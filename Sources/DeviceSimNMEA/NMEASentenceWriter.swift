/// Writes NMEA 0183 sentences with correct checksums: what a receiver would send for a fix, so a
/// simulated route can be fed to gpsd (through `gpsfake`) or played back.
///
/// ```swift
/// let lines = NMEASentenceWriter.epoch(fix)   // GGA, RMC and GSA, each ending in CR LF
/// ```
public enum NMEASentenceWriter {
    /// GGA, RMC and GSA sentences for one fix (GP talker), each with `*hh` and CR LF.
    public static func epoch(_ fix: NMEAFix, satellites: [Int] = [2, 5, 12, 15, 18, 21, 24, 25, 29]) -> String {
        gga(fix) + rmc(fix) + gsa(fix, satellites: satellites)
    }

    /// A GGA sentence.
    public static func gga(_ fix: NMEAFix) -> String {
        let quality = fix.hasPosition ? max(fix.quality ?? 1, 1) : 0
        var body = "GPGGA," + time(fix.timeOfDay) + "," + position(fix)
        body += ",\(quality),\(fix.satellitesUsed.map { two($0) } ?? ""),\(decimal(fix.hdop, 1))"
        body += ",\(decimal(fix.altitudeMSL, 1)),M,\(decimal(fix.geoidSeparation, 1)),M,,"
        return sentence(body)
    }

    /// An RMC sentence.
    public static func rmc(_ fix: NMEAFix) -> String {
        var body = "GPRMC," + time(fix.timeOfDay) + "," + (fix.hasPosition ? "A" : "V") + "," + position(fix)
        body += "," + decimal(fix.speed.map { $0 / NMEASentenceParser.metresPerSecondPerKnot }, 2)
        body += "," + decimal(fix.track, 1) + "," + date(fix.date) + ",,," + (fix.hasPosition ? "A" : "N")
        return sentence(body)
    }

    /// A GSA sentence.
    public static func gsa(_ fix: NMEAFix, satellites: [Int]) -> String {
        var body = "GPGSA,A,\(max(fix.mode, 1))"
        for index in 0..<12 { body += "," + (index < satellites.count && fix.hasPosition ? two(satellites[index]) : "") }
        body += "," + decimal(fix.pdop, 1) + "," + decimal(fix.hdop, 1) + "," + decimal(fix.vdop, 1)
        return sentence(body)
    }

    /// A satellite in view, for GSV.
    public struct SatelliteInView: Sendable, Hashable {
        public var prn: Int
        public var elevation: Int
        public var azimuth: Int
        /// Signal to noise ratio in dB-Hz (nil: not tracked).
        public var snr: Int?

        /// Creates a satellite description.
        public init(prn: Int, elevation: Int, azimuth: Int, snr: Int?) {
            self.prn = prn
            self.elevation = elevation
            self.azimuth = azimuth
            self.snr = snr
        }
    }

    /// What a receiver sends each epoch: GGA, RMC, GSA (the satellites used), GSV (every satellite in
    /// view, four a sentence) and VTG, with `talker` (`GP`, `GN`). Without a position the same
    /// sentences go out with fix quality 0, status V and no satellites used, as receivers send them.
    public static func receiverEpoch(_ fix: NMEAFix, used: [Int], inView: [SatelliteInView], talker: String = "GP") -> String {
        var text = retalk(gga(fix), talker) + retalk(rmc(fix), talker) + retalk(gsa(fix, satellites: used), talker)
        text += gsv(inView, talker: talker)
        text += vtg(fix, talker: talker)
        return text
    }

    /// GSV sentences for `satellites` (four a sentence; one empty sentence when none is in view).
    public static func gsv(_ satellites: [SatelliteInView], talker: String = "GP") -> String {
        let count = max(1, (satellites.count + 3) / 4)
        var text = ""
        for index in 0..<count {
            var body = "\(talker)GSV,\(count),\(index + 1),\(two(satellites.count))"
            for satellite in satellites.dropFirst(index * 4).prefix(4) {
                body += ",\(two(satellite.prn)),\(two(satellite.elevation)),\(three(satellite.azimuth)),\(satellite.snr.map(two) ?? "")"
            }
            text += sentence(body)
        }
        return text
    }

    /// A VTG sentence (course over ground and speed in knots and km/h).
    public static func vtg(_ fix: NMEAFix, talker: String = "GP") -> String {
        let knots = fix.speed.map { $0 / NMEASentenceParser.metresPerSecondPerKnot }
        let kmh = fix.speed.map { $0 * 3.6 }
        let mode = fix.hasPosition ? "A" : "N"
        return sentence("\(talker)VTG,\(decimal(fix.track, 1)),T,,M,\(decimal(knots, 2)),N,\(decimal(kmh, 2)),K,\(mode)")
    }

    /// The sentence with its talker (the two letters after `$`) replaced and its checksum redone.
    private static func retalk(_ line: String, _ talker: String) -> String {
        guard talker != "GP", line.hasPrefix("$GP") else { return line }
        let body = line.dropFirst(3).prefix { $0 != "*" }
        return sentence(talker + body)
    }

    private static func three(_ value: Int) -> String { value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)" }

    /// `$` + body + `*hh` + CR LF.
    public static func sentence(_ body: String) -> String {
        var sum: UInt8 = 0
        for byte in body.utf8 { sum ^= byte }
        let hex = Array("0123456789ABCDEF".utf8)
        return "$" + body + "*" + String(decoding: [hex[Int(sum >> 4)], hex[Int(sum & 15)]], as: UTF8.self) + "\r\n"
    }

    private static func position(_ fix: NMEAFix) -> String {
        guard fix.hasPosition, let lat = fix.latitude, let lon = fix.longitude, abs(lat) <= 90, abs(lon) <= 180 else { return ",,," }
        return angle(abs(lat), degreeDigits: 2) + (lat < 0 ? ",S," : ",N,") + angle(abs(lon), degreeDigits: 3) + (lon < 0 ? ",W" : ",E")
    }

    /// `ddmm.mmmmmm` with six decimals of minutes (about 2 mm).
    private static func angle(_ value: Double, degreeDigits: Int) -> String {
        var degrees = Int(value)
        var microMinutes = Int64(((value - Double(degrees)) * 60 * 1_000_000).rounded())
        if microMinutes >= 60_000_000 {
            degrees += 1
            microMinutes -= 60_000_000
        }
        let minutes = microMinutes / 1_000_000, fraction = microMinutes % 1_000_000
        var text = String(degrees)
        while text.count < degreeDigits { text = "0" + text }
        var fractionText = String(fraction)
        while fractionText.count < 6 { fractionText = "0" + fractionText }
        return text + two(Int(minutes)) + "." + fractionText
    }

    private static func time(_ time: NMEATimeOfDay?) -> String {
        guard let time else { return "" }
        let seconds = time.nanoseconds / 1_000_000_000
        let centis = time.nanoseconds / 10_000_000 % 100
        return two(Int(seconds / 3600)) + two(Int(seconds / 60 % 60)) + two(Int(seconds % 60)) + "." + two(Int(centis))
    }

    private static func date(_ date: NMEADate?) -> String {
        guard let date else { return "" }
        return two(date.day) + two(date.month) + two(date.year % 100)
    }

    /// `value` with `decimals` decimals; an empty field (unknown) for a value no receiver sends:
    /// not finite, or of a billion or more (GPSDJSON would write `null` or `1e+20`, which no NMEA
    /// reader takes for a number).
    private static func decimal(_ value: Double?, _ decimals: Int) -> String {
        guard let value, value.magnitude < 1e9 else { return "" }
        var out: [UInt8] = []
        GPSDJSON.number(value, decimals: decimals, &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
