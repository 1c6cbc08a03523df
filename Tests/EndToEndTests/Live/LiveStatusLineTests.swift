#if canImport(DeviceSimGPSD)
@testable import DeviceSimCLI
import DeviceSimGPSD
import Testing

/// The live status line in a narrow terminal: the fix stays in view, a pending prompt shortens before
/// it could push the fix out, and parts are left out whole (issue 36, item 9).
@Suite struct LiveStatusLineTests {
    let parts = [
        LiveStatusLine.Part("3D fix", 0),
        LiveStatusLine.Part("answer inform-group: 1) friends  2) no (57 s left)", 4, shortForm: "answer inform-group (57 s left)"),
        LiveStatusLine.Part("34.032942 N 117.747123 W", 1),
        LiveStatusLine.Part("fix 0.4 s ago", 2),
        LiveStatusLine.Part("sats 10/11", 3),
        LiveStatusLine.Part("HDOP 0.9", 5),
        LiveStatusLine.Part("8 events", 6),
    ]

    @Test func wideEverythingShows() {
        #expect(LiveStatusLine.fit(parts, width: 200)
            == "3D fix | answer inform-group: 1) friends  2) no (57 s left) | 34.032942 N 117.747123 W | fix 0.4 s ago | sats 10/11 | HDOP 0.9 | 8 events")
    }

    @Test func at80ColumnsThePromptShortensAndTheFixAndPositionStay() {
        let line = LiveStatusLine.fit(parts, width: 79)
        #expect(line == "3D fix | answer inform-group (57 s left) | 34.032942 N 117.747123 W", "\(line)")
        #expect(line.count <= 79)
    }

    @Test func withoutAPromptTheFixComesFirstAndLessUsefulPartsGoFirst() {
        let line = LiveStatusLine.fit(parts.filter { !$0.text.hasPrefix("answer") }, width: 60)
        #expect(line == "3D fix | 34.032942 N 117.747123 W | fix 0.4 s ago", "\(line)")
    }

    @Test func onlyAFixWiderThanTheTerminalIsCut() {
        #expect(LiveStatusLine.fit([LiveStatusLine.Part("no gpsd at 127.0.0.1:2947 (retrying)", 0), LiveStatusLine.Part("8 events", 6)], width: 20) == "no gpsd at 127.0.0.…")
    }
}
#endif
