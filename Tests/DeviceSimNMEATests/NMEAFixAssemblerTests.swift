import DeviceSimNMEA
import Testing

@Suite struct NMEAFixAssemblerTests {
    func decode(_ lines: [String]) -> [NMEAFixAssembler.Report] {
        var decoder = NMEADecoder()
        var reports: [NMEAFixAssembler.Report] = []
        let text = lines.map { NMEASentenceWriter.sentence($0) }.joined()
        Array(text.utf8).withUnsafeBytes { decoder.feed($0) { reports.append($0) } }
        decoder.finish { reports.append($0) }
        return reports
    }

    var fixes: (([NMEAFixAssembler.Report]) -> [NMEAFix]) {
        { $0.compactMap { if case .fix(let fix) = $0 { fix } else { nil } } }
    }

    @Test func sentencesOfOneTimeMergeIntoOneFix() {
        let reports = decode([
            "GPGGA,120000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
            "GPGSA,A,3,03,07,08,,,,,,,,,,1.6,0.9,1.3",
            "GPRMC,120000,A,4807.038,N,01131.000,E,010.0,090.0,010526,,,A",
            "GPGGA,120001,4807.040,N,01131.000,E,1,08,0.9,545.6,M,46.9,M,,",
            "GPRMC,120001,A,4807.040,N,01131.000,E,010.0,090.0,010526,,,A",
        ])
        let fixes = fixes(reports)
        #expect(fixes.count == 2)
        #expect(fixes[0].isoTime == "2026-05-01T12:00:00.000Z")
        #expect(fixes[0].mode == 3)
        #expect(fixes[0].altitudeMSL == 545.4)
        #expect(fixes[0].vdop == 1.3)
        #expect(abs((fixes[0].speed ?? 0) - 10 * 1852 / 3600) < 1e-9)
        #expect(fixes[1].altitudeMSL == 545.6)
        #expect(fixes[1].latitude == 48 + 7.04 / 60)
    }

    @Test func logsWithoutADateStillGiveFixes() {
        let fixes = fixes(decode([
            "GPGGA,235959,0100.000,N,00100.000,E,1,05,1.0,10.0,M,0.0,M,,",
            "GPGGA,000000,0100.000,N,00100.000,E,1,05,1.0,10.0,M,0.0,M,,",
        ]))
        #expect(fixes.count == 2)
        #expect(fixes.allSatisfy { $0.hasPosition && $0.isoTime == nil })
        #expect(fixes[1].timeOfDay == NMEATimeOfDay(nanoseconds: 0))
    }

    @Test func theDateRollsOverAtMidnight() {
        let fixes = fixes(decode([
            "GPRMC,235959,A,0100.000,N,00100.000,E,0.0,0.0,311226,,,A",
            "GPGGA,000000,0100.000,N,00100.000,E,1,05,1.0,10.0,M,0.0,M,,",
        ]))
        #expect(fixes.map(\.isoTime) == ["2026-12-31T23:59:59.000Z", "2027-01-01T00:00:00.000Z"])
    }

    @Test func aVoidRMCMeansNoFix() {
        let fixes = fixes(decode(["GPRMC,120000,V,,,,,,,010526,,,N"]))
        #expect(fixes.count == 1)
        #expect(fixes[0].mode == 1)
        #expect(!fixes[0].hasPosition)
    }

    @Test func aGSVSeriesMakesOneSkyViewMarkingUsedSatellites() {
        let reports = decode([
            "GPGSA,A,3,03,07,,,,,,,,,,,2.0,1.0,1.7",
            "GPGSV,2,1,05,03,41,050,46,07,60,317,49,08,34,315,45,11,35,148,45",
            "GPGSV,2,2,05,13,38,213,",
        ])
        let skies = reports.compactMap { if case .sky(let sky) = $0 { sky } else { nil } }
        #expect(skies.count == 1)
        #expect(skies[0].satellites.map(\.prn) == [3, 7, 8, 11, 13])
        #expect(skies[0].satellites.map(\.used) == [true, true, false, false, false])
        #expect(skies[0].satellites[4].snr == nil)
    }

    @Test func datesConvertBothWays() {
        for days: Int64 in [-1, 0, 11_016, 20_454, 47_482] {
            #expect(NMEADate(daysSince1970: days).daysSince1970 == days)
        }
        #expect(NMEADate(daysSince1970: 20_454) == NMEADate(year: 2026, month: 1, day: 1))
    }
}
