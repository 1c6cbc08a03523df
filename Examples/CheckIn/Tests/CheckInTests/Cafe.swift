import CheckIn
import DeviceSim
import DeviceSimCoreLocation
import Foundation

/// The café of the tests: its centre, its counter's iBeacon 20 m east, a street 600 m west.
enum Cafe {
    static let center = GeoCoordinate(latitude: 52.5200, longitude: 13.4050)
    static let counterPosition = center.destination(distance: 20, bearing: 90)
    static let beaconUUID = UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!
    static let counter = BeaconIdentifier.iBeacon(uuid: beaconUUID.uuidString, major: 1, minor: 7)
    static let world = World(beacons: [Beacon(id: counter, position: counterPosition)])
    /// 600 m west: outside the 100 m region by more than the 200 m margin.
    static let street = center.destination(distance: 600, bearing: 270)
    /// At the counter, just beside the beacon.
    static let atCounter = counterPosition.offsetBy(east: -0.5, north: 0)

    static let settings = CheckInViewModel.Cafe(
        center: CLLocationCoordinate2D(latitude: center.latitude, longitude: center.longitude),
        radius: 100, beaconUUID: beaconUUID, server: URL(string: "https://api.cafe.example")!
    )
}

/// Idempotency keys handed out in order ("key-1", "key-2", ...), counting how many the model made.
final class KeyMaker: @unchecked Sendable {
    private let lock = NSLock()
    private var made = 0
    var count: Int { lock.withLock { made } }
    func make() -> String { lock.withLock { made += 1; return "key-\(made)" } }
}
