import DeviceSimClock

/// The phone's location privacy settings: whether location services are on (Settings > Privacy >
/// Location Services), whether location is restricted (parental controls, a device profile), and what
/// the app was granted. One per phone (``Device/locationPrivacy``): every `CLLocationManager` of the
/// app on that phone reads and changes the same settings, as on iOS.
///
/// Changes are recorded in the trace (`location.services`, `location.restricted`,
/// `location.authorization`, `location.accuracy`) and sent to observers on the simulation's thread.
///
/// ```swift
/// phone.device.locationPrivacy.servicesEnabled = false    // the user switched Location Services off
/// ```
public final class LocationPrivacy {
    /// What the user granted the app.
    public enum AppAuthorization: String, Sendable, Hashable, CaseIterable {
        /// Not asked yet.
        case notDetermined = "not-determined"
        /// The user refused ("Don't Allow").
        case denied
        /// "Allow While Using App" or "Allow Once".
        case whenInUse = "when-in-use"
        /// "Change to Always Allow".
        case always
    }

    private let device: Device
    private let observers = ObserverList<Void>()

    /// Creates the settings of `device` (through ``Device/locationPrivacy``).
    init(device: Device) {
        self.device = device
    }

    /// Whether Location Services are on for the whole phone (on by default).
    public var servicesEnabled = true {
        didSet { changed(oldValue != servicesEnabled, "location.services", .bool(servicesEnabled)) }
    }

    /// Whether location use is restricted (parental controls): the app cannot be granted location.
    public var restricted = false {
        didSet { changed(oldValue != restricted, "location.restricted", .bool(restricted)) }
    }

    /// What the user granted the app (not asked yet by default).
    public var appAuthorization: AppAuthorization = .notDetermined {
        didSet { changed(oldValue != appAuthorization, "location.authorization", .string(appAuthorization.rawValue)) }
    }

    /// Whether the app may use precise location (the "Precise Location" switch; on by default).
    public var preciseLocation = true {
        didSet { changed(oldValue != preciseLocation, "location.accuracy", .string(preciseLocation ? "full" : "reduced")) }
    }

    /// Registers `observer` for every later change of these settings.
    public func observe(_ observer: @escaping () -> Void) -> ObservationToken {
        observers.add { observer() }
    }

    private func changed(_ didChange: Bool, _ event: String, _ value: TraceValue) {
        guard didChange else { return }
        device.record(event, [("value", value)])
        observers.send(())
    }
}

extension Device {
    /// The phone's location privacy settings (see ``LocationPrivacy``).
    public var locationPrivacy: LocationPrivacy {
        platformState(LocationPrivacy.self) { LocationPrivacy(device: self) }
    }
}
