import DeviceSimHAL
import DeviceSimTime
import Foundation
import Testing

@Suite struct CivilClockTests {
    /// 2026-03-29T00:30:00Z: 01:30 in Berlin, half an hour before the clocks go forward.
    let beforeSpringForward = Date(timeIntervalSince1970: 1_774_744_200)

    @Test func localTimeFollowsTheZoneAcrossTheDaylightSavingChange() throws {
        let clock = try CivilClock(startDate: beforeSpringForward, timeZone: "Europe/Berlin")
        #expect(clock.time(at: .zero).timestamp == "2026-03-29T01:30:00+01:00")
        #expect(clock.time(at: VirtualInstant(offset: .seconds(3600))).timestamp == "2026-03-29T03:30:00+02:00")
        let newYork = try CivilClock(startDate: beforeSpringForward, timeZone: "America/New_York")
        #expect(newYork.time(at: .zero).dayText == "2026-03-28")
        #expect(CivilClock.default.time(at: .zero).timestamp == "2026-01-01T00:00:00+00:00")
    }

    @Test func anUnknownZoneIsRefusedWithAnExample() {
        #expect(throws: CivilClockError.unknownTimeZone("Mars/Olympus")) { try CivilClock(startDate: beforeSpringForward, timeZone: "Mars/Olympus") }
        #expect(CivilClockError.unknownTimeZone("Mars/Olympus").description.contains("Europe/Berlin"))
    }
}
