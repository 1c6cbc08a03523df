import DeviceSimHAL
import DeviceSimNMEA
import DeviceSimSimulated
import DeviceSimTime
import Foundation
import Testing

/// A location source the test moves by hand.
final class HandheldLocation: LocationProvider {
    private let observers = ObserverList<LocationUpdate>()
    let scheduler: EventScheduler
    private(set) var currentFix: LocationFix?

    init(scheduler: EventScheduler) { self.scheduler = scheduler }

    func observe(_ observer: @escaping (LocationUpdate) -> Void) -> ObservationToken { observers.add(observer) }

    func move(to latitude: Double, longitude: Double = 0) {
        let fix = LocationFix(receivedAt: scheduler.now, coordinate: GeoCoordinate(latitude: latitude, longitude: longitude), mode: .threeDimensional)
        currentFix = fix
        observers.send(.fix(fix))
    }
}

@Suite struct GeofenceMonitorTests {
    /// 200 s of NMEA moving north at 0.0001° (11.1 m) a second from [0, 0]: it crosses a 200 m region
    /// centred on [0.01, 0] (1112 m north).
    func northboundLog() throws -> URL {
        try northboundNMEALog(seconds: 200, prefix: "geofence")
    }

    let office = GeofenceRegion(id: "office", center: GeoCoordinate(latitude: 0.01, longitude: 0), radius: 200)

    /// Plays the log through a device with a monitor in `timing` and returns "time transition" lines
    /// as the app saw them, and the trace.
    func playThroughOffice(_ timing: SimulatedGeofenceMonitor.Timing) throws -> (seen: [String], trace: [TraceEvent]) {
        let url = try northboundLog()
        defer { try? FileManager.default.removeItem(at: url) }
        let scheduler = EventScheduler()
        let playback = try NMEAPlaybackLocationProvider(scheduler: scheduler, file: url)
        let trace = TraceRecorder()
        let device = Device(id: "commuter", scheduler: scheduler, location: playback, events: trace)
        let monitor = SimulatedGeofenceMonitor(device: device, configuration: .init(timing: timing))
        device.geofences = monitor
        try monitor.startMonitoring(office)
        var seen: [String] = []
        let subscription = monitor.observe { seen.append("\(Int(scheduler.now.seconds)) \($0.region) \($0.transition)") }
        playback.start()
        try scheduler.run(for: .seconds(300))
        subscription.cancel()
        return (seen, trace.events)
    }

    /// An app commonly stops monitoring a region when it hears that it was entered (iOS apps do it in
    /// `didEnterRegion`): the monitor must not keep using the removed region's place in its list.
    @Test func anObserverMayStopMonitoringTheRegionItWasToldItEntered() throws {
        let scheduler = EventScheduler()
        let hand = HandheldLocation(scheduler: scheduler)
        let device = Device(id: "phone", scheduler: scheduler, location: hand, events: TraceRecorder())
        let monitor = SimulatedGeofenceMonitor(device: device)
        device.geofences = monitor
        let cafe = GeofenceRegion(id: "cafe", center: GeoCoordinate(latitude: 0.001, longitude: 0), radius: 50)
        try monitor.startMonitoring(GeofenceRegion(id: "first", center: GeoCoordinate(latitude: 1, longitude: 1), radius: 50))
        try monitor.startMonitoring(cafe)
        var seen: [String] = []
        let subscription = monitor.observe { event in
            seen.append("\(event.region) \(event.transition)")
            if event.transition == .enter { monitor.stopMonitoring("first"); monitor.stopMonitoring(event.region) }
        }
        hand.move(to: 0)
        hand.move(to: 0.001)
        try scheduler.run(for: .seconds(60))
        subscription.cancel()
        #expect(seen == ["cafe enter"])
        #expect(monitor.monitoredRegions.isEmpty)
    }

    @Test func idealTimingReportsAtTheFirstFixAcrossAndDwellsAfterTheLoiteringDelayWithNMEAPlayback() throws {
        let (seen, trace) = try playThroughOffice(.ideal)
        // Inside once within 200 m: 0.01 - 0.0083 = 0.0017° = 189 m at 83 s; outside at 118 s (0.0018° = 200.2 m).
        #expect(seen == ["83 office enter", "113 office dwell", "118 office exit"])
        #expect(trace.map(\.name) == ["geofence.entered", "geofence.dwelled", "geofence.exited"])
        #expect(trace.first?.fields.first?.value == .string("office"))
    }

