// App code written from Apple's iOS 17 documentation (CLLocationUpdate, CLMonitor): nothing here knows DeviceSim.
#if canImport(CoreLocation) && !DEVICESIM
import CoreLocation
#else
import DeviceSimCoreLocation
#endif
import Foundation

/// Follows the user with live updates and tells whether they are at the café, with a `CLMonitor`.
@MainActor final class LiveLocationModel {
    static let cafe = CLLocationCoordinate2D(latitude: 52.5200, longitude: 13.4050)

    private(set) var lastLocation: CLLocation?
    private(set) var locationCount = 0
    private(set) var isStationary = false
    private(set) var waitingForAuthorization = false
    private(set) var atCafe: CLMonitor.Event.State = .unknown
    private var tasks: [Task<Void, Never>] = []

    func startLiveUpdates() {
        tasks.append(Task {
            do {
                for try await update in CLLocationUpdate.liveUpdates() {
                    waitingForAuthorization = update.authorizationRequestInProgress
                    isStationary = update.isStationary
                    if let location = update.location {
                        lastLocation = location
                        locationCount += 1
                    }
                }
            } catch {
                lastLocation = nil
            }
        })
    }

    func startMonitoringTheCafe() {
        tasks.append(Task {
            let monitor = await CLMonitor("places")
            await monitor.add(CLMonitor.CircularGeographicCondition(center: Self.cafe, radius: 100), identifier: "cafe", assuming: .unsatisfied)
            do {
                for try await event in await monitor.events where event.identifier == "cafe" {
                    atCafe = event.state
                }
            } catch {
                atCafe = .unknown
            }
        })
    }

    func stop() {
        tasks.forEach { $0.cancel() }
        tasks = []
    }
}
