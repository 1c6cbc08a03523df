import DeviceSimGPSD
import Foundation
import Testing

/// The words `live` and `record` show when a problem with gpsd or the receiver starts and ends, from
/// scripted reader events at chosen instants (no gpsd needed).
@Suite struct GPSDStatusTests {
    let endpoint = GPSDEndpoint(host: "127.0.0.1", port: 4000)
    let start = ContinuousClock.now

    func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1000)) }

    func fix(_ mode: Int, satellites: Int? = 7) -> GPSDReader.Event {
        let position = mode >= 2
        return .fix(
            GPSDFix(mode: mode, latitude: position ? 52.5 : nil, longitude: position ? 13.3 : nil, satellitesUsed: satellites, hdop: 0.9),
            device: "/dev/ttyACM0", receivedAt: .now)
    }

    static let version = "{\"class\":\"VERSION\",\"release\":\"3.22\",\"rev\":\"3.22\",\"proto_major\":3,\"proto_minor\":14}"

    var refused: GPSDReader.Event { .connectFailed(.cannotConnect(endpoint, reason: "can't connect to host/port pair"), retryIn: .milliseconds(250)) }

    /// Every change's kind and words.
    func words(_ changes: [GPSDStatusChange]) -> [String] {
        changes.map { change in
            switch change.kind {
            case .started: "started: " + change.description
            case .ended: "ended: " + change.description
            case .notice: "notice: " + change.description
            }
        }
    }

    @Test func gpsdMissingIsSaidOnceThenItsEndWhenGpsdAnswers() {
        var status = GPSDStatus(endpoint: endpoint)
        let first = words(status.observe(refused, at: at(0)))
        #expect(first.count == 1)
        #expect(first[0].hasPrefix("started: cannot connect to gpsd at 127.0.0.1:4000"))
        #expect(first[0].contains("Is gpsd running?"))
        #expect(first[0].hasSuffix("; retrying"))
        #expect(status.observe(refused, at: at(0.25)).isEmpty, "retries of the same problem are not repeated")
        #expect(status.check(at: at(3)).isEmpty)
        #expect(status.observe(.connected(endpoint), at: at(4)).isEmpty, "not back until gpsd speaks")
        #expect(status.check(at: at(20)).isEmpty, "a silent connection is no news")
        #expect(words(status.observe(.line(Self.version), at: at(20.1))) == ["ended: connected to gpsd at 127.0.0.1:4000"])
        #expect(status.problem == nil)
    }

    @Test func gpsdWithoutReceiverIsSaidFromItsDeviceListOrItsSilence() {
        var listed = GPSDStatus(endpoint: endpoint)
        _ = listed.observe(.connected(endpoint), at: at(0))
        let empty = words(listed.observe(.line("{\"class\":\"DEVICES\",\"devices\":[]}"), at: at(0.1)))
        #expect(empty.count == 1)
        #expect(empty[0].hasPrefix("started: gpsd at 127.0.0.1:4000 answers, but no receiver is reporting"))

        var silent = GPSDStatus(endpoint: endpoint, quietAfter: .seconds(3))
        _ = silent.observe(.connected(endpoint), at: at(0))
        #expect(silent.check(at: at(2.9)).isEmpty)
        #expect(words(silent.check(at: at(3))).first?.contains("no receiver is reporting") == true)
        #expect(silent.check(at: at(4)).isEmpty)
        let back = words(silent.observe(fix(3), at: at(5)))
        #expect(back == ["ended: receiver /dev/ttyACM0 is reporting"], "a fix ends the no-receiver problem and there is no fix problem to end")
    }

    @Test func noFixYetThenTheFirstFix() {
        var status = GPSDStatus(endpoint: endpoint)
        _ = status.observe(.connected(endpoint), at: at(0))
        let waiting = words(status.observe(fix(1), at: at(1)))
        #expect(waiting == ["started: receiver /dev/ttyACM0 has no fix yet (mode 1): waiting for satellites; outdoors with a clear view of the sky a first fix takes up to a minute"])
        #expect(status.observe(fix(1), at: at(2)).isEmpty)
        #expect(words(status.observe(fix(3), at: at(3))) == ["ended: first fix from /dev/ttyACM0: 3D, 7 satellites"])
        #expect(status.latestFix?.hdop == 0.9)
    }

    @Test func aFixLostByMode1OrBySilenceAndBack() {
        var status = GPSDStatus(endpoint: endpoint, staleAfter: .seconds(5), quietAfter: .seconds(10))
        _ = status.observe(.connected(endpoint), at: at(0))
        _ = status.observe(fix(3), at: at(1))
        #expect(words(status.observe(fix(1), at: at(2))) == ["started: fix lost on /dev/ttyACM0: the receiver reports no fix (mode 1)"])
        #expect(words(status.observe(fix(2, satellites: nil), at: at(4.5))) == ["ended: fix back on /dev/ttyACM0 after 2.5 s: 2D"])
        // The receiver goes on reporting SKY but no position.
        _ = status.observe(.satellites([], device: "/dev/ttyACM0"), at: at(9))
        #expect(words(status.check(at: at(9.6))) == ["started: fix lost on /dev/ttyACM0: no position for 5.1 s"])
        #expect(words(status.observe(fix(3), at: at(10))) == ["ended: fix back on /dev/ttyACM0 after 0.4 s: 3D, 7 satellites"])
    }

    @Test func gpsdGoingAwayReplacesAFixProblemWithoutEndingIt() {
        var status = GPSDStatus(endpoint: endpoint)
        _ = status.observe(.connected(endpoint), at: at(0))
        _ = status.observe(fix(3), at: at(1))
        _ = status.observe(fix(1), at: at(2))
        let lost = words(status.observe(.disconnected(.connectionLost(endpoint, reason: "gpsd closed the connection"), retryIn: .milliseconds(250)), at: at(3)))
        #expect(lost == ["started: lost the connection to gpsd at 127.0.0.1:4000: gpsd closed the connection; reconnecting"])
        #expect(status.observe(refused, at: at(3.5)).isEmpty, "still the same problem")
        // A dying gpsd may still accept a connection and close it unanswered: still the same problem.
        #expect(status.observe(.connected(endpoint), at: at(3.6)).isEmpty)
        #expect(status.observe(.disconnected(.connectionLost(endpoint, reason: "gpsd closed the connection"), retryIn: .milliseconds(250)), at: at(3.7)).isEmpty)
        _ = status.observe(.connected(endpoint), at: at(6))
        #expect(words(status.observe(.line(Self.version), at: at(6.01))) == ["ended: connected to gpsd at 127.0.0.1:4000"])
        #expect(status.isConnected)
    }

    @Test func afterAReconnectionTheFixIsLostOnlyIfNoneComesInTime() {
        var status = GPSDStatus(endpoint: endpoint, staleAfter: .seconds(5), quietAfter: .seconds(10))
        _ = status.observe(.connected(endpoint), at: at(0))
        _ = status.observe(fix(3), at: at(1))
        _ = status.observe(.disconnected(.connectionLost(endpoint, reason: "gpsd closed the connection"), retryIn: .milliseconds(250)), at: at(2))
        _ = status.observe(.connected(endpoint), at: at(8))
        #expect(words(status.observe(.line(Self.version), at: at(8))) == ["ended: connected to gpsd at 127.0.0.1:4000"])
        _ = status.observe(.satellites([], device: "/dev/ttyACM0"), at: at(9))
        #expect(status.check(at: at(12.9)).isEmpty, "the last fix is 11.9 s old, but the connection only 4.9 s")
        #expect(words(status.check(at: at(13))) == ["started: fix lost on /dev/ttyACM0: no position for 5.0 s"])
    }

    /// A gpsd whose connections are dropped for what it sends is said once, however often the client
    /// reconnects (and gpsd greets it), and its end with the first usable report.
    @Test func connectionsDroppedForWhatGpsdSendsAreSaidOnceUntilAReportComes() {
        var status = GPSDStatus(endpoint: endpoint)
        let drop = GPSDReader.Event.disconnected(.unusableInput(endpoint, .lineTooLong(limit: 65_536)), retryIn: .milliseconds(250))
        _ = status.observe(.connected(endpoint), at: at(0))
        #expect(status.observe(.line(Self.version), at: at(0)).isEmpty)
        let first = words(status.observe(drop, at: at(0.1)))
        #expect(first == ["started: dropped the connection to gpsd at 127.0.0.1:4000: it sent a line longer than 65536 bytes (gpsd's reports are at most a few KB). Reconnecting, waiting longer each time (up to 30 s) while it goes on; what cannot be used is counted in the summary"])
        for second in 1...5 {
            #expect(status.observe(.connected(endpoint), at: at(Double(second))).isEmpty)
            #expect(status.observe(.line(Self.version), at: at(Double(second))).isEmpty)
            #expect(status.observe(.line("{\"class\":\"DEVICES\",\"devices\":[]}"), at: at(Double(second))).isEmpty)
            #expect(status.check(at: at(Double(second) + 0.5)).isEmpty)
            #expect(status.observe(drop, at: at(Double(second) + 0.9)).isEmpty, "said once, not per reconnection")
        }
        _ = status.observe(.connected(endpoint), at: at(10))
        #expect(words(status.observe(fix(3), at: at(10.5))) == ["ended: gpsd at 127.0.0.1:4000 sends usable reports again"])
        #expect(status.problem == nil)
    }

    @Test func whatCouldNotBeUsedIsANoticeThatChangesNoProblem() {
        var status = GPSDStatus(endpoint: endpoint)
        _ = status.observe(.connected(endpoint), at: at(0))
        _ = status.observe(fix(3), at: at(1))
        let notice = words(status.observe(.unusable(.positionOutOfRange(field: .latitude, value: 91)), at: at(2)))
        #expect(notice == ["notice: gpsd at 127.0.0.1:4000 sent a fix with latitude 91.0, outside -90...90 degrees (fix dropped); any more like it are only counted (in the summary at the end)"])
        #expect(status.problem == nil)
    }
}
