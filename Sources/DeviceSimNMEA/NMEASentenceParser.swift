/// Turns a framed sentence (from ``NMEAFramer``) into an ``NMEASentence``: exact field decoding
/// (`ddmm.mmmm` to degrees, knots to m/s), empty fields as absent, malformed fields counted.
///
/// ```swift
/// var parser = NMEASentenceParser()
/// framer.feed(bytes) { body in
///     if let sentence = parser.parse(body) { ... }
/// }
/// ```
public struct NMEASentenceParser: Sendable {
    /// Fields that could not be read (treated as absent).
    public private(set) var malformedFields = 0
    /// Known sentences with too few fields.
    public private(set) var shortSentences = 0
    /// Well-formed sentences of a type this parser does not interpret.
    public private(set) var unsupportedSentences = 0

    /// At most this many fields of a sentence are read (GSV, the longest supported, has 21).
    static let maximumFields = 64

    /// Makes the sentences of ``parse(_:_:)``.
    private var builder = NMEASentenceBuilder()

    /// Creates a parser.
    public init() {}

    /// Knots to metres per second.
    public static let metresPerSecondPerKnot = 1852.0 / 3600.0

    /// Decodes one sentence body (`$` up to before `*`); nil for an unsupported or unusable sentence.
    public mutating func parse(_ body: UnsafeRawBufferPointer) -> NMEASentence? {
        var result: NMEASentence?
        parse(body) { result = $0 }
        return result
    }

    /// Parses one sentence body and hands the sentence to `handle` (not called for sentences that are
    /// skipped and counted).
    public mutating func parse(_ body: UnsafeRawBufferPointer, _ handle: (NMEASentence) -> Void) {
        var builder = NMEASentenceBuilder()
        swap(&builder, &self.builder)
        defer { swap(&builder, &self.builder) }
        if read(body, into: &builder, emit: { _ in }), let sentence = builder.take() {
            handle(sentence)
        }
    }

    /// Parses one sentence body into `assembler`, which receives its values as they are read (no
    /// ``NMEASentence`` is made); `emit` receives the reports the sentence completes. The same as
    /// `assembler.add(parse(body)!, emit: emit)`. Returns whether the sentence was decoded (false for
    /// sentences that are skipped and counted). The decoder's fast path.
    ///
    /// ```swift
    /// framer.feed(bytes) { body in
    ///     _ = parser.parse(body, into: &assembler) { report in ... }
    /// }
    /// ```
    @inline(__always)
    public mutating func parse(
        _ body: UnsafeRawBufferPointer, into assembler: inout NMEAFixAssembler, emit: (NMEAFixAssembler.Report) -> Void
    ) -> Bool {
        read(body, into: &assembler, emit: emit)
    }

