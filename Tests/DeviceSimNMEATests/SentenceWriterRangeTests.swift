import DeviceSimNMEA
import Testing

/// A value no receiver sends leaves its field empty (unknown), never `null` or `inf` (issue 37).
@Suite struct SentenceWriterRangeTests {
    @Test func aSpeedPastABillionLeavesTheSpeedFieldsEmpty() {
        var fix = NMEAFix()
        fix.setTime(unixNanoseconds: 1_767_225_600_000_000_000)
        fix.mode = 3
        fix.latitude = 52.5
        fix.longitude = 13.4
        fix.speed = 1e308
        fix.track = .infinity
        let rmc = NMEASentenceWriter.rmc(fix)
        #expect(!rmc.contains("null") && !rmc.contains("inf"), "\(rmc)")
        #expect(rmc.hasPrefix("$GPRMC,000000.00,A,5230.000000,N,01324.000000,E,,,010126,,,A*"), "\(rmc)")
        let vtg = NMEASentenceWriter.vtg(fix)
        #expect(vtg.hasPrefix("$GPVTG,,T,,M,,N,,K,A*"), "\(vtg)")
    }
}

/// RMC's two-digit year: the years a log may be dated (`nmea export --start`, `serve --start-time`)
/// are those this decoder and gpsd both read back as written (2100 decoded as 2000, 1970 as 2070).
@Suite struct TwoDigitYearTests {
    /// The year an RMC written for `year` (on 1 March, noon) decodes as.
    func readBack(_ year: Int) -> Int? {
        var fix = NMEAFix()
        let day = NMEADate(year: year, month: 3, day: 1).daysSince1970
        fix.setTime(unixNanoseconds: (day * 86_400 + 43_200) * 1_000_000_000)
        fix.mode = 3
        fix.latitude = 52.5
        fix.longitude = 13.4
        var body = NMEASentenceWriter.rmc(fix)
        body = String(body[..<body.firstIndex(of: "*")!])
        var parser = NMEASentenceParser()
        let sentence = Array(body.utf8).withUnsafeBytes { parser.parse($0) }
        guard case .rmc(let rmc)? = sentence else { return nil }
        return rmc.date?.year
    }

    @Test func everyYearTheLogsMayBeDatedReadsBackAsWritten() {
        for year in NMEADate.yearsReadBack { #expect(readBack(year) == year) }
        #expect(NMEADate.twoDigitYears.contains(NMEADate.yearsReadBack.lowerBound) && NMEADate.twoDigitYears.contains(NMEADate.yearsReadBack.upperBound))
    }

    @Test func theDecodersCenturyPivotIsTheOneItDeclares() {
        for year in NMEADate.twoDigitYears { #expect(readBack(year) == year) }
        // Just outside: the same two digits, a century apart.
        #expect(readBack(NMEADate.twoDigitYears.upperBound + 1) == NMEADate.twoDigitYears.lowerBound)
        #expect(readBack(NMEADate.twoDigitYears.lowerBound - 1) == NMEADate.twoDigitYears.upperBound)
        #expect(readBack(2100) == 2000 && readBack(2099) == 1999 && readBack(1970) == 2070)
    }

    @Test func theInstantsReadBackRunFrom2000ToTheEndOf2079() {
        #expect(NMEADate.unixSecondsReadBack.lowerBound == 946_684_800)   // 2000-01-01T00:00:00Z
        #expect(NMEADate.unixSecondsReadBack.upperBound == 3_471_292_800)  // 2080-01-01T00:00:00Z
        #expect(NMEADate.yearsReadBackText == "2000-01-01T00:00:00Z to 2079-12-31T23:59:59Z")
    }
}
