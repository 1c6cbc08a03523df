import DeviceSimTime

/// One simulated (or live) phone: its identity, its clock and its hardware behind the HAL's protocols.
///
/// Flows take a `Device` and use only what it offers, so the same flow runs in a scenario, in a unit
/// test and live on gpsd.
///
/// ```swift
/// let device = Device(id: "alice", scheduler: scheduler, location: gps, events: trace)
/// device.record("app.started")
/// ```
public final class Device {
    /// The device's name in scenarios and traces.
    public let id: String
    /// The scheduler that owns the device's time (virtual, or wall-clock in live mode).
    public let scheduler: EventScheduler
    /// The location capability.
    public let location: any LocationProvider
    /// Wi-Fi, when the device has a driver for it.
    public var wifi: (any WiFiRadio)?
    /// Bluetooth beacon ranging, when the device has a driver for it.
    public var beacons: (any BeaconRanging)?
    /// Bluetooth LE scanning (advertisements heard), when the device has a driver for it.
    public var bluetooth: (any BluetoothScanning)?
    /// Network connectivity, when the device has a driver for it.
    public var connectivity: (any ConnectivityMonitor)?
    /// Notifications and prompts, when the device has a driver for it.
    public var notifications: (any NotificationPresenting)?
    /// Local storage, when the device has one.
    public var storage: (any LocalStorage)?
    /// The accounts the device holds for apps to sign in with, when it has an account manager.
    public var accounts: (any DeviceAccounts)?
    /// Geofence region monitoring, when the device has it.
    public var geofences: (any GeofenceMonitoring)?
    /// Where the device's HTTP requests go (the servers of a test or a scenario), when it has a network to them.
    public var http: (any HTTPTransport)?
    /// Where the device's observable events go.
    public let events: any EventSink
    /// The device's civil calendar (start date and time zone); UTC from 2026-01-01 unless set.
    public var civilClock: CivilClock = .default
    /// Per-device state of the Apple-shaped API modules (see ``platformState(_:make:)``).
    var platformStates: [ObjectIdentifier: AnyObject] = [:]

    /// Creates a device.
    public init(id: String, scheduler: EventScheduler, location: any LocationProvider, events: any EventSink) {
        self.id = id
        self.scheduler = scheduler
        self.location = location
        self.events = events
    }

    /// The device's current time.
    public var now: VirtualInstant { scheduler.now }

    /// The local civil date and time now, in the device's time zone.
    public var civilTime: CivilTime { civilClock.time(at: scheduler.now) }

    /// A `Clock` on the device's time, for code written against `any Clock<Duration>`.
    public var clock: VirtualClock { VirtualClock(scheduler) }

    /// Records an event on this device at the current time.
    public func record(_ name: String, _ fields: [(key: String, value: TraceValue)] = []) {
        events.record(TraceEvent(time: scheduler.now, device: id, name: name, fields: fields))
    }
}