    /// Parses one sentence body into `sink`; false for sentences that are skipped and counted.
    @inline(__always)
    private mutating func read<Sink: NMEASentenceSink>(
        _ body: UnsafeRawBufferPointer, into sink: inout Sink, emit: (NMEAFixAssembler.Report) -> Void
    ) -> Bool {
        guard let base = body.baseAddress?.assumingMemoryBound(to: UInt8.self), body.count >= 6 else { return false }
        // Address: $ttSSS (standard) or $P... (proprietary).
        guard base[1] != 0x50 else {  // 'P'
            unsupportedSentences += 1
            return false
        }
        let talker = NMEATalker(base[1], base[2])
        let t0 = base[3], t1 = base[4], t2 = base[5]
        guard body.count == 6 || base[6] == 0x2C else {
            unsupportedSentences += 1
            return false
        }
        let kind: Kind
        switch (t0, t1, t2) {
        case (0x47, 0x47, 0x41): kind = .gga  // GGA
        case (0x52, 0x4D, 0x43): kind = .rmc  // RMC
        case (0x47, 0x4C, 0x4C): kind = .gll  // GLL
        case (0x56, 0x54, 0x47): kind = .vtg  // VTG
        case (0x47, 0x53, 0x41): kind = .gsa  // GSA
        case (0x47, 0x53, 0x56): kind = .gsv  // GSV
        case (0x5A, 0x44, 0x41): kind = .zda  // ZDA
        case (0x47, 0x53, 0x54): kind = .gst  // GST
        default:
            unsupportedSentences += 1
            return false
        }
        // The fields are read from a copy followed by commas: every field then ends at a comma, and
        // eight bytes can be loaded from wherever a field starts.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: body.count &+ FieldReader.padding) { copy in
            let start = copy.baseAddress!
            start.initialize(from: base, count: body.count)
            (start + body.count).initialize(repeating: 0x2C, count: FieldReader.padding)
            var fields = FieldReader(padded: start, count: body.count)
            guard fields.count >= kind.minimumFields else {
                shortSentences += 1
                return false
            }
            Self.decode(kind, talker: talker, fields: &fields, into: &sink, emit: emit)
            malformedFields += fields.malformed
            return true
        }
    }

    /// Decodes the fields of a sentence of a known kind into `sink`. Each reads its fields in
    /// increasing order (``FieldReader`` passes over the sentence once); a field read as a value is
    /// read only once.
    @inline(__always)
    private static func decode<Sink: NMEASentenceSink>(
        _ kind: Kind, talker: NMEATalker, fields reader: inout FieldReader, into sink: inout Sink,
        emit: (NMEAFixAssembler.Report) -> Void
    ) {
        switch kind {
        case .gga:
            let time = reader.time(1)
            let latitude = reader.coordinate(2, hemisphere: 3, degreeDigits: 2)
            let longitude = reader.coordinate(4, hemisphere: 5, degreeDigits: 3)
            let quality = reader.int(6), satellitesUsed = reader.int(7), hdop = reader.double(8), altitude = reader.double(9)
            sink.add(NMEASentence.GGA(
                talker: talker, time: time, latitude: latitude, longitude: longitude, quality: quality,
                satellitesUsed: satellitesUsed, hdop: hdop, altitude: altitude, geoidSeparation: reader.double(11)), emit: emit)
        case .rmc:
            let time = reader.time(1)
            let valid = reader.byte(2) == 0x41  // A
            let latitude = reader.coordinate(3, hemisphere: 4, degreeDigits: 2)
            let longitude = reader.coordinate(5, hemisphere: 6, degreeDigits: 3)
            let speed = reader.double(7).map { $0 * Self.metresPerSecondPerKnot }
            let track = reader.double(8), date = reader.date(9)
            var variation = reader.double(10)
            if let v = variation, reader.byte(11) == 0x57 { variation = -v }  // W
            sink.add(NMEASentence.RMC(
                talker: talker, time: time, valid: valid, latitude: latitude, longitude: longitude, speed: speed,
                track: track, date: date, magneticVariation: variation, modeIndicator: reader.byte(12)), emit: emit)
        case .gll:
            let latitude = reader.coordinate(1, hemisphere: 2, degreeDigits: 2)
            let longitude = reader.coordinate(3, hemisphere: 4, degreeDigits: 3)
            let time = reader.time(5)
            let valid = reader.count > 6 ? reader.byte(6) == 0x41 : true
            sink.add(NMEASentence.GLL(
                talker: talker, latitude: latitude, longitude: longitude, time: time, valid: valid, modeIndicator: reader.byte(7)),
                emit: emit)
        case .vtg:
            // NMEA 2.x: track,T,magnetic,M,knots,N,kph,K[,mode]; NMEA 1.x: track,magnetic,knots,kph.
            let track = reader.double(1)
            if reader.byte(2) == 0x54 || reader.count > 8 {  // 'T'
                let magneticTrack = reader.double(3), knots = reader.double(5), kph = reader.double(7)
                sink.add(NMEASentence.VTG(
                    talker: talker, track: track, magneticTrack: magneticTrack,
                    speed: knots.map { $0 * Self.metresPerSecondPerKnot } ?? kph.map { $0 / 3.6 }, modeIndicator: reader.byte(9)),
                    emit: emit)
            } else {
                let magneticTrack = reader.double(2)
                sink.add(NMEASentence.VTG(
                    talker: talker, track: track, magneticTrack: magneticTrack,
                    speed: reader.double(3).map { $0 * Self.metresPerSecondPerKnot }, modeIndicator: nil), emit: emit)
            }
        case .gsa:
            let fixType = reader.int(2)
            sink.beginGSA()
            for index in 3..<min(15, reader.count) {
                if let prn = reader.int(index) { sink.addUsedSatellite(prn) }
            }
            let pdop = reader.double(15), hdop = reader.double(16), vdop = reader.double(17)
            sink.endGSA(NMEASentence.GSA(
                talker: talker, fixType: fixType, satellitesUsed: [], pdop: pdop,
                hdop: hdop, vdop: vdop, systemID: reader.count > 18 ? reader.int(18) : nil), emit: emit)
        case .gsv:
            let messageCount = reader.int(1) ?? 0, messageNumber = reader.int(2) ?? 0, inView = reader.int(3)
            sink.beginGSV(NMEASentence.GSV(
                talker: talker, messageCount: messageCount, messageNumber: messageNumber,
                satellitesInView: inView, satellites: []))
            var index = 4
            while index + 3 < reader.count || (index < reader.count && !reader.isEmpty(index)) {
                if let prn = reader.int(index) {
                    let elevation = reader.double(index + 1), azimuth = reader.double(index + 2)
                    sink.addSatellite(NMEASatellite(prn: prn, elevation: elevation, azimuth: azimuth, snr: reader.double(index + 3)))
                }
                index += 4
            }
            sink.endGSV(emit: emit)
        case .zda:
            let time = reader.time(1)
            var date: NMEADate?
            if let day = reader.int(2), let month = reader.int(3), let year = reader.int(4),
                (1...31).contains(day), (1...12).contains(month), year >= 1980
            {
                date = NMEADate(year: year, month: month, day: day)
            }
            sink.add(NMEASentence.ZDA(talker: talker, time: time, date: date), emit: emit)
        case .gst:
            let time = reader.time(1), rms = reader.double(2)
            let latitudeError = reader.double(6), longitudeError = reader.double(7)
            sink.add(NMEASentence.GST(
                talker: talker, time: time, rms: rms, latitudeError: latitudeError,
                longitudeError: longitudeError, altitudeError: reader.double(8)), emit: emit)
        }
    }

    private enum Kind {
        case gga, rmc, gll, vtg, gsa, gsv, zda, gst

        var minimumFields: Int {
            switch self {
            case .gga: 10
            case .rmc: 10
            case .gll: 5
            case .vtg: 4
            case .gsa: 3
            case .gsv: 4
            case .zda: 5
            case .gst: 9
            }
        }
    }
}

