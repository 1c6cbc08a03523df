import CheckIn
import DeviceSim
import DeviceSimCoreLocation
import Foundation
import Synchronization

/// How scenario files run ``CheckInViewModel``: the view model is `@MainActor`, so the adapter says so
/// (`runsOnMainActor`), creates it there with the device's clock and starts it, as the app's screen
/// would. Everything else is the app's own code: `CLLocationManager`, `NWPathMonitor`, `URLSession.shared`
/// (to the scenario's `http-servers:`) and `UNUserNotificationCenter`, on the scenario's phone.
///
/// ```yaml
/// app:
///   name: check-in
///   settings: { cafe: cafe, beacon-uuid: F7826DA6-4FA2-4E98-8024-BC5B71E0893E, server: https://api.cafe.example }
/// ```
public final class CheckInScenarioApp: ScenarioApp {
    public struct Settings: Sendable {
        var cafe: GeoCoordinate
        var radius: Double
        var beaconUUID: UUID
        var server: URL
    }

    public static let name = "check-in"
    public static let settingKeys = ["cafe", "radius", "beacon-uuid", "server"]
    public static let actions: [String: [String]] = [:]
    public static let runsOnMainActor = true

    private let model: CheckInViewModel

    public static func parseSettings(_ settings: YAMLMapping?) throws(ScenarioError) -> Settings {
        guard let settings else { throw ScenarioError("check-in needs settings: cafe, beacon-uuid and server", at: nil) }
        let uuidNode = try settings.required("beacon-uuid")
        guard let uuid = UUID(uuidString: try uuidNode.string(what: "the café beacon's UUID")) else {
            throw uuidNode.error("expected a UUID such as F7826DA6-4FA2-4E98-8024-BC5B71E0893E")
        }
        let serverNode = try settings.required("server")
        guard let server = URL(string: try serverNode.string(what: "the server's URL")), server.host != nil else {
            throw serverNode.error("expected the server's URL, such as https://api.cafe.example")
        }
        return Settings(
            cafe: try settings.required("cafe").coordinate(),
            radius: try settings.optional("radius")?.double(what: "the café region's radius in metres") ?? 100,
            beaconUUID: uuid, server: server)
    }

    public static func parseAction(_ name: String, step: YAMLMapping) throws(ScenarioError) {}

    public init(context: ScenarioAppContext, settings: Settings) {
        let cafe = CheckInViewModel.Cafe(
            center: CLLocationCoordinate2D(latitude: settings.cafe.latitude, longitude: settings.cafe.longitude),
            radius: settings.radius, beaconUUID: settings.beaconUUID, server: settings.server)
        // Idempotency keys the same on every run (the app's default is a random UUID): check-in-1, check-in-2, ...
        let keys = KeySequence()
        model = context.onMainActor { context in
            let model = CheckInViewModel(cafe: cafe, clock: context.device.clock, makeKey: keys.next)
            model.start()
            return model
        }
    }

    public func perform(_ action: Void) {}

    public func stop() {
        MainActor.assumeIsolated { [model] in model.stop() }
    }
}

/// `check-in-1`, `check-in-2`, ...
final class KeySequence: Sendable {
    private let made = Mutex(0)

    @Sendable func next() -> String {
        made.withLock { made in
            made += 1
            return "check-in-\(made)"
        }
    }
}
