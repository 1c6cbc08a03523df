import DeviceSimClock

/// What a location source tells its observers.
public enum LocationUpdate: Sendable, Hashable {
    /// A new position fix.
    case fix(LocationFix)
    /// The source has no position now (signal lost, GPS off, gpsd gone); `reason` says why.
    case unavailable(reason: String)
    /// The satellites in view.
    case satellites([SatelliteInfo])
}

/// The device's location capability: a simulated route, an NMEA log played back, or gpsd.
///
/// Updates are delivered on the simulation's thread, in order. A flow reads ``currentFix`` ("obtain the
/// current location") or observes every update.
///
/// ```swift
/// let subscription = device.location.observe { update in
///     if case .fix(let fix) = update { marker = fix.coordinate }
/// }
/// ```
public protocol LocationProvider: AnyObject {
    /// The latest fix while the source has a position; nil while location is unavailable.
    var currentFix: LocationFix? { get }

    /// Registers `observer` for every later update; it stays registered while the subscription lives.
    func observe(_ observer: @escaping (LocationUpdate) -> Void) -> ObservationToken
}

/// Keeps an observation alive; cancel it (or drop it) to stop receiving updates.
public final class ObservationToken {
    private var onCancel: (() -> Void)?

    /// Creates a subscription that runs `onCancel` once when cancelled or released.
    public init(onCancel: @escaping () -> Void) {
        self.onCancel = onCancel
    }

    /// Stops the observation.
    public func cancel() {
        let action = onCancel
        onCancel = nil
        action?()
    }

    deinit { onCancel?() }
}

/// A list of observers, for drivers to fan their updates out (in registration order).
///
/// Its methods are inlinable so that a driver's list is specialized for its value type: drivers send
/// an update every second to every device, and an unspecialized generic list looks up type metadata
/// on every call.
public final class ObserverList<Value> {
    @usableFromInline var ids: [Int] = []
    @usableFromInline var calls: [(Value) -> Void] = []
    @usableFromInline var nextID = 0

    /// Creates an empty list.
    @inlinable public init() {}

    /// Whether anyone is observing.
    @inlinable public var isEmpty: Bool { calls.isEmpty }

    /// Adds an observer; the subscription removes it.
    @inlinable public func add(_ observer: @escaping (Value) -> Void) -> ObservationToken {
        let id = nextID
        nextID += 1
        ids.append(id)
        calls.append(observer)
        return ObservationToken { [weak self] in self?.remove(id) }
    }

    @usableFromInline func remove(_ id: Int) {
        guard let position = ids.firstIndex(of: id) else { return }
        ids.remove(at: position)
        calls.remove(at: position)
    }

    /// Calls every observer with `value`.
    @inlinable public func send(_ value: Value) {
        for call in calls { call(value) }
    }
}
