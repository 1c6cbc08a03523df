/// Merges decoded sentences into fixes the way a receiver's epoch works: sentences sharing a time of
/// day make one fix; a new time of day closes the previous epoch. GSV series make satellite views.
///
/// ```swift
/// var assembler = NMEAFixAssembler()
/// assembler.add(sentence) { report in
///     switch report { case .fix(let fix): ...; case .sky(let sky): ... }
/// }
/// assembler.finish { ... }   // the last epoch
/// ```
public struct NMEAFixAssembler: Sendable {
    /// What the assembler emits.
    public enum Report: Sendable, Hashable {
        /// A completed epoch.
        case fix(NMEAFix)
        /// A completed GSV series.
        case sky(NMEASkyView)
    }

    /// The epoch being assembled (gpsd's view after the latest sentence).
    public private(set) var current = NMEAFix()
    private var epochHasData = false
    private var positionThisEpoch = false
    private var usedPRNs = PRNSet()
    private var pendingSatellites: [NMEASkyView.Satellite] = []

    /// Creates an assembler.
    public init() {}

    /// Adds a sentence; `emit` receives any report it completes.
    public mutating func add(_ sentence: NMEASentence, emit: (Report) -> Void) {
        switch sentence {
        case .gga(let gga):
            startEpochIfNeeded(gga.time, emit: emit)
            if let quality = gga.quality {
                current.quality = quality
                if quality == 0 {
                    current.mode = 1
                } else {
                    if let lat = gga.latitude, let lon = gga.longitude {
                        current.latitude = lat
                        current.longitude = lon
                        positionThisEpoch = true
                    }
                    if gga.altitude != nil {
                        if current.mode < 3 { current.mode = 3 }
                    } else if current.mode < 2 {
                        current.mode = 2
                    }
                }
            }
            current.altitudeMSL = gga.altitude ?? current.altitudeMSL
            current.geoidSeparation = gga.geoidSeparation ?? current.geoidSeparation
            current.hdop = gga.hdop ?? current.hdop
            current.satellitesUsed = gga.satellitesUsed ?? current.satellitesUsed
        case .rmc(let rmc):
            startEpochIfNeeded(rmc.time, emit: emit)
            if let date = rmc.date { current.date = date }
            if rmc.valid, rmc.modeIndicator != 0x4E {  // N: not valid
                if let lat = rmc.latitude, let lon = rmc.longitude {
                    current.latitude = lat
                    current.longitude = lon
                    positionThisEpoch = true
                    if current.mode < 2 { current.mode = 2 }
                }
                current.speed = rmc.speed ?? current.speed
                current.track = rmc.track ?? current.track
                current.magneticVariation = rmc.magneticVariation ?? current.magneticVariation
            } else {
                current.mode = 1
            }
        case .gll(let gll):
            startEpochIfNeeded(gll.time, emit: emit)
            if gll.valid, gll.modeIndicator != 0x4E, let lat = gll.latitude, let lon = gll.longitude {
                current.latitude = lat
                current.longitude = lon
                positionThisEpoch = true
                if current.mode < 2 { current.mode = 2 }
            }
        case .vtg(let vtg):
            if vtg.modeIndicator != 0x4E {
                current.speed = vtg.speed ?? current.speed
                current.track = vtg.track ?? current.track
            }
            epochHasData = true
        case .gsa(let gsa):
            // Like gpsd: GSA's fix type raises the mode but does not lower a 3D fix that GGA's
            // altitude established this epoch; "no fix" counts only when nothing gave a position.
            if let fixType = gsa.fixType, (1...3).contains(fixType) {
                if fixType > current.mode || (fixType == 1 && !positionThisEpoch) { current.mode = fixType }
            }
            current.pdop = gsa.pdop ?? current.pdop
            current.hdop = gsa.hdop ?? current.hdop
            current.vdop = gsa.vdop ?? current.vdop
            if gsa.systemID == nil || gsa.systemID == 1 { usedPRNs = PRNSet() }
            for prn in gsa.satellitesUsed { usedPRNs.insert(prn) }
            epochHasData = true
        case .gsv(let gsv):
            if gsv.messageNumber <= 1 { pendingSatellites.removeAll(keepingCapacity: true) }
            for satellite in gsv.satellites {
                pendingSatellites.append(.init(prn: satellite.prn, elevation: satellite.elevation, azimuth: satellite.azimuth, snr: satellite.snr, used: usedPRNs.contains(satellite.prn)))
            }
            if gsv.messageNumber >= gsv.messageCount {
                emit(.sky(NMEASkyView(satellites: pendingSatellites, hdop: current.hdop, vdop: current.vdop, pdop: current.pdop)))
                pendingSatellites.removeAll(keepingCapacity: true)
            }
        case .zda(let zda):
            startEpochIfNeeded(zda.time, emit: emit)
            if let date = zda.date { current.date = date }
        case .gst(let gst):
            startEpochIfNeeded(gst.time, emit: emit)
            current.latitudeError = gst.latitudeError ?? current.latitudeError
            current.longitudeError = gst.longitudeError ?? current.longitudeError
            current.altitudeError = gst.altitudeError ?? current.altitudeError
        }
    }

    /// Emits the last epoch, if it holds anything.
    public mutating func finish(emit: (Report) -> Void) {
        if epochHasData { emit(.fix(current)) }
        epochHasData = false
    }

    private mutating func startEpochIfNeeded(_ time: NMEATimeOfDay?, emit: (Report) -> Void) {
        defer { epochHasData = true }
        guard let time, time != current.timeOfDay else { return }
        if epochHasData, current.timeOfDay != nil {
            emit(.fix(current))
            // A new epoch keeps the date (rolling it over at midnight) and forgets per-epoch values.
            var next = NMEAFix()
            next.date = current.date
            if let date = current.date, let previous = current.timeOfDay, time < previous, previous.nanoseconds - time.nanoseconds > 43_200_000_000_000 {
                next.date = date.nextDay
            }
            next.mode = current.mode
            next.latitude = current.latitude
            next.longitude = current.longitude
            current = next
            positionThisEpoch = false
        }
        current.timeOfDay = time
    }
}

extension NMEADate {
    /// The following calendar day.
    var nextDay: NMEADate {
        let lengths = [31, (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        if day < lengths[month - 1] { return NMEADate(year: year, month: month, day: day + 1) }
        if month < 12 { return NMEADate(year: year, month: month + 1, day: 1) }
        return NMEADate(year: year + 1, month: 1, day: 1)
    }
}

/// A set of satellite numbers (0..<512) as a bit field: no hashing, no allocation.
struct PRNSet: Sendable, Hashable {
    private var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

    mutating func insert(_ prn: Int) {
        guard (0..<512).contains(prn) else { return }
        withUnsafeMutableBytes(of: &words) { $0.storeBytes(of: $0.load(fromByteOffset: prn / 64 * 8, as: UInt64.self) | 1 << UInt64(prn % 64), toByteOffset: prn / 64 * 8, as: UInt64.self) }
    }

    func contains(_ prn: Int) -> Bool {
        guard (0..<512).contains(prn) else { return false }
        return withUnsafeBytes(of: words) { $0.load(fromByteOffset: prn / 64 * 8, as: UInt64.self) & 1 << UInt64(prn % 64) != 0 }
    }

    static func == (lhs: PRNSet, rhs: PRNSet) -> Bool {
        withUnsafeBytes(of: lhs.words) { a in withUnsafeBytes(of: rhs.words) { b in a.elementsEqual(b) } }
    }

    func hash(into hasher: inout Hasher) {
        withUnsafeBytes(of: words) { hasher.combine(bytes: $0) }
    }
}
