/// Writes fixes and satellite views as gpsd JSON reports (class TPV and SKY), with the field names
/// gpsd users know, so output compares with `gpspipe -w` and `gpsdecode`.
///
/// ```swift
/// var line = ""
/// GPSDJSON.append(.fix(fix), to: &line)   // {"class":"TPV","mode":3,"time":"…","lat":…}
/// ```
public enum GPSDJSON {
    /// Appends one report as a JSON object followed by a newline.
    public static func append(_ report: NMEAFixAssembler.Report, device: String? = nil, to out: inout String) {
        switch report {
        case .fix(let fix): appendTPV(fix, device: device, to: &out)
        case .sky(let sky): appendSKY(sky, device: device, to: &out)
        }
        out += "\n"
    }

    static func appendTPV(_ fix: NMEAFix, device: String?, to out: inout String) {
        out += "{\"class\":\"TPV\""
        if let device { out += ",\"device\":\"\(device)\"" }
        if let quality = fix.quality, quality > 1 { out += ",\"status\":\(quality)" }
        out += ",\"mode\":\(fix.mode)"
        if let time = fix.isoTime { out += ",\"time\":\"\(time)\"" }
        if fix.mode >= 2, let lat = fix.latitude, let lon = fix.longitude {
            out += ",\"lat\":"; number(lat, decimals: 9, to: &out)
            out += ",\"lon\":"; number(lon, decimals: 9, to: &out)
            if fix.mode >= 3, let altitude = fix.altitudeMSL {
                if let separation = fix.geoidSeparation { out += ",\"altHAE\":"; number(altitude + separation, decimals: 4, to: &out) }
                out += ",\"altMSL\":"; number(altitude, decimals: 4, to: &out)
            }
        }
        if let track = fix.track { out += ",\"track\":"; number(track, decimals: 4, to: &out) }
        if let variation = fix.magneticVariation { out += ",\"magvar\":"; number(variation, decimals: 1, to: &out) }
        if let speed = fix.speed { out += ",\"speed\":"; number(speed, decimals: 3, to: &out) }
        if let separation = fix.geoidSeparation { out += ",\"geoidSep\":"; number(separation, decimals: 3, to: &out) }
        if let error = fix.latitudeError { out += ",\"epy\":"; number(error, decimals: 3, to: &out) }
        if let error = fix.longitudeError { out += ",\"epx\":"; number(error, decimals: 3, to: &out) }
        if let error = fix.altitudeError { out += ",\"epv\":"; number(error, decimals: 3, to: &out) }
        if let hdop = fix.hdop { out += ",\"hdop\":"; number(hdop, decimals: 2, to: &out) }
        if let used = fix.satellitesUsed { out += ",\"uSat\":\(used)" }
        out += "}"
    }

    static func appendSKY(_ sky: NMEASkyView, device: String?, to out: inout String) {
        out += "{\"class\":\"SKY\""
        if let device { out += ",\"device\":\"\(device)\"" }
        if let hdop = sky.hdop { out += ",\"hdop\":"; number(hdop, decimals: 2, to: &out) }
        if let pdop = sky.pdop { out += ",\"pdop\":"; number(pdop, decimals: 2, to: &out) }
        if let vdop = sky.vdop { out += ",\"vdop\":"; number(vdop, decimals: 2, to: &out) }
        out += ",\"nSat\":\(sky.satellites.count),\"uSat\":\(sky.satellites.filter(\.used).count),\"satellites\":["
        for (index, satellite) in sky.satellites.enumerated() {
            if index > 0 { out += "," }
            out += "{\"PRN\":\(satellite.prn)"
            if let elevation = satellite.elevation { out += ",\"el\":"; number(elevation, decimals: 1, to: &out) }
            if let azimuth = satellite.azimuth { out += ",\"az\":"; number(azimuth, decimals: 1, to: &out) }
            if let snr = satellite.snr { out += ",\"ss\":"; number(snr, decimals: 1, to: &out) }
            out += ",\"used\":\(satellite.used)}"
        }
        out += "]}"
    }

    /// Fixed-point formatting without Foundation: `decimals` digits, correctly rounded.
    static func number(_ value: Double, decimals: Int, to out: inout String) {
        guard value.isFinite else {
            out += "null"
            return
        }
        var scale: Double = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9.2e18 else {
            out += String(value)
            return
        }
        let units = UInt64(scaled)
        let whole = units / UInt64(scale)
        var fraction = String(units % UInt64(scale))
        if value < 0, units != 0 { out += "-" }
        out += String(whole)
        if decimals > 0 {
            if fraction.count < decimals { fraction = String(repeating: "0", count: decimals - fraction.count) + fraction }
            out += "." + fraction
        }
    }
}