    @Test func realisticTimingWaitsToBeClearlyAcrossFor20SecondsWithNMEAPlayback() throws {
        let (seen, _) = try playThroughOffice(.realistic)
        // 50 m past the boundary: within 150 m at 87 s (0.0087°), beyond 250 m at 123 s (0.0123°); then 20 s.
        #expect(seen == ["107 office enter", "137 office dwell", "143 office exit"])
    }

    func handheld(
        _ timing: SimulatedGeofenceMonitor.Timing, realistic: SimulatedGeofenceMonitor.RealisticTiming = .init(), maximumRegions: Int = 100
    ) -> (HandheldLocation, SimulatedGeofenceMonitor, TraceRecorder) {
        let scheduler = EventScheduler()
        let location = HandheldLocation(scheduler: scheduler)
        let trace = TraceRecorder()
        let device = Device(id: "phone", scheduler: scheduler, location: location, events: trace)
        let monitor = SimulatedGeofenceMonitor(device: device, configuration: .init(timing: timing, realistic: realistic, maximumRegions: maximumRegions))
        device.geofences = monitor
        return (location, monitor, trace)
    }

    @Test func realisticTimingIgnoresACrossingUndoneWithinTheConfirmationTime() throws {
        let (location, monitor, _) = handheld(.realistic)
        try monitor.startMonitoring(office)
        var seen: [GeofenceTransition] = []
        let subscription = monitor.observe { seen.append($0.transition) }
        location.move(to: 0)                                                     // far outside
        location.scheduler.schedule(after: .seconds(10)) { location.move(to: 0.01) }   // the centre, for 10 s
        location.scheduler.schedule(after: .seconds(20)) { location.move(to: 0) }
        try location.scheduler.run(for: .seconds(120))
        #expect(seen.isEmpty, "10 s inside is shorter than the 20 s confirmation")
        location.move(to: 0.01)
        try location.scheduler.run(for: .seconds(25))
        #expect(seen == [.enter])
        subscription.cancel()
    }

    @Test func aRegionAddedWhileInsideReportsAnEnterAndStartingOutsideIsNoExit() throws {
        let (location, monitor, _) = handheld(.ideal)
        location.move(to: 0.01)
        var seen: [String] = []
        let subscription = monitor.observe { seen.append("\($0.region) \($0.transition)") }
        try monitor.startMonitoring(office)
        try monitor.startMonitoring(GeofenceRegion(id: "home", center: GeoCoordinate(latitude: 0, longitude: 0), radius: 150, transitions: [.enter, .exit]))
        location.move(to: 0)
        #expect(seen == ["office enter", "office exit", "home enter"])
        subscription.cancel()
    }

    @Test func smallRegionsAreWarnedAndRealisticTimingMonitorsThemAt100Metres() throws {
        let (location, monitor, trace) = handheld(.realistic, realistic: .init(boundaryMargin: 0, confirmation: .zero))
        try monitor.startMonitoring(GeofenceRegion(id: "kiosk", center: GeoCoordinate(latitude: 0, longitude: 0), radius: 40))
        var seen: [GeofenceTransition] = []
        let subscription = monitor.observe { seen.append($0.transition) }
        location.move(to: 0.0008)   // 89 m from the centre: outside 40 m, inside 100 m
        try location.scheduler.run(for: .seconds(1))
        #expect(seen == [.enter])
        #expect(trace.events.first?.name == "geofence.small-radius")
        subscription.cancel()
    }

    @Test func theRegionLimitIsEnforcedAndABadRadiusRefused() throws {
        let (_, monitor, _) = handheld(.ideal, maximumRegions: 2)
        try monitor.startMonitoring(office)
        try monitor.startMonitoring(GeofenceRegion(id: "home", center: GeoCoordinate(latitude: 0, longitude: 0), radius: 150))
        try monitor.startMonitoring(GeofenceRegion(id: "home", center: GeoCoordinate(latitude: 0, longitude: 0), radius: 300))   // replaces
        #expect(throws: GeofenceError.tooManyRegions(limit: 2)) {
            try monitor.startMonitoring(GeofenceRegion(id: "gym", center: GeoCoordinate(latitude: 0, longitude: 0), radius: 150))
        }
        #expect(monitor.monitoredRegions.map(\.id) == ["office", "home"])
        #expect(monitor.monitoredRegions.last?.radius == 300)
        monitor.stopMonitoring("office")
        #expect(throws: GeofenceError.invalidRadius(region: "gym", radius: 0)) {
            try monitor.startMonitoring(GeofenceRegion(id: "gym", center: GeoCoordinate(latitude: 0, longitude: 0), radius: 0))
        }
    }
}
