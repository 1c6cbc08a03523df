#if canImport(CoreLocation) && !DEVICESIM
import CoreLocation
#else
import DeviceSimCoreLocation
#endif
#if canImport(Network) && !DEVICESIM
import Network
#else
import DeviceSimNetwork
#endif
#if canImport(UserNotifications) && !DEVICESIM
import UserNotifications
#else
import DeviceSimUserNotifications
#endif
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Observation

/// Checks the user in at a café after three minutes there: once per visit, even when the phone is
/// offline (the check-in waits for the network and is sent with the same idempotency key until the
/// server answers), with a local notification once it is done. Written as an iOS app writes it:
/// `CLLocationManager` region monitoring and beacon ranging, `NWPathMonitor`, `URLSession`,
/// `UNUserNotificationCenter`, all from a `@MainActor` view model.
@MainActor @Observable
public final class CheckInViewModel: NSObject {
    /// What the screen shows.
    public enum Status: Equatable, Sendable {
        /// Not started, or stopped.
        case idle
        /// The user has not allowed location access (or refused it).
        case locationDenied
        /// Away from the café.
        case away
        /// At the café (its beacon is near) since the visit began; the check-in follows after the dwell time.
        case atCafe
        /// Checked in for this visit (sent, or waiting for the network).
        case checkedIn
    }

    /// What the screen shows.
    public private(set) var status: Status = .idle
    /// Whether the phone has a usable network path.
    public private(set) var isOnline = true
    /// The check-in waiting to be sent (its idempotency key), if any.
    public private(set) var pendingCheckIn: String?
    /// Check-ins the server confirmed.
    public private(set) var confirmedCheckIns = 0

    /// The café's region, ranged beacon and server.
    public struct Cafe: Sendable {
        public var center: CLLocationCoordinate2D
        public var radius: CLLocationDistance
        public var beaconUUID: UUID
        public var server: URL
        public init(center: CLLocationCoordinate2D, radius: CLLocationDistance = 100, beaconUUID: UUID, server: URL) {
            self.center = center
            self.radius = radius
            self.beaconUUID = beaconUUID
            self.server = server
        }
    }

    /// How long the user must stay before the check-in.
    public static let dwellTime: Duration = .seconds(180)

    private let cafe: Cafe
    private let clock: any Clock<Duration>
    private let session: URLSession
    private let makeKey: @Sendable () -> String
    private let locationManager = CLLocationManager()
    private let pathMonitor = NWPathMonitor()
    private var dwell: Task<Void, Never>?
    private var sending: Task<Void, Never>?
    private var checkedInThisVisit = false
    private var region: CLCircularRegion {
        CLCircularRegion(center: cafe.center, radius: cafe.radius, identifier: "cafe")
    }
    private var beaconConstraint: CLBeaconIdentityConstraint { CLBeaconIdentityConstraint(uuid: cafe.beaconUUID) }

    /// Creates the view model; `clock` times the dwell and the retries (`ContinuousClock()` on a phone).
    public init(
        cafe: Cafe, clock: any Clock<Duration> = ContinuousClock(), session: URLSession = .shared,
        makeKey: @escaping @Sendable () -> String = { UUID().uuidString }
    ) {
        self.cafe = cafe
        self.clock = clock
        self.session = session
        self.makeKey = makeKey
        super.init()
    }

