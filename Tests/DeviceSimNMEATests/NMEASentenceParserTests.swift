import DeviceSimNMEA
import Testing

@Suite struct NMEASentenceParserTests {
    func parse(_ line: String, maximumLength: Int = 256) -> (NMEASentence?, NMEASentenceParser) {
        var framer = NMEAFramer(maximumLength: maximumLength)
        var parser = NMEASentenceParser()
        var sentence: NMEASentence?
        Array((line + "\r\n").utf8).withUnsafeBytes { framer.feed($0) { sentence = parser.parse($0) } }
        return (sentence, parser)
    }

    func line(_ body: String) -> String { NMEASentenceWriter.sentence(body).trimmingCharacters(in: .newlines) }

    @Test func ggaFieldsDecodeExactly() throws {
        guard case .gga(let gga)? = parse("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47").0 else {
            Issue.record("not a GGA")
            return
        }
        #expect(gga.talker.description == "GP")
        #expect(gga.time == NMEATimeOfDay(hour: 12, minute: 35, second: 19))
        #expect(gga.latitude == 48 + 7.038 / 60)
        #expect(gga.longitude == 11 + 31.0 / 60)
        #expect(gga.quality == 1)
        #expect(gga.satellitesUsed == 8)
        #expect(gga.hdop == 0.9)
        #expect(gga.altitude == 545.4)
        #expect(gga.geoidSeparation == 46.9)
    }

    /// Found by a 30-minute fuzz run: 18 decimals and no integer digits overflowed the minutes' unit
    /// (a trap) instead of reading as a fraction of a minute.
    @Test func aCoordinateWithEighteenDecimalsIsAFractionOfAMinute() throws {
        guard case .gga(let gga)? = parse(line("GPGGA,123519,.000000000000000001,N,.500000000000000000,E,1,08,0.9,545.4,M,46.9,M,,")).0 else {
            Issue.record("not a GGA")
            return
        }
        #expect(gga.latitude == 1e-18 / 60)
        #expect(gga.longitude == 0.5 / 60)
    }

    @Test func southAndWestAreNegativeAndEmptyFieldsAreAbsentNotZero() throws {
        guard case .gga(let gga)? = parse(line("GNGGA,000001.50,3345.1234,S,07030.5000,W,1,,,,M,,M,,")).0 else {
            Issue.record("not a GGA")
            return
        }
        #expect(gga.latitude == -(33 + 45.1234 / 60))
        #expect(gga.longitude == -(70 + 30.5 / 60))
        #expect(gga.time == NMEATimeOfDay(nanoseconds: 1_500_000_000))
        #expect(gga.satellitesUsed == nil)
        #expect(gga.hdop == nil)
        #expect(gga.altitude == nil)
    }

    @Test func rmcSpeedIsInMetresPerSecondAndTheDateIsRead() {
        guard case .rmc(let rmc)? = parse("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A").0 else {
            Issue.record("not an RMC")
            return
        }
        #expect(rmc.valid)
        #expect(abs((rmc.speed ?? 0) - 22.4 * 1852 / 3600) < 1e-12)
        #expect(rmc.track == 84.4)
        #expect(rmc.date == NMEADate(year: 1994, month: 3, day: 23))
        #expect(rmc.magneticVariation == -3.1)
    }

    @Test func gsvListsSatellitesAndGsaTheUsedOnes() {
        guard case .gsv(let gsv)? = parse(line("GPGSV,3,3,10,24,06,166,35,28,09,271,")).0 else {
            Issue.record("not a GSV")
            return
        }
        #expect(gsv.messageCount == 3 && gsv.messageNumber == 3 && gsv.satellitesInView == 10)
        #expect(gsv.satellites.map(\.prn) == [24, 28])
        #expect(gsv.satellites[1].snr == nil)
        guard case .gsa(let gsa)? = parse("$GPGSA,A,3,03,07,08,11,13,16,19,23,24,28,,,3.6,2.0,3.0*3A").0 else {
            Issue.record("not a GSA")
            return
        }
        #expect(gsa.fixType == 3)
        #expect(gsa.satellitesUsed == [3, 7, 8, 11, 13, 16, 19, 23, 24, 28])
        #expect(gsa.pdop == 3.6 && gsa.hdop == 2.0 && gsa.vdop == 3.0)
    }

