import DeviceSimHAL
import DeviceSimClock
import Foundation

/// Monitors geographic and beacon conditions and reports their changes as ``events`` (iOS 17). It
/// belongs to the current device (`DeviceContext.current`) when created, and runs on that device's
/// simulation executor, so its events come at virtual instants. Conditions change state as
/// `CLLocationManager`'s regions do (see ``RegionMonitoringFigures``).
///
/// ```swift
/// let monitor = await CLMonitor("cafes")
/// await monitor.add(CLMonitor.CircularGeographicCondition(center: cafe, radius: 100), identifier: "cafe", assuming: .unsatisfied)
/// for try await event in await monitor.events where event.state == .satisfied { arrived(event.identifier) }
/// ```
public actor CLMonitor {
    /// The monitor's name.
    public nonisolated let name: String
    /// The condition changes, in order (one sequence per monitor: iterate it once).
    public var events: Events { eventSequence }
    /// The sequence ``events`` hands out (isolated to the monitor, as Apple's `events` is: `await monitor.events`).
    private let eventSequence: Events

    private nonisolated let executor: any SimulationExecuting
    private nonisolated let unchecked: UncheckedState

    /// The device's simulation executor.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// Opens the monitor named `name` on the current device. Creating one on no device is a
    /// programming error (a trap whose message says what to do).
    public init(_ name: String) async {
        guard let device = DeviceContext.current else {
            preconditionFailure("CLMonitor(_:) was created on no device: create it in a DeviceSimTesting test after adding a device, in a scenario app, or inside DeviceContext.withDevice(device) { ... }")
        }
        self.name = name
        executor = device.scheduling.executor
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self)
        eventSequence = Events(stream: stream)
        unchecked = UncheckedState(MonitorState(device: device, name: name, continuation: continuation))
    }

    /// The identifiers of the monitored conditions.
    public var identifiers: [String] { unchecked.state.records.map(\.identifier) }

    /// Adds `condition` under `identifier` (replacing one of the same identifier), state unknown.
    public func add(_ condition: any CLCondition, identifier: String) {
        unchecked.state.add(condition, identifier: identifier, assuming: .unknown)
    }

    /// Adds `condition` under `identifier` in state `state` (replacing one of the same identifier).
    public func add(_ condition: any CLCondition, identifier: String, assuming state: CLMonitoringState) {
        unchecked.state.add(condition, identifier: identifier, assuming: state)
    }

    /// Stops monitoring the condition `identifier`.
    public func remove(_ identifier: String) {
        unchecked.state.remove(identifier)
    }

    /// The condition `identifier` and its last event, or nil.
    public func record(for identifier: String) -> Record? {
        unchecked.state.records.first { $0.identifier == identifier }.map { Record(condition: $0.condition, lastEvent: $0.lastEvent) }
    }

    /// A circle on the Earth's surface.
    public struct CircularGeographicCondition: CLCondition {
        /// The centre.
        public let center: CLLocationCoordinate2D
        /// The radius in metres.
        public let radius: CLLocationDistance

        /// A circle of `radius` metres around `center`.
        public init(center: CLLocationCoordinate2D, radius: CLLocationDistance) {
            self.center = center
            self.radius = radius
        }
    }

    /// iBeacons of a UUID, optionally a major and a minor.
    public struct BeaconIdentityCondition: CLCondition {
        /// The proximity UUID.
        public let uuid: UUID
        /// The major value, or nil for any.
        public let major: CLBeaconMajorValue?
        /// The minor value, or nil for any.
        public let minor: CLBeaconMinorValue?

        /// Beacons with `uuid`.
        public init(uuid: UUID) {
            self.init(uuid: uuid, major: nil, minor: nil)
        }

        /// Beacons with `uuid` and `major`.
        public init(uuid: UUID, major: CLBeaconMajorValue) {
            self.init(uuid: uuid, major: Optional(major), minor: nil)
        }

        /// The beacon with `uuid`, `major` and `minor`.
        public init(uuid: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue) {
            self.init(uuid: uuid, major: Optional(major), minor: Optional(minor))
        }

        private init(uuid: UUID, major: CLBeaconMajorValue?, minor: CLBeaconMinorValue?) {
            self.uuid = uuid
            self.major = major
            self.minor = minor
        }

        func matches(uuid: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue) -> Bool {
            uuid == self.uuid && (self.major == nil || self.major == major) && (self.minor == nil || self.minor == minor)
        }
    }

    /// A change of a condition's state.
    public struct Event: Sendable {
        /// The state type (`CLMonitoringState`).
        public typealias State = CLMonitoringState
        /// The condition's identifier.
        public let identifier: String
        /// The most specific condition the event applies to (the beacon heard, for a beacon condition).
        public let refinement: (any CLCondition)?
        /// The new state.
        public let state: CLMonitoringState
        /// When.
        public let date: Date
        /// The app is not authorized (iOS 18).
        public let authorizationDenied: Bool
        /// Location Services are off (iOS 18).
        public let authorizationDeniedGlobally: Bool
        /// Location is restricted (iOS 18).
        public let authorizationRestricted: Bool
        /// Too many conditions of this kind (iOS 18).
        public let conditionLimitExceeded: Bool
        /// The condition cannot be monitored (iOS 18).
        public let conditionUnsupported: Bool
        /// Precise location is off (iOS 18).
        public let accuracyLimited: Bool

        init(identifier: String, refinement: (any CLCondition)? = nil, state: CLMonitoringState, date: Date, privacy: LocationPrivacy? = nil,
             conditionLimitExceeded: Bool = false, conditionUnsupported: Bool = false) {
            self.identifier = identifier
            self.refinement = refinement
            self.state = state
            self.date = date
            authorizationDenied = privacy.map { $0.appAuthorization == .denied || !$0.servicesEnabled } ?? false
            authorizationDeniedGlobally = privacy.map { !$0.servicesEnabled } ?? false
            authorizationRestricted = privacy?.restricted ?? false
            accuracyLimited = privacy.map { !$0.preciseLocation } ?? false
            self.conditionLimitExceeded = conditionLimitExceeded
            self.conditionUnsupported = conditionUnsupported
        }
    }

    /// A condition and its last event.
    public struct Record: Sendable {
        /// The condition.
        public let condition: any CLCondition
        /// The last event (the assumed state until one happens).
        public let lastEvent: Event
    }

    /// The sequence of ``Event``s.
    public struct Events: AsyncSequence, Sendable {
        public typealias Element = Event
        let stream: AsyncStream<Event>

        public func makeAsyncIterator() -> Iterator {
            Iterator(base: stream.makeAsyncIterator())
        }

        /// Iterates the events.
        public struct Iterator: AsyncIteratorProtocol {
            var base: AsyncStream<Event>.Iterator

            /// The next event; nil when the iterating task is cancelled.
            public mutating func next() async throws -> Event? {
                await base.next()
            }
        }
    }
}