/// Reads the comma-separated fields of one sentence body (field 0 is the address) in increasing
/// order, decoding each value as it passes over it: one pass over the sentence, no table of field
/// boundaries. A field may be looked at (``byte(_:)``, ``isEmpty(_:)``) any number of times before it
/// is read as a value; once read, only later fields can be. Counts the malformed fields it reads.
///
/// The body must be followed by ``padding`` commas: each field then ends at a comma without a check
/// for the body's end, and a number's digits are found and converted eight bytes at a time.
struct FieldReader {
    /// The commas that must follow the body: room for an eight-byte load at any field's start.
    static let padding = 16

    private let base: UnsafePointer<UInt8>
    /// The number of fields, at most ``NMEASentenceParser/maximumFields``; with more, the last one
    /// counted is empty and the rest are not read.
    let count: Int
    /// Whether the sentence has more fields than are read (so the last one counted is empty).
    private let cut: Bool
    /// The field `position` is the start of.
    private var index = 0
    private var position = 1
    /// Fields read that could not be decoded (treated as absent).
    var malformed = 0

    /// A reader of the `count` bytes at `base`, which are followed by ``padding`` commas.
    init(padded base: UnsafePointer<UInt8>, count end: Int) {
        self.base = base
        let commas = Self.commas(padded: base, from: 1, to: end)
        let lastField = NMEASentenceParser.maximumFields - 1
        count = min(commas, lastField) + 1
        cut = commas >= lastField
        if end > 6, base[6] == 0x2C {
            // A standard address, `$ttSSS`: field 1 starts after it.
            index = 1
            position = 7
        }
    }

    /// The number of commas in `base[from..<to]`, which is followed by padding commas, sixteen bytes
    /// at a time: each lane of a vector counts down once for every comma at its place (a comparison
    /// gives -1 for one), and the lanes are summed at the end, before any could wrap around (255
    /// loads); the last load's padding commas are taken off at the end.
    private static func commas(padded base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
        let commas = SIMD16<UInt8>(repeating: 0x2C)
        var found = 0
        var position = from
        while position < to {
            let blockEnd = min(to, position &+ 255 &* 16)
            var lanes = SIMD16<UInt8>()
            while position < blockEnd {
                let bytes = UnsafeRawPointer(base + position).loadUnaligned(as: SIMD16<UInt8>.self)
                lanes &-= unsafeBitCast(bytes .== commas, to: SIMD16<UInt8>.self)
                position &+= 16
            }
            let halves = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
            found &+= byteSum(halves[0]) &+ byteSum(halves[1])
        }
        return found &- (position &- to)
    }