    @Test func satelliteListsKeptFromEarlierSentencesStayAsTheyWere() {
        // The parser reuses its list storage for the next GSA or GSV: a sentence the caller kept must
        // not see the next one's satellites.
        var framer = NMEAFramer()
        var parser = NMEASentenceParser()
        var sentences: [NMEASentence] = []
        let input = [
            line("GPGSV,2,1,08,01,40,083,46,02,17,308,41,12,07,344,39,14,22,228,45"),
            line("GPGSV,2,2,08,15,10,050,30,18,55,120,44"),
            line("GPGSA,A,3,01,02,12,,,,,,,,,,2.5,1.3,2.1"),
            line("GPGSA,A,3,14,15,,,,,,,,,,,2.6,1.4,2.2"),
        ].map { $0 + "\r\n" }.joined()
        Array(input.utf8).withUnsafeBytes { framer.feed($0) { body in parser.parse(body) { sentences.append($0) } } }
        #expect(sentences.count == 4)
        guard sentences.count == 4, case .gsv(let first) = sentences[0], case .gsv(let second) = sentences[1],
            case .gsa(let firstUsed) = sentences[2], case .gsa(let secondUsed) = sentences[3]
        else {
            Issue.record("not two GSV and two GSA sentences: \(sentences)")
            return
        }
        #expect(first.satellites.map(\.prn) == [1, 2, 12, 14])
        #expect(second.satellites.map(\.prn) == [15, 18])
        #expect(firstUsed.satellitesUsed == [1, 2, 12])
        #expect(secondUsed.satellitesUsed == [14, 15])
    }

    @Test func gsvFieldsAreFoundWhereverTheCommasFallAndAtMost64AreRead() {
        // Satellites whose numbers take one to three digits move every later comma to another place in
        // its eight-byte word; 20 satellites make 84 fields, of which the first 64 are read (the 64th,
        // where the cut falls, is read as empty).
        for width in 1...3 {
            let satellites = (1...20).map { String(repeating: "1", count: width - 1) + String($0 % 10) }
            let body = "GPGSV,1,1,20," + satellites.map { "\($0),45,180,3\($0.suffix(1))" }.joined(separator: ",")
            guard case .gsv(let gsv)? = parse(line(body), maximumLength: 1_024).0 else {
                Issue.record("not a GSV")
                continue
            }
            #expect(gsv.satellites.map(\.prn) == satellites.prefix(15).map { Int($0)! }, "width \(width)")
            #expect(gsv.satellites.dropLast().allSatisfy { $0.elevation == 45 && $0.azimuth == 180 && $0.snr != nil })
            #expect(gsv.satellites.last?.snr == nil)
        }
    }

    /// Commas are counted sixteen bytes at a time in byte-sized counters, summed before they could
    /// wrap: sentences far longer than 255 such loads count their fields right.
    @Test func fieldsOfVeryLongSentencesAreCountedRight() {
        for commas in [4_079, 4_080, 4_081, 8_192, 20_000] {
            // Only commas after the address: every byte counter sees more than 255 of them.
            let (empty, emptyParser) = parse(line("GPGGA" + String(repeating: ",", count: commas)), maximumLength: 1 << 20)
            guard case .gga(let gga)? = empty else {
                Issue.record("\(commas) commas: not a GGA")
                continue
            }
            #expect(gga.time == nil && gga.latitude == nil && gga.quality == nil, "\(commas) commas")
            #expect(emptyParser.shortSentences == 0)
            // Long, but with too few fields for a GGA.
            let (short, shortParser) = parse(line("GPGGA,123519," + String(repeating: "7", count: commas) + ",1"), maximumLength: 1 << 20)
            #expect(short == nil, "\(commas) digits")
            #expect(shortParser.shortSentences == 1)
        }
    }

    @Test func vtgInBothFormats() {
        guard case .vtg(let modern)? = parse(line("GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,A")).0,
            case .vtg(let old)? = parse(line("GPVTG,054.7,034.4,005.5,010.2")).0
        else {
            Issue.record("not VTG")
            return
        }
        #expect(modern.track == 54.7 && old.track == 54.7)
        #expect(modern.speed == old.speed)
        #expect(abs((modern.speed ?? 0) - 5.5 * 1852 / 3600) < 1e-12)
    }