/// The monitor's state, used on its device's simulation executor only (the actor's executor).
private struct UncheckedState: @unchecked Sendable {
    let state: MonitorState
    init(_ state: MonitorState) { self.state = state }
}

/// The conditions of one ``CLMonitor`` and where the device is with respect to each.
private final class MonitorState {
    struct Monitored {
        let identifier: String
        let condition: any CLCondition
        var lastEvent: CLMonitor.Event
        var pending: (state: CLMonitoringState, check: any CancellableEvent)?
        var lastHeard: VirtualInstant?
        /// The change to unsatisfied due if the condition's beacons stay unheard (reports stop when
        /// Bluetooth goes off).
        var exitCheck: (any CancellableEvent)?
        var decided = false
    }

    let device: Device
    let name: String
    let continuation: AsyncStream<CLMonitor.Event>.Continuation
    var records: [Monitored] = []
    private var locationToken: ObservationToken?
    private var rangingToken: ObservationToken?

    init(device: Device, name: String, continuation: AsyncStream<CLMonitor.Event>.Continuation) {
        self.device = device
        self.name = name
        self.continuation = continuation
    }

    private var date: Date { device.civilClock.date(of: device.now) }
    private var figures: RegionMonitoringFigures { device.regionMonitoringFigures }

    func add(_ condition: any CLCondition, identifier: String, assuming state: CLMonitoringState) {
        remove(identifier)
        var refusal: CLMonitor.Event?
        if let circle = condition as? CLMonitor.CircularGeographicCondition,
            !(circle.radius.isFinite && circle.radius >= 0 && CLLocationCoordinate2DIsValid(circle.center))
        {
            refusal = CLMonitor.Event(identifier: identifier, state: .unmonitored, date: date, conditionUnsupported: true)
        } else if !(condition is CLMonitor.CircularGeographicCondition || condition is CLMonitor.BeaconIdentityCondition) {
            refusal = CLMonitor.Event(identifier: identifier, state: .unmonitored, date: date, conditionUnsupported: true)
        } else if records.count >= figures.maximumRegions {
            refusal = CLMonitor.Event(identifier: identifier, state: .unmonitored, date: date, conditionLimitExceeded: true)
        }
        if let refusal {
            device.record("corelocation.monitor.refused", [("monitor", .string(name)), ("condition", .string(identifier))])
            continuation.yield(refusal)
            return
        }
        records.append(Monitored(identifier: identifier, condition: condition, lastEvent: CLMonitor.Event(identifier: identifier, state: state, date: date)))
        device.record("corelocation.monitor.added", [("monitor", .string(name)), ("condition", .string(identifier))])
        follow()
        if condition is CLMonitor.CircularGeographicCondition, let fix = device.location.currentFix { evaluate(fix.coordinate) }
    }

