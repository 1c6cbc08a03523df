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
    /// The satellites of the GSA sentence being added.
    private var usedInSentence = PRNSet()
    /// Of the GSV sentence being added.
    private var skyMessageNumber = 0, skyMessageCount = 0

    /// Creates an assembler.
    public init() {}

    /// Adds a sentence; `emit` receives any report it completes.
    public mutating func add(_ sentence: NMEASentence, emit: (Report) -> Void) {
        switch sentence {
        case .gga(let gga): add(gga, emit: emit)
        case .rmc(let rmc): add(rmc, emit: emit)
        case .gll(let gll): add(gll, emit: emit)
        case .vtg(let vtg): add(vtg, emit: emit)
        case .gsa(let gsa):
            beginGSA()
            for prn in gsa.satellitesUsed { addUsedSatellite(prn) }
            endGSA(gsa, emit: emit)
        case .gsv(let gsv):
            beginGSV(gsv)
            for satellite in gsv.satellites { addSatellite(satellite) }
            endGSV(emit: emit)
        case .zda(let zda): add(zda, emit: emit)
        case .gst(let gst): add(gst, emit: emit)
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

extension NMEAFixAssembler: NMEASentenceSink {
    @inline(__always)
    mutating func add(_ gga: NMEASentence.GGA, emit: (Report) -> Void) {
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
    }

    @inline(__always)
    mutating func add(_ rmc: NMEASentence.RMC, emit: (Report) -> Void) {
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
    }

    @inline(__always)
    mutating func add(_ gll: NMEASentence.GLL, emit: (Report) -> Void) {
        startEpochIfNeeded(gll.time, emit: emit)
        if gll.valid, gll.modeIndicator != 0x4E, let lat = gll.latitude, let lon = gll.longitude {
            current.latitude = lat
            current.longitude = lon
            positionThisEpoch = true
            if current.mode < 2 { current.mode = 2 }
        }
    }

    @inline(__always)
    mutating func add(_ vtg: NMEASentence.VTG, emit: (Report) -> Void) {
        if vtg.modeIndicator != 0x4E {
            current.speed = vtg.speed ?? current.speed
            current.track = vtg.track ?? current.track
        }
        epochHasData = true
    }

    @inline(__always)
    mutating func add(_ zda: NMEASentence.ZDA, emit: (Report) -> Void) {
        startEpochIfNeeded(zda.time, emit: emit)
        if let date = zda.date { current.date = date }
    }

    @inline(__always)
    mutating func add(_ gst: NMEASentence.GST, emit: (Report) -> Void) {
        startEpochIfNeeded(gst.time, emit: emit)
        current.latitudeError = gst.latitudeError ?? current.latitudeError
        current.longitudeError = gst.longitudeError ?? current.longitudeError
        current.altitudeError = gst.altitudeError ?? current.altitudeError
    }

    @inline(__always)
    mutating func beginGSA() {
        usedInSentence = PRNSet()
    }

    @inline(__always)
    mutating func addUsedSatellite(_ prn: Int) {
        usedInSentence.insert(prn)
    }

    @inline(__always)
    mutating func endGSA(_ gsa: NMEASentence.GSA, emit: (Report) -> Void) {
        // Like gpsd: GSA's fix type raises the mode but does not lower a 3D fix that GGA's
        // altitude established this epoch; "no fix" counts only when nothing gave a position.
        if let fixType = gsa.fixType, (1...3).contains(fixType) {
            if fixType > current.mode || (fixType == 1 && !positionThisEpoch) { current.mode = fixType }
        }
        current.pdop = gsa.pdop ?? current.pdop
        current.hdop = gsa.hdop ?? current.hdop
        current.vdop = gsa.vdop ?? current.vdop
        if gsa.systemID == nil || gsa.systemID == 1 { usedPRNs = PRNSet() }
        usedPRNs.formUnion(usedInSentence)
        epochHasData = true
    }

    @inline(__always)
    mutating func beginGSV(_ gsv: NMEASentence.GSV) {
        if gsv.messageNumber <= 1 { pendingSatellites.removeAll(keepingCapacity: true) }
        skyMessageNumber = gsv.messageNumber
        skyMessageCount = gsv.messageCount
    }

    @inline(__always)
    mutating func addSatellite(_ satellite: NMEASatellite) {
        pendingSatellites.append(.init(
            prn: satellite.prn, elevation: satellite.elevation, azimuth: satellite.azimuth, snr: satellite.snr,
            used: usedPRNs.contains(satellite.prn)))
    }

    @inline(__always)
    mutating func endGSV(emit: (Report) -> Void) {
        if skyMessageNumber >= skyMessageCount {
            emit(.sky(NMEASkyView(satellites: pendingSatellites, hdop: current.hdop, vdop: current.vdop, pdop: current.pdop)))
            pendingSatellites.removeAll(keepingCapacity: true)
        }
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

    @inline(__always)
    mutating func insert(_ prn: Int) {
        guard (0..<512).contains(prn) else { return }
        withUnsafeMutableBytes(of: &words) { $0.storeBytes(of: $0.load(fromByteOffset: prn / 64 * 8, as: UInt64.self) | 1 << UInt64(prn % 64), toByteOffset: prn / 64 * 8, as: UInt64.self) }
    }

    /// Adds every satellite of `other`.
    mutating func formUnion(_ other: PRNSet) {
        words.0 |= other.words.0
        words.1 |= other.words.1
        words.2 |= other.words.2
        words.3 |= other.words.3
        words.4 |= other.words.4
        words.5 |= other.words.5
        words.6 |= other.words.6
        words.7 |= other.words.7
    }

    @inline(__always)
    func contains(_ prn: Int) -> Bool {
        guard UInt(bitPattern: prn) < 512 else { return false }
        return withUnsafeBytes(of: words) { $0.load(fromByteOffset: prn &>> 6 &* 8, as: UInt64.self) &>> UInt64(prn & 63) & 1 != 0 }
    }

    static func == (lhs: PRNSet, rhs: PRNSet) -> Bool {
        withUnsafeBytes(of: lhs.words) { a in withUnsafeBytes(of: rhs.words) { b in a.elementsEqual(b) } }
    }

    func hash(into hasher: inout Hasher) {
        withUnsafeBytes(of: words) { hasher.combine(bytes: $0) }
    }
}