    @Test func zdaAndGstAndGll() {
        guard case .zda(let zda)? = parse(line("GPZDA,183531.00,23,12,2007,00,00")).0 else { Issue.record("not ZDA"); return }
        #expect(zda.date == NMEADate(year: 2007, month: 12, day: 23))
        guard case .gst(let gst)? = parse(line("GPGST,172814.0,0.006,0.023,0.020,273.6,0.023,0.020,0.031")).0 else { Issue.record("not GST"); return }
        #expect(gst.latitudeError == 0.023 && gst.longitudeError == 0.020 && gst.altitudeError == 0.031)
        guard case .gll(let gll)? = parse(line("GPGLL,4916.45,N,12311.12,W,225444,A,A")).0 else { Issue.record("not GLL"); return }
        #expect(gll.valid && gll.latitude == 49 + 16.45 / 60)
    }

    @Test func malformedFieldsAreAbsentAndCounted() {
        let (sentence, parser) = parse(line("GPGGA,123519,48O7.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"))
        guard case .gga(let gga)? = sentence else { Issue.record("not a GGA"); return }
        #expect(gga.latitude == nil)
        #expect(gga.longitude == 11 + 31.0 / 60)
        #expect(parser.malformedFields == 1)
    }

    /// Numbers are read eight bytes at a time when they have at most 7 digits on each side of the
    /// point, a byte at a time otherwise: every shape, at every offset from the sentence's start and
    /// end, reads as Swift's own `Double` parsing reads it, and whole-number fields as whole numbers.
    @Test func numberFieldsOfEveryShapeReadAsSwiftReadsThem() {
        var random = JSONNumberTests.Generator(state: 0x4E4D_4541)
        func digits(_ count: Int) -> String { String((0..<count).map { _ in "0123456789".randomElement(using: &random)! }) }
        for _ in 0..<20_000 {
            var text = ["", "", "-", "+"].randomElement(using: &random)! + digits(Int.random(in: 0...10, using: &random))
            if Bool.random(using: &random) { text += "." + digits(Int.random(in: 0...10, using: &random)) }
            if Int.random(in: 0..<8, using: &random) == 0 {
                // Something that does not belong in a number, anywhere in it.
                let junk = ["O", ".", "-", " ", "e"].randomElement(using: &random)!
                let offset = text.index(text.startIndex, offsetBy: Int.random(in: 0...text.count, using: &random))
                text.insert(contentsOf: junk, at: offset)
            }
            let digitCount = text.filter(\.isWholeNumber).count
            let wellFormed = text.wholeMatch(of: /[-+]?[0-9]*\.?[0-9]*/) != nil && digitCount > 0
            // The number as the satellites-used count (a whole number), as HDOP, and last in the
            // sentence (the geoid separation), after a field of 0 to 7 bytes that is not read (the
            // latitude's hemisphere, with no latitude).
            let padding = String(repeating: "N", count: Int.random(in: 0...7, using: &random))
            let (sentence, parser) = parse(line("GPGGA,,,\(padding),,,1,\(text),\(text),545.4,M,\(text)"))
            guard case .gga(let gga)? = sentence else {
                Issue.record("not a GGA: \(text)")
                continue
            }
            if text.isEmpty {
                #expect(gga.hdop == nil && gga.satellitesUsed == nil && parser.malformedFields == 0)
            } else if !wellFormed {
                #expect(gga.hdop == nil && gga.satellitesUsed == nil, "\(text)")
                #expect(parser.malformedFields == 3, "\(text)")
            } else {
                let whole = text.split(separator: ".", omittingEmptySubsequences: false)
                let fractionIsZero = whole.count == 1 || whole[1].allSatisfy { $0 == "0" }
                if digitCount <= 15 {
                    // Exact mantissa and power of ten: one rounding, as Swift's parser rounds.
                    #expect(gga.hdop == Double(text), "\(text)")
                    let expected = Double(text).flatMap { fractionIsZero ? Int(exactly: $0) : nil }
                    #expect(gga.satellitesUsed == expected, "\(text)")
                } else {
                    #expect(gga.hdop != nil, "\(text)")
                }
                #expect(parser.malformedFields == (fractionIsZero ? 0 : 1), "\(text)")
            }
        }
    }

