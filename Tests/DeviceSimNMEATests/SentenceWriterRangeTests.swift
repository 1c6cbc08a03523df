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