    /// Starts watching: asks for location and notification permission, monitors the café.
    public func start() {
        locationManager.delegate = self
        pathMonitor.pathUpdateHandler = { [weak self] path in
            let online = path.status == .satisfied
            MainActor.assumeIsolated { self?.networkChanged(online: online) }
        }
        pathMonitor.start(queue: .main)
        UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .sound]) { _, _ in }
        authorizationChanged(locationManager.authorizationStatus)
    }

    /// Stops everything (the screen went away).
    public func stop() {
        locationManager.stopMonitoring(for: region)
        locationManager.stopRangingBeacons(satisfying: beaconConstraint)
        pathMonitor.cancel()
        dwell?.cancel()
        sending?.cancel()
        status = .idle
    }

    // MARK: The flow

    private func authorizationChanged(_ authorization: CLAuthorizationStatus) {
        switch authorization {
        case .notDetermined:
            locationManager.requestAlwaysAuthorization()
        case .authorizedAlways, .authorizedWhenInUse:
            guard status == .idle || status == .locationDenied else { return }
            status = .away
            locationManager.startMonitoring(for: region)
            locationManager.requestState(for: region)
        default:
            dwell?.cancel()
            dwell = nil
            status = .locationDenied
        }
    }

    private func regionChanged(inside: Bool) {
        if inside {
            locationManager.startRangingBeacons(satisfying: beaconConstraint)
        } else {
            locationManager.stopRangingBeacons(satisfying: beaconConstraint)
            leave()
        }
    }

    private func beaconChanged(near: Bool) {
        if near {
            guard status == .away else { return }
            status = .atCafe
            dwell = Task { [clock] in
                do { try await clock.sleep(for: Self.dwellTime) } catch { return }
                self.dwellEnded()
            }
        } else if status == .atCafe {
            leave()
        }
    }

    private func leave() {
        dwell?.cancel()
        dwell = nil
        checkedInThisVisit = false
        if status == .atCafe || status == .checkedIn { status = .away }
    }

    private func dwellEnded() {
        guard status == .atCafe, !checkedInThisVisit else { return }
        checkedInThisVisit = true
        status = .checkedIn
        pendingCheckIn = makeKey()
        send()
    }

    private func networkChanged(online: Bool) {
        isOnline = online
        if online { send() }
    }

    /// Sends the pending check-in unless it is on its way, with the same idempotency key on every try;
    /// retries every 30 s while it fails and the phone is online (going online again resumes it).
    private func send() {
        guard pendingCheckIn != nil, isOnline, sending == nil else { return }
        sending = Task {
            while let key = pendingCheckIn, isOnline, !Task.isCancelled {
                if await post(key: key) {
                    confirmedCheckIns += 1
                    pendingCheckIn = nil
                    notifyCheckedIn()
                    break
                }
                do { try await clock.sleep(for: .seconds(30)) } catch { break }
            }
            sending = nil
        }
    }

    /// POSTs the check-in; true when the server accepted it (2xx).
    private func post(key: String) async -> Bool {
        var request = URLRequest(url: cafe.server.appendingPathComponent("check-ins"))
        request.httpMethod = "POST"
        request.setValue(key, forHTTPHeaderField: "Idempotency-Key")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"venue":"cafe"}"#.utf8)
        request.timeoutInterval = 15
        do {
            let (_, response) = try await session.data(for: request)
            return (response as? HTTPURLResponse).map { (200..<300).contains($0.statusCode) } ?? false
        } catch {
            return false
        }
    }

    private func notifyCheckedIn() {
        let content = UNMutableNotificationContent()
        content.title = "Checked in"
        content.body = "You are checked in at the café."
        let request = UNNotificationRequest(identifier: "checked-in", content: content, trigger: nil)
        UNUserNotificationCenter.current().add(request) { _ in }
    }
}

// Delegate calls arrive on the main thread: the manager is created there.
extension CheckInViewModel: @preconcurrency CLLocationManagerDelegate {
    public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        authorizationChanged(manager.authorizationStatus)
    }

    public func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion) {
        guard state != .unknown else { return }
        regionChanged(inside: state == .inside)
    }

    public func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {
        regionChanged(inside: true)
    }

    public func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {
        regionChanged(inside: false)
    }

    public func locationManager(_ manager: CLLocationManager, didRange beacons: [CLBeacon], satisfying beaconConstraint: CLBeaconIdentityConstraint) {
        beaconChanged(near: beacons.contains { $0.proximity == .immediate || $0.proximity == .near })
    }

    public func locationManager(_ manager: CLLocationManager, didFailRangingFor beaconConstraint: CLBeaconIdentityConstraint, error: any Error) {
        beaconChanged(near: false)
    }

    public func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error) {
        leave()
    }

    public func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {}
}