    /// Coordinates and times are read from a number's whole part and fraction as the eight-byte path
    /// finds them (up to 7 digits each side of the point), or split from the digits the byte-at-a-time
    /// path reads: with 0 to 9 whole digits and 0 to 9 decimals, each reads as the arithmetic on its
    /// digits gives it (degrees plus minutes over 60; hours, minutes, seconds and rounded nanoseconds).
    @Test func coordinatesAndTimesOfEveryShapeReadAsTheirDigitsSay() {
        var random = JSONNumberTests.Generator(state: 0x434F_4F52)
        func digits(_ count: Int) -> String { String((0..<count).map { _ in "0123456789".randomElement(using: &random)! }) }
        func powerOfTen(_ exponent: Int) -> Double { Double("1e\(exponent)")! }
        for _ in 0..<20_000 {
            let wholeDigits = digits(Int.random(in: 0...9, using: &random))
            let fractionDigits = Int.random(in: 0..<4, using: &random) == 0 ? nil : digits(Int.random(in: 0...9, using: &random))
            let text = wholeDigits + (fractionDigits.map { "." + $0 } ?? "")
            let fraction = fractionDigits ?? ""
            let scale = fraction.count
            let wellFormed = !(wholeDigits + fraction).isEmpty
            let hemisphere = ["N", "S"].randomElement(using: &random)!
            let (sentence, _) = parse(line("GPGGA,\(text),\(text),\(hemisphere),\(text),E,1,08,0.9,545.4,M,46.9,M,,"))
            guard case .gga(let gga)? = sentence else {
                Issue.record("not a GGA: \(text)")
                continue
            }
            // The coordinate: the whole digits before the last two are degrees, the rest minutes.
            func coordinate(maximumDegrees: UInt64) -> Double? {
                guard wellFormed else { return nil }
                let degrees = UInt64(wholeDigits.dropLast(2)) ?? 0
                let minuteUnits = UInt64(String(wholeDigits.suffix(2)) + fraction) ?? 0
                let minutes = Double(minuteUnits) / powerOfTen(scale)
                guard minutes < 60, degrees <= maximumDegrees else { return nil }
                return Double(degrees) + minutes / 60
            }
            let latitude = coordinate(maximumDegrees: 90).map { hemisphere == "S" ? -$0 : $0 }
            #expect(gga.latitude == latitude, "\(text)")
            #expect(gga.longitude == coordinate(maximumDegrees: 180), "\(text)")
            // The time: exactly six whole digits.
            var time: NMEATimeOfDay?
            if wholeDigits.count == 6, let clock = Int(wholeDigits) {
                let hour = clock / 10_000, minute = clock / 100 % 100, second = clock % 100
                if hour < 24, minute < 60, second <= 60 {
                    let nanoseconds = Int64(Double(UInt64(fraction) ?? 0) / powerOfTen(scale) * 1e9 + 0.5)
                    time = NMEATimeOfDay(hour: hour, minute: minute, second: second, nanosecond: Int(nanoseconds))
                }
            }
            #expect(gga.time == time, "\(text)")
        }
    }

    @Test func otherSentencesAreRecognisedAndSkipped() {
        let (sentence, parser) = parse("$PGRME,15.0,M,45.0,M,25.0,M*1C")
        #expect(sentence == nil)
        #expect(parser.unsupportedSentences == 1)
        let (ais, aisParser) = parse("!AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0*26")
        #expect(ais == nil && aisParser.unsupportedSentences == 1)
    }

    @Test func theWriterProducesWhatTheParserReads() {
        var fix = NMEAFix()
        fix.setTime(unixNanoseconds: 1_767_225_600_250_000_000)  // 2026-01-01T00:00:00.25Z
        fix.mode = 3
        fix.quality = 1
        fix.latitude = -33.8567844
        fix.longitude = 151.2152967
        fix.altitudeMSL = 12.5
        fix.speed = 1.4
        fix.track = 271.5
        var decoder = NMEADecoder()
        var fixes: [NMEAFix] = []
        Array(NMEASentenceWriter.epoch(fix).utf8).withUnsafeBytes { decoder.feed($0) { if case .fix(let f) = $0 { fixes.append(f) } } }
        decoder.finish { if case .fix(let f) = $0 { fixes.append(f) } }
        #expect(fixes.count == 1)
        let decoded = fixes.first
        #expect(decoded?.isoTime == "2026-01-01T00:00:00.250Z")
        #expect(abs((decoded?.latitude ?? 0) - fix.latitude!) < 1e-7)
        #expect(abs((decoded?.longitude ?? 0) - fix.longitude!) < 1e-7)
        #expect(decoded?.mode == 3)
        #expect(abs((decoded?.speed ?? 0) - 1.4) < 0.01)
        #expect(decoder.statistics.badChecksumSentences == 0)
    }
}
