/// Writes fixes and satellite views as gpsd JSON reports (class TPV and SKY), with the field names
/// gpsd users know, so output compares with `gpspipe -w` and `gpsdecode`. Writes bytes straight into a
/// buffer: no intermediate strings.
///
/// ```swift
/// var out: [UInt8] = []
/// GPSDJSON.append(.fix(fix), to: &out)   // {"class":"TPV","mode":3,"time":"…","lat":…}\n
/// ```
public enum GPSDJSON {
    /// Appends one report as a JSON object followed by a newline.
    public static func append(_ report: NMEAFixAssembler.Report, to out: inout [UInt8]) {
        switch report {
        case .fix(let fix): appendTPV(fix, to: &out)
        case .sky(let sky): appendSKY(sky, to: &out)
        }
        out.append(0x0A)
    }

    /// The report as one line of JSON (without the newline).
    public static func line(_ report: NMEAFixAssembler.Report) -> String {
        var out: [UInt8] = []
        append(report, to: &out)
        out.removeLast()
        return String(decoding: out, as: UTF8.self)
    }

    static func appendTPV(_ fix: NMEAFix, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"class":"TPV""#.utf8)
        if let quality = fix.quality, quality > 1 { key("status", &out); integer(quality, &out) }
        key("mode", &out); integer(fix.mode, &out)
        if let date = fix.date, let time = fix.timeOfDay { key("time", &out); isoTime(date, time, &out) }
        if fix.mode >= 2, let lat = fix.latitude, let lon = fix.longitude {
            key("lat", &out); number(lat, decimals: 9, &out)
            key("lon", &out); number(lon, decimals: 9, &out)
            if fix.mode >= 3, let altitude = fix.altitudeMSL {
                if let separation = fix.geoidSeparation { key("altHAE", &out); number(altitude + separation, decimals: 4, &out) }
                key("altMSL", &out); number(altitude, decimals: 4, &out)
            }
        }
        if let track = fix.track { key("track", &out); number(track, decimals: 4, &out) }
        if let variation = fix.magneticVariation { key("magvar", &out); number(variation, decimals: 1, &out) }
        if let speed = fix.speed { key("speed", &out); number(speed, decimals: 3, &out) }
        if let separation = fix.geoidSeparation { key("geoidSep", &out); number(separation, decimals: 3, &out) }
        if let error = fix.latitudeError { key("epy", &out); number(error, decimals: 3, &out) }
        if let error = fix.longitudeError { key("epx", &out); number(error, decimals: 3, &out) }
        if let error = fix.altitudeError { key("epv", &out); number(error, decimals: 3, &out) }
        if let hdop = fix.hdop { key("hdop", &out); number(hdop, decimals: 2, &out) }
        if let used = fix.satellitesUsed { key("uSat", &out); integer(used, &out) }
        out.append(0x7D)
    }

    static func appendSKY(_ sky: NMEASkyView, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"class":"SKY""#.utf8)
        if let hdop = sky.hdop { key("hdop", &out); number(hdop, decimals: 2, &out) }
        if let pdop = sky.pdop { key("pdop", &out); number(pdop, decimals: 2, &out) }
        if let vdop = sky.vdop { key("vdop", &out); number(vdop, decimals: 2, &out) }
        key("nSat", &out); integer(sky.satellites.count, &out)
        var used = 0
        for satellite in sky.satellites where satellite.used { used += 1 }
        key("uSat", &out); integer(used, &out)
        out.append(contentsOf: #","satellites":["#.utf8)
        for (index, satellite) in sky.satellites.enumerated() {
            if index > 0 { out.append(0x2C) }
            out.append(contentsOf: #"{"PRN":"#.utf8)
            integer(satellite.prn, &out)
            if let elevation = satellite.elevation { key("el", &out); number(elevation, decimals: 1, &out) }
            if let azimuth = satellite.azimuth { key("az", &out); number(azimuth, decimals: 1, &out) }
            if let snr = satellite.snr { key("ss", &out); number(snr, decimals: 1, &out) }
            out.append(contentsOf: satellite.used ? #","used":true}"#.utf8 : #","used":false}"#.utf8)
        }
        out.append(contentsOf: "]}".utf8)
    }

    @inline(__always)
    private static func key(_ name: StaticString, _ out: inout [UInt8]) {
        out.append(0x2C)
        out.append(0x22)
        name.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(0x22)
        out.append(0x3A)
    }

    /// A non-negative or negative whole number in decimal.
    static func integer(_ value: Int, _ out: inout [UInt8]) {
        if value < 0 { out.append(0x2D) }
        unsigned(UInt64(value.magnitude), minimumDigits: 1, &out)
    }

    private static func unsigned(_ value: UInt64, minimumDigits: Int, _ out: inout [UInt8]) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(rest % 10) + 0x30
                rest /= 10
                count += 1
            } while rest > 0 || count < minimumDigits
            for index in stride(from: count - 1, through: 0, by: -1) { out.append(buffer[index]) }
        }
    }

    /// Fixed-point with `decimals` digits, correctly rounded; `null` when not finite.
    static func number(_ value: Double, decimals: Int, _ out: inout [UInt8]) {
        guard value.isFinite else {
            out.append(contentsOf: "null".utf8)
            return
        }
        var scale: Double = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value.magnitude * scale).rounded()
        guard scaled < 9e18 else {
            out.append(contentsOf: String(value).utf8)
            return
        }
        let units = UInt64(scaled)
        let divisor = UInt64(scale)
        if value < 0, units != 0 { out.append(0x2D) }
        unsigned(units / divisor, minimumDigits: 1, &out)
        if decimals > 0 {
            out.append(0x2E)
            unsigned(units % divisor, minimumDigits: decimals, &out)
        }
    }

    /// `2007-12-23T19:32:21.000Z`.
    private static func isoTime(_ date: NMEADate, _ time: NMEATimeOfDay, _ out: inout [UInt8]) {
        out.append(0x22)
        unsigned(UInt64(max(0, date.year)), minimumDigits: 4, &out)
        out.append(0x2D)
        unsigned(UInt64(date.month), minimumDigits: 2, &out)
        out.append(0x2D)
        unsigned(UInt64(date.day), minimumDigits: 2, &out)
        out.append(0x54)
        let seconds = UInt64(time.nanoseconds / 1_000_000_000)
        unsigned(seconds / 3600, minimumDigits: 2, &out)
        out.append(0x3A)
        unsigned(seconds / 60 % 60, minimumDigits: 2, &out)
        out.append(0x3A)
        unsigned(seconds % 60, minimumDigits: 2, &out)
        out.append(0x2E)
        unsigned(UInt64(time.nanoseconds / 1_000_000 % 1000), minimumDigits: 3, &out)
        out.append(contentsOf: "Z\"".utf8)
    }
}
