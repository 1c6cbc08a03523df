import DeviceSimHAL
import DeviceSimNMEA
import DeviceSimSimulated
import DeviceSimTime
import Foundation
import Testing

@Suite struct NMEAReceiverOutputTests {
    /// A receiver walking for a minute, with a 20 s tunnel: an epoch a second throughout, fixes outside
    /// the tunnel, quality 0 / status V / no satellites used inside it; every sentence's checksum right.
    @Test func anEpochASecondWithFixesAndWithoutThemInTheTunnel() throws {
        let scheduler = EventScheduler()
        let start = GeoCoordinate(latitude: 52.5145, longitude: 13.3501)
        let motion = DeviceMotion(at: start)
        var configuration = SimulatedGPS.Configuration()
        configuration.noise = false
        let gps = SimulatedGPS(scheduler: scheduler, motion: motion, configuration: configuration, random: SeededRandomGenerator(seed: 1))
        let device = Device(id: "walker", scheduler: scheduler, location: gps, events: TraceRecorder())
        var bytes: [UInt8] = []
        let output = NMEAReceiverOutput(device: device, startDate: Date(timeIntervalSince1970: 1_767_225_600)) { bytes += $0 }
        output.start()
        gps.start()
        scheduler.schedule(at: VirtualInstant(offset: .seconds(20))) { gps.loseSignal() }
        scheduler.schedule(at: VirtualInstant(offset: .seconds(40))) { gps.restoreSignal() }
        try scheduler.run(until: VirtualInstant(offset: .seconds(60)))
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\r\n").map(String.init)
        let gga = lines.filter { $0.hasPrefix("$GPGGA") }
        #expect(output.epochs == gga.count)
        // One epoch a second, 0 s to 60 s, never two for the same second (not at the tunnel's edges either).
        let times = gga.map { String($0.split(separator: ",", omittingEmptySubsequences: false)[1]) }
        #expect(times == (0...60).map { String(format: "%02d%02d%02d.00", 0, $0 / 60, $0 % 60) }, "\(times)")
        #expect((35...40).contains(output.epochsWithFix), "fixes outside the tunnel: \(output.epochsWithFix)")
        let withoutFix = gga.filter { $0.split(separator: ",", omittingEmptySubsequences: false)[6] == "0" }
        #expect(withoutFix.count == output.epochs - output.epochsWithFix)
        #expect(lines.filter { $0.hasPrefix("$GPRMC") && $0.contains(",V,") }.count == withoutFix.count)
        for line in lines {
            let body = line.dropFirst().prefix { $0 != "*" }
            let sum = body.utf8.reduce(UInt8(0), ^)
            #expect(line.hasSuffix("*" + String(format: "%02X", sum)), "\(line)")
        }
        #expect(lines.contains { $0.hasPrefix("$GPGSV") } && lines.contains { $0.hasPrefix("$GPVTG") })
        #expect(gga.first?.hasPrefix("$GPGGA,000000.00,") == true, "the scenario's UTC time: \(gga.first ?? "")")
    }

    /// A device without an altitude is served as a 3D fix at the default altitude: GGA's altitude and
    /// GSA's mode agree (gpsd reports such a GGA fix as 3D whatever GSA says; issue 36 item 9).
    @Test func withoutAnAltitudeGGAAndGSAAgreeOnA3DFix() throws {
        for altitude in [nil, 35.0] {
            let scheduler = EventScheduler()
            let motion = DeviceMotion(at: GeoCoordinate(latitude: 52.5145, longitude: 13.3501), altitude: altitude)
            let gps = SimulatedGPS(scheduler: scheduler, motion: motion, configuration: SimulatedGPS.Configuration(), random: SeededRandomGenerator(seed: 1))
            let device = Device(id: "walker", scheduler: scheduler, location: gps, events: TraceRecorder())
            var bytes: [UInt8] = []
            let output = NMEAReceiverOutput(device: device, startDate: Date(timeIntervalSince1970: 1_767_225_600)) { bytes += $0 }
            output.start()
            gps.start()
            try scheduler.run(until: VirtualInstant(offset: .seconds(10)))
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            let fixes = lines.filter { $0[0] == "$GPGGA" && $0[6] == "1" }
            #expect(!fixes.isEmpty)
            for gga in fixes {
                #expect(Double(gga[9]) != nil && gga[10] == "M", "GGA with an altitude: \(gga)")
                if altitude == nil { #expect(gga[9] == "0.0") }
            }
            let modes = Set(lines.filter { $0[0] == "$GPGSA" && !$0[3].isEmpty }.map { $0[2] })
            #expect(modes == ["3"], "GSA of the fixes: \(modes)")
        }
    }
}
