import DeviceSimHAL
import DeviceSimClock
import Foundation

/// One element of ``liveUpdates(_:)`` (iOS 17): a location, or why there is none.
///
/// ```swift
/// for try await update in CLLocationUpdate.liveUpdates() {
///     if let location = update.location { show(location) }
///     if update.isStationary { break }
/// }
/// ```
public struct CLLocationUpdate: Sendable {
    /// The location, when there is one.
    public let location: CLLocation?
    /// Whether updates stopped because the device is not moving (DeviceSim: the fixes' speed stayed
    /// below ``stationarySpeed`` for ``stationaryDuration``); they resume when it moves.
    public let isStationary: Bool
    /// The app is not authorized (iOS 18).
    public let authorizationDenied: Bool
    /// Location Services are off (iOS 18).
    public let authorizationDeniedGlobally: Bool
    /// Location is restricted (iOS 18).
    public let authorizationRestricted: Bool
    /// The app is not in use enough (iOS 18; never in DeviceSim).
    public let insufficientlyInUse: Bool
    /// The device has no position now (iOS 18).
    public let locationUnavailable: Bool
    /// Precise location is off (iOS 18).
    public let accuracyLimited: Bool
    /// An explicit service session is required (iOS 18; never in DeviceSim).
    public let serviceSessionRequired: Bool
    /// The authorization prompt is showing (iOS 18).
    public let authorizationRequestInProgress: Bool

    /// iOS 18's name for ``isStationary``.
    public var stationary: Bool { isStationary }

    /// Below this speed (m/s) a fix counts as not moving (a DeviceSim figure).
    public static let stationarySpeed = 0.3
    /// How long the device must not move before an update says it is stationary (a DeviceSim figure).
    public static let stationaryDuration: Duration = .seconds(10)

    init(
        location: CLLocation? = nil, isStationary: Bool = false, authorizationDenied: Bool = false, authorizationDeniedGlobally: Bool = false,
        authorizationRestricted: Bool = false, locationUnavailable: Bool = false, accuracyLimited: Bool = false,
        authorizationRequestInProgress: Bool = false
    ) {
        self.location = location
        self.isStationary = isStationary
        self.authorizationDenied = authorizationDenied
        self.authorizationDeniedGlobally = authorizationDeniedGlobally
        self.authorizationRestricted = authorizationRestricted
        insufficientlyInUse = false
        self.locationUnavailable = locationUnavailable
        self.accuracyLimited = accuracyLimited
        serviceSessionRequired = false
        self.authorizationRequestInProgress = authorizationRequestInProgress
    }

    /// What the updates are for (stored: the simulated receiver is the same for all).
    public enum LiveConfiguration: Sendable, Hashable {
        case `default`, automotiveNavigation, otherNavigation, fitness, airborne
    }

    /// The locations of the current device (`DeviceContext.current` when called), one update per fix,
    /// from the first iteration until the iterating task stops or is cancelled. An app whose
    /// authorization is not determined is asked for it (the prompt `location.authorization`, as iOS 18
    /// does for live updates); a denied one gets updates that say so, without locations.
    public static func liveUpdates(_ configuration: LiveConfiguration = .default) -> Updates {
        Updates(device: CarriedDevice(DeviceContext.current), configuration: configuration)
    }

    /// The updates of ``liveUpdates(_:)``.
    public struct Updates: AsyncSequence, Sendable {
        public typealias Element = CLLocationUpdate
        let device: CarriedDevice
        let configuration: LiveConfiguration

        public func makeAsyncIterator() -> Iterator {
            Iterator(source: LiveUpdateSource(device: device.device))
        }

        /// Iterates the updates.
        public struct Iterator: AsyncIteratorProtocol {
            let source: LiveUpdateSource?
            var iterator: AsyncStream<CLLocationUpdate>.Iterator?

            init(source: LiveUpdateSource?) {
                self.source = source
            }

            /// The next update; nil (the end) on no device or when the task is cancelled.
            public mutating func next() async throws -> CLLocationUpdate? {
                guard let source else { return nil }
                if iterator == nil { iterator = source.start().makeAsyncIterator() }
                return await iterator?.next()
            }
        }
    }
}

/// A device carried into ``CLLocationUpdate/Updates`` (used on its simulation's thread only).
struct CarriedDevice: @unchecked Sendable {
    let device: Device?
    init(_ device: Device?) { self.device = device }
}

/// The live updates of one iteration: follows the device's location and authorization.
final class LiveUpdateSource: @unchecked Sendable {
    private let device: Device
    private var tokens: [ObservationToken] = []
    private var stillSince: VirtualInstant?
    private var saidStationary = false
    private var continuation: AsyncStream<CLLocationUpdate>.Continuation?

    init?(device: Device?) {
        guard let device else { return nil }
        self.device = device
    }

    func start() -> AsyncStream<CLLocationUpdate> {
        let (stream, continuation) = AsyncStream.makeStream(of: CLLocationUpdate.self)
        self.continuation = continuation
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            // Cancelled from any thread: drop the observations on the simulation's.
            device.scheduling.executor.submit { self.tokens = [] }
        }
        let services = device.locationServices
        if services.status == .notDetermined {
            services.requestAuthorization(always: false)
            continuation.yield(CLLocationUpdate(authorizationRequestInProgress: true))
        } else if let refusal = refusalUpdate() {
            continuation.yield(refusal)
        }
        tokens.append(device.locationPrivacy.observe { [weak self] in
            guard let self, let refusal = refusalUpdate() else { return }
            self.continuation?.yield(refusal)
        })
        tokens.append(device.location.observe { [weak self] update in self?.received(update) })
        return stream
    }

    private func refusalUpdate() -> CLLocationUpdate? {
        let privacy = device.locationPrivacy
        if !privacy.servicesEnabled { return CLLocationUpdate(authorizationDenied: true, authorizationDeniedGlobally: true) }
        if privacy.restricted { return CLLocationUpdate(authorizationRestricted: true) }
        if privacy.appAuthorization == .denied { return CLLocationUpdate(authorizationDenied: true) }
        return nil
    }

    private func received(_ update: LocationUpdate) {
        guard device.locationServices.isAuthorized else { return }
        switch update {
        case .fix(let fix):
            let location = CLLocation(fix: fix, on: device)
            let accuracyLimited = !device.locationPrivacy.preciseLocation
            if let speed = fix.speed, speed < CLLocationUpdate.stationarySpeed {
                let since = stillSince ?? device.now
                stillSince = since
                if saidStationary { return }
                if device.now >= since.advanced(by: CLLocationUpdate.stationaryDuration) {
                    saidStationary = true
                    continuation?.yield(CLLocationUpdate(location: location, isStationary: true, accuracyLimited: accuracyLimited))
                    return
                }
            } else {
                stillSince = nil
                saidStationary = false
            }
            continuation?.yield(CLLocationUpdate(location: location, accuracyLimited: accuracyLimited))
        case .unavailable:
            continuation?.yield(CLLocationUpdate(locationUnavailable: true))
        case .satellites:
            break
        }
    }
}