    /// The sum of the eight bytes of `word`: added in pairs into 16-bit lanes (at most 510 each), then
    /// the four lanes by one multiplication, in the top lane.
    @inline(__always)
    private static func byteSum(_ word: UInt64) -> Int {
        let lanes: UInt64 = 0x00FF_00FF_00FF_00FF
        let pairs = (word & lanes) &+ ((word &>> 8) & lanes)
        return Int(truncatingIfNeeded: (pairs &* 0x0001_0001_0001_0001) &>> 48)
    }

    /// Moves to the start of `field` (not before the current one); false when the field is absent
    /// or empty by being cut.
    @inline(__always)
    private mutating func seek(_ field: Int) -> Bool {
        assert(field >= index, "fields are read in increasing order")
        guard field < count, !cut || field < NMEASentenceParser.maximumFields - 1 else { return false }
        while index < field {
            while base[position] != 0x2C { position &+= 1 }
            position &+= 1
            index &+= 1
        }
        return true
    }

    /// Ends the current field at `stop` (its comma): the next field is current.
    @inline(__always)
    private mutating func leaveField(at stop: Int) {
        position = stop &+ 1
        index &+= 1
    }

    /// Whether `field` is absent or empty.
    mutating func isEmpty(_ field: Int) -> Bool {
        byte(field) == nil
    }

    /// The first byte of `field`, or nil when it is absent or empty.
    mutating func byte(_ field: Int) -> UInt8? {
        guard seek(field), base[position] != 0x2C else { return nil }
        return base[position]
    }

