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
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumSize(of: report)) { buffer in
            let written = write(report, to: buffer.baseAddress!)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<written]))
        }
    }

    /// The report as one line of JSON (without the newline).
    public static func line(_ report: NMEAFixAssembler.Report) -> String {
        var out: [UInt8] = []
        append(report, to: &out)
        out.removeLast()
        return String(decoding: out, as: UTF8.self)
    }

    /// The most bytes ``write(_:to:)`` writes for `report`: room to reserve before writing.
    public static func maximumSize(of report: NMEAFixAssembler.Report) -> Int {
        switch report {
        case .fix: maximumFixSize
        case .sky(let sky): maximumSize(ofSkyWith: sky.satellites.count)
        }
    }

    /// The most bytes ``write(_:to:)`` writes for a fix.
    @inlinable
    public static var maximumFixSize: Int { 1_024 }

    /// The most bytes ``write(_:to:)`` writes for a satellite view of `satellites` satellites.
    ///
    /// ```swift
    /// GPSDJSON.maximumSize(ofSkyWith: sky.satellites.count)
    /// ```
    @inlinable
    public static func maximumSize(ofSkyWith satellites: Int) -> Int {
        256 + 192 * satellites
    }

    /// Writes one report and a newline at `destination`, which must have room for
    /// ``maximumSize(of:)`` bytes; returns how many bytes it wrote. The fast path of `nmea decode`.
    public static func write(_ report: NMEAFixAssembler.Report, to destination: UnsafeMutablePointer<UInt8>) -> Int {
        var out = UncheckedBytes(destination)
        switch report {
        case .fix(let fix): writeTPV(fix, to: &out)
        case .sky(let sky): writeSKY(sky, to: &out)
        }
        out.byte(0x0A)
        return out.count
    }

    static func writeTPV(_ fix: NMEAFix, to out: inout UncheckedBytes) {
        out.bytes(#"{"class":"TPV""#)
        if let quality = fix.quality, quality > 1 { out.bytes(#","status":"#); out.integer(quality) }
        out.bytes(#","mode":"#); out.integer(fix.mode)
        if let date = fix.date, let time = fix.timeOfDay { out.bytes(#","time":"#); out.isoTime(date, time) }
        if fix.mode >= 2, let lat = fix.latitude, let lon = fix.longitude {
            out.bytes(#","lat":"#); out.number(lat, decimals: 9)
            out.bytes(#","lon":"#); out.number(lon, decimals: 9)
            if fix.mode >= 3, let altitude = fix.altitudeMSL {
                if let separation = fix.geoidSeparation { out.bytes(#","altHAE":"#); out.number(altitude + separation, decimals: 4) }
                out.bytes(#","altMSL":"#); out.number(altitude, decimals: 4)
            }
        }
        if let track = fix.track { out.bytes(#","track":"#); out.number(track, decimals: 4) }
        if let variation = fix.magneticVariation { out.bytes(#","magvar":"#); out.number(variation, decimals: 1) }
        if let speed = fix.speed { out.bytes(#","speed":"#); out.number(speed, decimals: 3) }
        if let separation = fix.geoidSeparation { out.bytes(#","geoidSep":"#); out.number(separation, decimals: 3) }
        if let error = fix.latitudeError { out.bytes(#","epy":"#); out.number(error, decimals: 3) }
        if let error = fix.longitudeError { out.bytes(#","epx":"#); out.number(error, decimals: 3) }
        if let error = fix.altitudeError { out.bytes(#","epv":"#); out.number(error, decimals: 3) }
        if let hdop = fix.hdop { out.bytes(#","hdop":"#); out.number(hdop, decimals: 2) }
        if let used = fix.satellitesUsed { out.bytes(#","uSat":"#); out.integer(used) }
        out.byte(0x7D)
    }

    static func writeSKY(_ sky: NMEASkyView, to out: inout UncheckedBytes) {
        out.bytes(#"{"class":"SKY""#)
        if let hdop = sky.hdop { out.bytes(#","hdop":"#); out.number(hdop, decimals: 2) }
        if let pdop = sky.pdop { out.bytes(#","pdop":"#); out.number(pdop, decimals: 2) }
        if let vdop = sky.vdop { out.bytes(#","vdop":"#); out.number(vdop, decimals: 2) }
        out.bytes(#","nSat":"#); out.integer(sky.satellites.count)
        var used = 0
        for satellite in sky.satellites where satellite.used { used += 1 }
        out.bytes(#","uSat":"#); out.integer(used)
        out.bytes(#","satellites":["#)
        var first = true
        for satellite in sky.satellites {
            if !first { out.byte(0x2C) }
            first = false
            out.bytes(#"{"PRN":"#)
            out.integer(satellite.prn)
            if let elevation = satellite.elevation { out.bytes(#","el":"#); out.oneDecimal(elevation) }
            if let azimuth = satellite.azimuth { out.bytes(#","az":"#); out.oneDecimal(azimuth) }
            if let snr = satellite.snr { out.bytes(#","ss":"#); out.oneDecimal(snr) }
            out.bytes(satellite.used ? #","used":true}"# : #","used":false}"#)
        }
        out.bytes("]}")
    }

    /// Fixed-point with `decimals` digits, correctly rounded; `null` when not finite.
    static func number(_ value: Double, decimals: Int, _ out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
            var bytes = UncheckedBytes(buffer.baseAddress!)
            bytes.number(value, decimals: decimals)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<bytes.count]))
        }
    }
}

/// Bytes written at a pointer without bounds checks: the caller reserved room for the most a report
/// can take (``GPSDJSON/maximumSize(of:)``; every number takes at most 26 bytes).
struct UncheckedBytes {
    private let base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0

    init(_ base: UnsafeMutablePointer<UInt8>) {
        self.base = base
    }

    @inline(__always)
    mutating func byte(_ value: UInt8) {
        base[count] = value
        count &+= 1
    }

    /// A literal. Its length is a constant once inlined, so the copy is one or two pairs of loads and
    /// stores (overlapping when the length is not a power of two), not a call to `memcpy`.
    @inline(__always)
    mutating func bytes(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        let source = UnsafeRawPointer(text.utf8Start)
        let destination = UnsafeMutableRawPointer(base + count)
        switch length {
        case 8...16:
            destination.storeBytes(of: source.loadUnaligned(as: UInt64.self), as: UInt64.self)
            destination.storeBytes(of: source.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self), toByteOffset: length - 8, as: UInt64.self)
        case 4..<8:
            destination.storeBytes(of: source.loadUnaligned(as: UInt32.self), as: UInt32.self)
            destination.storeBytes(of: source.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self), toByteOffset: length - 4, as: UInt32.self)
        default:
            (base + count).update(from: text.utf8Start, count: length)
        }
        count &+= length
    }

    /// A whole number in decimal.
    @inline(__always)
    mutating func integer(_ value: Int) {
        if UInt(bitPattern: value) < 100 {
            // Most whole numbers in a report: modes, satellite numbers and counts.
            if value < 10 {
                byte(UInt8(truncatingIfNeeded: value) &+ 0x30)
            } else {
                pair(value)
            }
            return
        }
        if value < 0 { byte(0x2D) }
        unsigned(UInt64(value.magnitude), minimumDigits: 1)
    }

    /// "00" ... "99", two ASCII digits each (a literal: no lazy initialisation on the hot path).
    private static let pairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899
        """

    /// `value` in decimal with at least `minimumDigits` digits (leading zeros).
    mutating func unsigned(_ value: UInt64, minimumDigits: Int) {
        if value < 100, minimumDigits <= 2 {
            // Most whole numbers in a report (mode, satellite numbers and counts, times of day).
            if value >= 10 || minimumDigits == 2 {
                pair(Int(truncatingIfNeeded: value))
            } else {
                byte(UInt8(truncatingIfNeeded: value) &+ 0x30)
            }
            return
        }
        if value < 1000, minimumDigits <= 3 {
            // Azimuths, milliseconds.
            let small = Int(truncatingIfNeeded: value)
            byte(UInt8(truncatingIfNeeded: small / 100) &+ 0x30)
            pair(small % 100)
            return
        }
        if value < 10_000, value >= 1000 || minimumDigits == 4, minimumDigits <= 4 {
            // Years.
            let small = Int(truncatingIfNeeded: value)
            pair(small / 100)
            pair(small % 100)
            return
        }
        var digits = 1
        var bound: UInt64 = 10
        while digits < 20, value >= bound {
            digits += 1
            bound = bound &* 10
        }
        let width = max(digits, minimumDigits)
        var position = count &+ width
        var rest = value
        let pairs = Self.pairs.utf8Start
        while rest >= 100 {
            let pair = Int(rest % 100) * 2
            rest /= 100
            position &-= 2
            base[position] = pairs[pair]
            base[position &+ 1] = pairs[pair &+ 1]
        }
        if rest >= 10 {
            let pair = Int(rest) * 2
            position &-= 2
            base[position] = pairs[pair]
            base[position &+ 1] = pairs[pair &+ 1]
        } else {
            position &-= 1
            base[position] = UInt8(rest) + 0x30
        }
        while position > count {
            position &-= 1
            base[position] = 0x30
        }
        count &+= width
    }

    /// Two digits, `value` in 0..<100.
    @inline(__always)
    private mutating func pair(_ value: Int) {
        let pairs = Self.pairs.utf8Start
        base[count] = pairs[value &* 2]
        base[count &+ 1] = pairs[value &* 2 &+ 1]
        count &+= 2
    }

    /// Fixed-point with `decimals` digits, correctly rounded (half away from zero); `null` when not
    /// finite. The decimals gpsd's reports use each get their own copy of ``fixedPoint(_:decimals:)``
    /// with the scale a constant, so that its division is a multiplication, whether or not this
    /// switch is inlined at the call.
    @inline(__always)
    mutating func number(_ value: Double, decimals: Int) {
        switch decimals {
        case 1: fixedPoint(value, decimals: 1)
        case 2: fixedPoint(value, decimals: 2)
        case 3: fixedPoint(value, decimals: 3)
        case 4: fixedPoint(value, decimals: 4)
        case 9: fixedPoint(value, decimals: 9)
        default: fixedPoint(value, decimals: decimals)
        }
    }

    /// The digits of `whole`, from 0 to 999.
    @inline(__always)
    private mutating func wholeBelowThousand(_ whole: Int) {
        if whole < 10 {
            byte(UInt8(truncatingIfNeeded: whole) &+ 0x30)
        } else if whole < 100 {
            pair(whole)
        } else {
            byte(UInt8(truncatingIfNeeded: whole / 100) &+ 0x30)
            pair(whole % 100)
        }
    }

    /// ``number(_:decimals:)`` with one decimal, the same bytes. Whole numbers below 1000 (most
    /// satellite elevations, azimuths and signal strengths) are written here, inline, with `.0`
    /// stored as one pair; the rest go to ``number(_:decimals:)``.
    @inline(__always)
    mutating func oneDecimal(_ value: Double) {
        if value >= 0, value < 1000 {
            // Adding 2^52 rounds to a whole number and leaves it in the low bits (no range checks, as
            // `Int(value)` has): the value is whole when taking 2^52 off again gives it back.
            let shifted = value + 0x1p52
            if shifted - 0x1p52 == value {
                wholeBelowThousand(Int(truncatingIfNeeded: shifted.bitPattern &- (0x1p52 as Double).bitPattern))
                UnsafeMutableRawPointer(base + count).storeBytes(of: 0x302E as UInt16, as: UInt16.self)  // ".0"
                count &+= 2
                return
            }
        }
        number(value, decimals: 1)
    }

    /// ``number(_:decimals:)``'s work. No library call: the rounding is done on the exact fraction,
    /// and the fraction's digits, a fixed number, are written without counting them.
    @inline(__always)
    private mutating func fixedPoint(_ value: Double, decimals: Int) {
        if value >= 0, value < 1000 {
            // Whole numbers below 1000 (most satellite elevations, azimuths and signal strengths):
            // their digits, the point and zeros. Minus zero is written as zero, as below.
            let whole = Int(value)
            if Double(whole) == value {
                wholeBelowThousand(whole)
                if decimals > 0 {
                    byte(0x2E)
                    zeros(decimals)
                }
                return
            }
        }
        guard value.isFinite else {
            bytes("null")
            return
        }
        let scale = exactPowerOfTen(decimals)
        let scaled = value.magnitude * scale
        var units: UInt64
        if scaled < 0x1p52 {
            // Adding 2^52 rounds to a whole number (to even at a half) and leaves it in the low bits;
            // taking 2^52 off again is exact, and so is `scaled` minus that (Sterbenz): a half
            // rounded down to even goes up, away from zero. `scaled.rounded()` to the bit.
            let shifted = scaled + 0x1p52
            units = shifted.bitPattern &- (0x1p52 as Double).bitPattern
            if scaled - (shifted - 0x1p52) == 0.5 { units &+= 1 }
        } else {
            guard scaled < 9e18 else {
                large(value)
                return
            }
            // `scaled - truncated` is exact: rounded as above. Below 9e18 the conversion is exact.
            units = UInt64(Int64(scaled))
            if scaled - Double(units) >= 0.5 { units &+= 1 }
        }
        let divisor = UInt64(scale)
        if value < 0, units != 0 { byte(0x2D) }
        let whole = units / divisor
        if whole < 10 {
            byte(UInt8(truncatingIfNeeded: whole) &+ 0x30)
        } else if whole < 100 {
            pair(Int(truncatingIfNeeded: whole))
        } else {
            unsigned(whole, minimumDigits: 1)
        }
        if decimals > 0 {
            byte(0x2E)
            digits(units % divisor, count: decimals)
        }
    }

    /// `count` zeros: one eight-byte store up to 8 (the reserved room takes the bytes stored past them).
    @inline(__always)
    private mutating func zeros(_ width: Int) {
        if width <= 8 {
            UnsafeMutableRawPointer(base + count).storeBytes(of: 0x3030_3030_3030_3030 as UInt64, as: UInt64.self)
            count &+= width
        } else {
            for _ in 0..<width { byte(0x30) }
        }
    }

    /// A number too large for fixed point, as Swift writes it (kept out of line: it is never hot).
    @inline(never)
    mutating func large(_ value: Double) {
        for byte in String(value).utf8 { self.byte(byte) }
    }

    /// Exactly `count` digits of `value` (below 10^`count`), leading zeros included.
    @inline(__always)
    mutating func digits(_ value: UInt64, count width: Int) {
        let pairs = Self.pairs.utf8Start
        var position = count &+ width
        var rest = value
        while position - count >= 2 {
            let pair = Int(truncatingIfNeeded: rest % 100) &* 2
            rest /= 100
            position &-= 2
            base[position] = pairs[pair]
            base[position &+ 1] = pairs[pair &+ 1]
        }
        if position > count { base[count] = UInt8(truncatingIfNeeded: rest) &+ 0x30 }
        count &+= width
    }

    /// `"2007-12-23T19:32:21.000Z"`.
    mutating func isoTime(_ date: NMEADate, _ time: NMEATimeOfDay) {
        byte(0x22)
        unsigned(UInt64(max(0, date.year)), minimumDigits: 4)
        byte(0x2D)
        unsigned(UInt64(date.month), minimumDigits: 2)
        byte(0x2D)
        unsigned(UInt64(date.day), minimumDigits: 2)
        byte(0x54)
        let seconds = UInt64(time.nanoseconds / 1_000_000_000)
        unsigned(seconds / 3600, minimumDigits: 2)
        byte(0x3A)
        unsigned(seconds / 60 % 60, minimumDigits: 2)
        byte(0x3A)
        unsigned(seconds % 60, minimumDigits: 2)
        byte(0x2E)
        unsigned(UInt64(time.nanoseconds / 1_000_000 % 1000), minimumDigits: 3)
        bytes("Z\"")
    }
}
