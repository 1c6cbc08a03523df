import DeviceSimHAL
import DeviceSimNMEA
import DeviceSimTime
import Foundation

/// A device's location as a GPS receiver would put it on the wire: an NMEA 0183 epoch (GGA, RMC, GSA,
/// GSV, VTG) for every fix, and, while there is none (GPS off, a tunnel, no first fix yet), an epoch a
/// second all the same with fix quality 0, status V and no satellites used, the way a receiver keeps
/// talking without a position. Times are the scenario's civil UTC time.
///
/// ```swift
/// let output = NMEAReceiverOutput(device: device, startDate: scenario.startDate) { bytes in server.broadcast(bytes) }
/// output.start()
/// ```
public final class NMEAReceiverOutput {
    /// The receiver's settings.
    public struct Configuration: Sendable, Hashable {
        /// The talker id: `GP` (GPS) or `GN` (several constellations).
        public var talker = "GP"
        /// How often an epoch goes out while there is no fix.
        public var interval: Duration = .seconds(1)
        /// Satellites used in a fix.
        public var satellitesUsed = 9
        /// The altitude above mean sea level, metres, of a fix that has none (a device without
        /// `altitude:`). Every fix goes out as a 3D fix with an altitude: gpsd (3.22) reports a GGA fix
        /// with four satellites or more as 3D whatever GSA says, so a 2D fix with an empty altitude
        /// would reach its clients as a 3D fix without one.
        public var defaultAltitude = 0.0

        /// The defaults.
        public init() {}
    }

    private let device: Device
    /// The civil UTC time of virtual zero, written into the sentences.
    public var startDate: Date
    private let configuration: Configuration
    private let send: ([UInt8]) -> Void
    private var subscription: ObservationToken?
    private var timer: RepeatingEvent?
    private var lastEpoch: VirtualInstant?
    /// Epochs sent so far, and how many of them had a fix.
    public private(set) var epochs = 0, epochsWithFix = 0

    /// The PRNs of the simulated sky, and their place in it at instant zero.
    private static let constellation: [(prn: Int, elevation: Double, azimuth: Double)] = [
        (2, 62, 40), (5, 35, 300), (12, 48, 120), (15, 21, 200), (18, 70, 260), (21, 15, 80),
        (24, 55, 170), (25, 28, 330), (29, 40, 20), (31, 12, 240), (10, 8, 150), (20, 5, 95),
    ]

    /// An output for `device`, whose virtual zero is `startDate`; `send` gets each epoch's bytes.
    public init(device: Device, startDate: Date, configuration: Configuration = Configuration(), send: @escaping ([UInt8]) -> Void) {
        self.device = device
        self.startDate = startDate
        self.configuration = configuration
        self.send = send
    }

    /// Starts sending.
    public func start() {
        guard subscription == nil else { return }
        subscription = device.location.observe { [weak self] update in
            if case .fix(let fix) = update { self?.emit(fix) }
        }
        // The check runs last in its instant (re-scheduled behind whatever is already due then), so a
        // fix due in the same instant goes out instead of a no-fix epoch, not beside it.
        timer = device.scheduler.repeating(every: configuration.interval) { [weak self] _ in
            guard let self else { return }
            device.scheduler.schedule(after: .zero) { [weak self] in self?.emitIfSilent() }
        }
    }

    /// Stops sending.
    public func stop() {
        subscription = nil
        timer?.cancel()
        timer = nil
    }

    /// While the location is unavailable no fix arrives, so the timer sends the no-fix epochs: one
    /// whenever a whole interval has gone by without an epoch (so a fix and a no-fix epoch do not both
    /// go out for the same second at the edges of a tunnel).
    private func emitIfSilent() {
        guard device.location.currentFix == nil else { return }
        if let lastEpoch, lastEpoch.duration(to: device.now) < configuration.interval { return }
        emit(nil)
    }

    private func emit(_ location: LocationFix?) {
        let now = device.now
        var fix = NMEAFix()
        let unixSeconds = startDate.timeIntervalSince1970 + now.seconds
        fix.setTime(unixNanoseconds: Int64((unixSeconds * 1e9).rounded()))
        let sky = Self.sky(at: now)
        var used: [Int] = []
        if let location {
            fix.mode = 3   // with an altitude always (see Configuration.defaultAltitude): GGA, GSA and gpsd agree
            fix.quality = 1
            fix.latitude = location.coordinate.latitude
            fix.longitude = location.coordinate.longitude
            fix.altitudeMSL = location.altitude ?? configuration.defaultAltitude
            fix.geoidSeparation = 0
            fix.speed = location.speed
            fix.track = location.course
            let hdop = max(0.6, (location.horizontalAccuracy ?? 5) / 5)
            fix.hdop = (hdop * 10).rounded() / 10
            fix.pdop = (hdop * 1.8 * 10).rounded() / 10
            fix.vdop = (hdop * 1.4 * 10).rounded() / 10
            used = sky.prefix(configuration.satellitesUsed).map(\.prn)
            fix.satellitesUsed = used.count
            epochsWithFix += 1
        } else {
            fix.mode = 1
            fix.quality = 0
            fix.satellitesUsed = 0
        }
        // Without a fix the satellites stay in view but none is tracked (no signal, as in a tunnel).
        let inView = sky.map { satellite in
            NMEASentenceWriter.SatelliteInView(
                prn: satellite.prn, elevation: satellite.elevation, azimuth: satellite.azimuth,
                snr: location == nil ? nil : 20 + satellite.elevation / 3)
        }
        epochs += 1
        lastEpoch = now
        send(Array(NMEASentenceWriter.receiverEpoch(fix, used: used, inView: inView, talker: configuration.talker).utf8))
    }

    /// The satellites above 5° at `instant`, highest first: each drifts slowly across the sky (a
    /// 12-hour orbit seen from the ground, roughly), the same on every run.
    static func sky(at instant: VirtualInstant) -> [(prn: Int, elevation: Int, azimuth: Int)] {
        let hours = instant.seconds / 3600
        let visible = constellation.compactMap { satellite -> (prn: Int, elevation: Int, azimuth: Int)? in
            let phase = hours / 12 * 2 * Double.pi + Double(satellite.prn)
            let elevation = satellite.elevation + 10 * sin(phase)
            guard elevation >= 5 else { return nil }
            let azimuth = (satellite.azimuth + hours * 15).truncatingRemainder(dividingBy: 360)
            return (satellite.prn, Int(elevation.rounded()), Int(azimuth.rounded()) % 360)
        }
        return visible.sorted { ($0.elevation, -$0.prn) > ($1.elevation, -$1.prn) }
    }
}