    func remove(_ identifier: String) {
        guard let index = records.firstIndex(where: { $0.identifier == identifier }) else { return }
        records[index].pending?.check.cancel()
        records[index].exitCheck?.cancel()
        records.remove(at: index)
        follow()
    }

    private func follow() {
        let circles = records.contains { $0.condition is CLMonitor.CircularGeographicCondition }
        if circles, locationToken == nil {
            locationToken = device.location.observe { [unowned self] update in
                if case .fix(let fix) = update { evaluate(fix.coordinate) }
            }
        } else if !circles {
            locationToken = nil
        }
        let beacons = records.contains { $0.condition is CLMonitor.BeaconIdentityCondition }
        if beacons, rangingToken == nil {
            rangingToken = device.beacons?.observeRanging { [unowned self] sightings in heard(sightings) }
        } else if !beacons {
            rangingToken = nil
        }
    }

    private func evaluate(_ coordinate: GeoCoordinate) {
        guard device.locationServices.isAuthorized else { return }
        for index in records.indices {
            guard let circle = records[index].condition as? CLMonitor.CircularGeographicCondition else { continue }
            let distance = coordinate.distance(to: circle.center.geo)
            if !records[index].decided {
                records[index].decided = true
                let state: CLMonitoringState = distance <= circle.radius ? .satisfied : .unsatisfied
                if state != records[index].lastEvent.state { change(index, state, refinement: nil) }
                continue
            }
            let margin = figures.boundaryMargin
            let side: CLMonitoringState? =
                if distance <= circle.radius - min(margin, circle.radius / 2) { .satisfied }
                else if distance >= circle.radius + margin { .unsatisfied }
                else { nil }
            guard let side, side != records[index].lastEvent.state else {
                records[index].pending?.check.cancel()
                records[index].pending = nil
                continue
            }
            if records[index].pending?.state == side { continue }
            records[index].pending?.check.cancel()
            let identifier = records[index].identifier
            let check = device.scheduling.schedule(after: figures.confirmation) { [unowned self] in
                guard let index = records.firstIndex(where: { $0.identifier == identifier }) else { return }
                records[index].pending = nil
                change(index, side, refinement: nil)
            }
            records[index].pending = (side, check)
        }
    }

    private func heard(_ sightings: [BeaconSighting]) {
        guard device.locationServices.isAuthorized else { return }
        for index in records.indices {
            guard let condition = records[index].condition as? CLMonitor.BeaconIdentityCondition else { continue }
            var refinement: CLMonitor.BeaconIdentityCondition?
            for sighting in sightings {
                if case .iBeacon(let text, let major, let minor) = sighting.beacon, let uuid = UUID(uuidString: text),
                    condition.matches(uuid: uuid, major: major, minor: minor)
                {
                    refinement = CLMonitor.BeaconIdentityCondition(uuid: uuid, major: major, minor: minor)
                    break
                }
            }
            if refinement != nil {
                records[index].lastHeard = device.now
                records[index].exitCheck?.cancel()
                let identifier = records[index].identifier
                records[index].exitCheck = device.scheduling.schedule(after: figures.beaconExitDelay) { [unowned self] in
                    guard let index = records.firstIndex(where: { $0.identifier == identifier }) else { return }
                    records[index].exitCheck = nil
                    if records[index].lastEvent.state == .satisfied { change(index, .unsatisfied, refinement: nil) }
                }
            }
            let inside = refinement != nil || records[index].lastHeard.map { device.now < $0.advanced(by: figures.beaconExitDelay) } ?? false
            let state: CLMonitoringState = inside ? .satisfied : .unsatisfied
            if state != records[index].lastEvent.state { change(index, state, refinement: refinement) }
        }
    }

    private func change(_ index: Int, _ state: CLMonitoringState, refinement: (any CLCondition)?) {
        let event = CLMonitor.Event(identifier: records[index].identifier, refinement: refinement, state: state, date: date, privacy: device.locationPrivacy)
        records[index].lastEvent = event
        device.record("corelocation.monitor.event", [
            ("monitor", .string(name)), ("condition", .string(event.identifier)), ("state", .string(state == .satisfied ? "satisfied" : "unsatisfied")),
        ])
        continuation.yield(event)
    }
}