    /// How many decimal digits the eight bytes at `at` start with (8 when all are), and their value
    /// when there are fewer than 8. The digits are found with a mask (a byte is flagged unless it is
    /// 0x30...0x39; no carries between bytes) and converted together: pairs, then fours, then eight.
    @inline(__always)
    private func digitRun(at offset: Int) -> (count: Int, value: UInt64) {
        let values = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self) ^ 0x3030_3030_3030_3030  // '0' is 0
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let notDigit = (((values & lows) &+ 0x7676_7676_7676_7676) | values) & 0x8080_8080_8080_8080
        let digits = notDigit.trailingZeroBitCount &>> 3
        guard digits > 0 else { return (0, 0) }
        // The digits moved to the top bytes, zeros (leading zeros of the number) below them.
        var value = values &<< UInt64(64 &- digits &* 8)
        value = value &* 10 &+ (value &>> 8)
        value = (((value & 0x0000_00FF_0000_00FF) &* (100 &+ (1_000_000 &<< 32)))
            &+ (((value &>> 16) & 0x0000_00FF_0000_00FF) &* (1 &+ (10_000 &<< 32)))) &>> 32
        return (digits, value)
    }

    /// A decimal number, digits without the point, and as its whole part and its fraction (`mantissa`
    /// is `whole` times 10^`scale` plus `fraction`); nil if absent; counts malformed. Inlined into each
    /// reader, so the results stay in registers and those a reader does not use are not computed.
    @inline(__always)
    private mutating func decimal(_ field: Int) -> DecimalValue? {
        guard seek(field) else { return nil }
        let fieldStart = position
        guard base[fieldStart] != 0x2C else {  // empty
            leaveField(at: fieldStart)
            return nil
        }
        var scan = position
        var negative = false
        if base[scan] == 0x2D || base[scan] == 0x2B {  // - +
            negative = base[scan] == 0x2D
            scan &+= 1
        }
        // Up to 7 integer digits, a point and up to 7 fraction digits: two loads. Anything else (a
        // longer number, a malformed field) is read a byte at a time.
        let (integerDigits, whole) = digitRun(at: scan)
        let stop = scan &+ integerDigits
        if integerDigits < 8, base[stop] == 0x2C {
            leaveField(at: stop)
            guard integerDigits > 0 else {  // a sign alone
                malformed &+= 1
                return nil
            }
            return DecimalValue(mantissa: whole, whole: whole, fraction: 0, scale: 0, integerDigits: integerDigits, negative: negative)
        }
        if integerDigits < 8, base[stop] == 0x2E {
            let (scale, fraction) = digitRun(at: stop &+ 1)
            let fractionStop = stop &+ 1 &+ scale
            if scale < 8, base[fractionStop] == 0x2C {
                leaveField(at: fractionStop)
                guard integerDigits &+ scale > 0 else {  // a point alone
                    malformed &+= 1
                    return nil
                }
                return DecimalValue(
                    mantissa: whole &* Self.powerOfTen(scale) &+ fraction, whole: whole, fraction: fraction, scale: scale,
                    integerDigits: integerDigits, negative: negative)
            }
        }
        guard let number = slowDecimal(from: scan, fieldStart: fieldStart, negative: negative) else { return nil }
        return DecimalValue(number)
    }

    /// A decimal field's value (see ``decimal(_:)``).
    private struct DecimalValue {
        /// All the digits, without the point.
        var mantissa: UInt64
        /// The digits before the point and those after it: `mantissa` is `whole` times 10^`scale`
        /// plus `fraction`.
        var whole: UInt64
        var fraction: UInt64
        /// How many digits follow the point.
        var scale: Int
        var integerDigits: Int
        var negative: Bool

        init(mantissa: UInt64, whole: UInt64, fraction: UInt64, scale: Int, integerDigits: Int, negative: Bool) {
            self.mantissa = mantissa
            self.whole = whole
            self.fraction = fraction
            self.scale = scale
            self.integerDigits = integerDigits
            self.negative = negative
        }

        /// The parts of a mantissa of up to 18 digits with `scale` of them after the point (the
        /// fields ``slowDecimal(from:fieldStart:negative:)`` reads); the division is off the fast path.
        @inline(never)
        init(_ number: (mantissa: UInt64, scale: Int, integerDigits: Int, negative: Bool)) {
            let unit = UInt64(FieldReader.scaleValue(number.scale))
            self.init(
                mantissa: number.mantissa, whole: number.mantissa / unit, fraction: number.mantissa % unit, scale: number.scale,
                integerDigits: number.integerDigits, negative: number.negative)
        }
    }

    /// 10^`exponent` for 0...7.
    @inline(__always)
    private static func powerOfTen(_ exponent: Int) -> UInt64 {
        switch exponent {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        default: 10_000_000
        }
    }

    /// ``decimal(_:)`` for any other field, a byte at a time from its digits (after the sign) at
    /// `digitsStart`: longer numbers, and fields that are malformed.
    @inline(never)
    private mutating func slowDecimal(
        from digitsStart: Int, fieldStart: Int, negative: Bool
    ) -> (mantissa: UInt64, scale: Int, integerDigits: Int, negative: Bool)? {
        var scan = digitsStart
        var mantissa: UInt64 = 0
        var point = -1
        while true {
            let digit = base[scan] &- 0x30
            if digit < 10 {
                mantissa = mantissa &* 10 &+ UInt64(digit)
            } else if digit == 0x2E &- 0x30, point < 0 {
                point = scan
            } else {
                break
            }
            scan &+= 1
        }
        if base[scan] != 0x2C {
            // Something else than a digit or a first point: skip the rest of the field.
            while base[scan] != 0x2C { scan &+= 1 }
            leaveField(at: scan)
            malformed &+= 1
            return nil
        }
        leaveField(at: scan)
        guard scan != fieldStart else { return nil }  // empty
        guard scan &- digitsStart <= 18 else {
            return Self.longDecimal(base, from: digitsStart, to: scan, negative: negative, malformed: &malformed)
        }
        // At most 18 digits, so none is dropped: the counts from where the point is.
        let integerDigits = point < 0 ? scan &- digitsStart : point &- digitsStart
        let scale = point < 0 ? 0 : scan &- point &- 1
        guard integerDigits &+ scale > 0 else {
            malformed &+= 1
            return nil
        }
        return (mantissa, scale, integerDigits, negative)
    }

    /// A decimal field of more than 18 characters (after its sign), valid ones only: the first 18
    /// digits are kept, later fraction digits dropped; more than 18 integer digits are malformed.
    @inline(never)
    private static func longDecimal(
        _ base: UnsafePointer<UInt8>, from: Int, to end: Int, negative: Bool, malformed: inout Int
    ) -> (mantissa: UInt64, scale: Int, integerDigits: Int, negative: Bool)? {
        var mantissa: UInt64 = 0
        var digits = 0, scale = 0, integerDigits = 0
        var seenPoint = false
        var position = from
        while position < end {
            let byte = base[position]
            if byte >= 0x30, byte <= 0x39 {
                if digits < 18 {
                    mantissa = mantissa * 10 + UInt64(byte - 0x30)
                    digits += 1
                    if seenPoint { scale += 1 } else { integerDigits += 1 }
                } else if !seenPoint {
                    malformed += 1
                    return nil
                }
            } else {
                seenPoint = true  // the first pass let through digits and one point only
            }
            position += 1
        }
        guard digits > 0 else {
            malformed += 1
            return nil
        }
        return (mantissa, scale, integerDigits, negative)
    }

    /// 10^`scale` for a decimal's scale (0...18, as ``decimal(_:)`` gives): a table lookup, where
    /// ``exactPowerOfTen(_:)``, which checks its range, compiles to a jump.
    @inline(__always)
    private static func scaleValue(_ scale: Int) -> Double {
        switch scale {
        case 0: 1
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        default: 1e18
        }
    }

    @inline(__always)
    mutating func double(_ index: Int) -> Double? {
        guard let number = decimal(index) else { return nil }
        let value = Double(number.mantissa) / Self.scaleValue(number.scale)
        return number.negative ? -value : value
    }

    @inline(__always)
    mutating func int(_ index: Int) -> Int? {
        guard let number = decimal(index) else { return nil }
        if number.scale == 0 {
            let whole = Int(number.mantissa)
            return number.negative ? -whole : whole
        }
        let unit = UInt64(Self.scaleValue(number.scale))
        guard number.mantissa % unit == 0 else {
            malformed &+= 1
            return nil
        }
        let whole = Int(number.mantissa / unit)
        return number.negative ? -whole : whole
    }

    /// `ddmm.mmmm` (latitude, 2 degree digits) or `dddmm.mmmm` (longitude, 3) with its hemisphere field.
    mutating func coordinate(_ index: Int, hemisphere: Int, degreeDigits: Int) -> Double? {
        guard let number = decimal(index) else { return nil }
        guard !number.negative else {
            malformed += 1
            return nil
        }
        // The whole degrees are the whole part's digits before its last two, and the minutes, in
        // units of the last decimal, the rest of the mantissa: (whole mod 100) times 10^scale plus the
        // fraction, below the mantissa's 10^18.
        let wholeDegrees = number.whole / 100
        let minuteUnits = (number.whole % 100) &* UInt64(Self.scaleValue(number.scale)) &+ number.fraction
        let minutes = Double(minuteUnits) / Self.scaleValue(number.scale)
        guard minutes < 60, wholeDegrees <= (degreeDigits == 2 ? 90 : 180) else {
            malformed += 1
            return nil
        }
        var degrees = Double(wholeDegrees) + minutes / 60
        switch byte(hemisphere) {
        case 0x53, 0x57: degrees = -degrees  // S, W
        case 0x4E, 0x45: break  // N, E
        case nil: return nil
        default:
            malformed += 1
            return nil
        }
        return degrees
    }

    /// `hhmmss` or `hhmmss.sss`.
    mutating func time(_ index: Int) -> NMEATimeOfDay? {
        guard let number = decimal(index) else { return nil }
        let whole = number.whole
        let hour = whole / 10_000, minute = whole / 100 % 100, second = whole % 100
        guard !number.negative, number.integerDigits == 6, hour < 24, minute < 60, second <= 60 else {
            malformed += 1
            return nil
        }
        let nanos = Int64(Double(number.fraction) / Self.scaleValue(number.scale) * 1e9 + 0.5)
        return NMEATimeOfDay(hour: Int(hour), minute: Int(minute), second: Int(second), nanosecond: Int(nanos))
    }

    /// `ddmmyy`; two-digit years are ``NMEADate/twoDigitYears`` (1980–2079).
    mutating func date(_ index: Int) -> NMEADate? {
        guard let number = decimal(index) else { return nil }
        let mantissa = number.mantissa
        let day = Int(mantissa / 10_000), month = Int(mantissa / 100 % 100), yy = Int(mantissa % 100)
        guard number.scale == 0, number.integerDigits == 6, (1...31).contains(day), (1...12).contains(month) else {
            malformed += 1
            return nil
        }
        // The pivot of NMEADate.twoDigitYears (its tests hold the two together).
        return NMEADate(year: yy < 80 ? 2000 + yy : 1900 + yy, month: month, day: day)
    }
}
