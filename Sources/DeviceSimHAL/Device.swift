import DeviceSimClock

/// One simulated (or live) phone: its identity, its clock and its hardware behind the HAL's protocols.
///
/// Flows take a `Device` and use only what it offers, so the same flow runs in a scenario, in a unit
/// test and live on gpsd.
///
/// ```swift
/// let device = Device(id: "alice", scheduler: scheduler, location: gps, events: trace)
/// let reminder = device.scheduling.schedule(after: .seconds(180)) { device.record("app.reminder") }
/// device.record("app.started")
/// ```
public final class Device {
    /// The device's name in scenarios and traces.
    public let id: String
    /// The device's time: now, callbacks after a delay, its tasks and executor (virtual, or wall-clock in
    /// live mode). It is DeviceSimTime's `EventScheduler`, which the runner and tests reach as
    /// `device.scheduler`; app code sees this protocol only.
    public let scheduling: any DeviceScheduling
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
    public init(id: String, scheduler: any DeviceScheduling, location: any LocationProvider, events: any EventSink) {
        self.id = id
        self.scheduling = scheduler
        self.location = location
        self.events = events
    }

    /// The device's current time.
    public var now: VirtualInstant { scheduling.now }

    /// The local civil date and time now, in the device's time zone.
    public var civilTime: CivilTime { civilClock.time(at: scheduling.now) }

    /// A `Clock` on the device's time, for code written against `any Clock<Duration>`.
    public var clock: VirtualClock { VirtualClock(scheduling) }

    /// Records an event on this device at the current time.
    public func record(_ name: String, _ fields: [(key: String, value: TraceValue)] = []) {
        events.record(TraceEvent(time: scheduling.now, device: id, name: name, fields: fields))
    }
}
