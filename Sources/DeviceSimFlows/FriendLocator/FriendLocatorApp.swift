import DeviceSimHAL
import DeviceSimTime

/// The device-facing flows of the friend-locator app (shared/seeds/friend-locator.md), written against
/// the HAL and the ``LocatorBackend`` protocol only, in async/await on the device's clock:
///
/// - **Show location to friends**, in the three privacy modes. Hotspots are detected through Wi-Fi
///   scans (``HotspotPresenceDetector``). On entering one: with *auto-ping* the app pings the chosen
///   group at once; without it, it asks by notification which group to inform, or none. Then it
///   locates the user precisely: with *auto-locate* through Bluetooth beacons; without it, it asks
///   "locate precisely?" and, on yes, "Bluetooth or manual pinning?". When Bluetooth fails (off, or no
///   beacon of the hotspot's fence within ``Settings/locateTimeout``) it offers manual pinning, if
///   ``Settings/manualPinning`` allows. Finally it syncs the location with the backend and pings the
///   group (again, with the better precision, when auto-ping already pinged).
/// - **Add a friend** by e-mail (found, or not found).
/// - **Find friends in my area** (none, or some shown on the map).
/// - **Turn off location tracking**: Bluetooth off, "quit" to the backend; success or the error.
/// - Pings from friends arrive as notifications.
///
/// Events (device's trace): `app.started`, `hotspot.entered`, `hotspot.left`, `ping.sent`,
/// `ping.declined`, `ping.failed`, `ping.received`, `locate.started`, `located`, `locate.failed`,
/// `locate.declined`, `location.synced`, `sync.failed`, `friend.added`, `friend.not-found`,
/// `friends.none`, `friends.shown`, `location.off`, `location.off-failed`, `app.error`.
///
/// ```swift
/// let app = FriendLocatorApp(device: alice, account: "alice", backend: backend, settings: .init(autoPing: true))
/// app.start()
/// try scheduler.run(for: .seconds(600))
/// ```
public final class FriendLocatorApp {
    /// The app's settings (its settings screen).
    public struct Settings: Sendable, Hashable {
        /// Ping the group at once when entering a hotspot (otherwise ask).
        public var autoPing = false
        /// Locate precisely through Bluetooth without asking.
        public var autoLocate = false
        /// The group auto-ping informs.
        public var group = "friends"
        /// Offer manual position pinning when Bluetooth cannot locate.
        public var manualPinning = true
        /// How long a prompt waits for an answer.
        public var promptTimeout: Duration = .seconds(60)
        /// How long Bluetooth ranging may take to find a beacon of the hotspot.
        public var locateTimeout: Duration = .seconds(60)
        /// Consecutive Wi-Fi sightings before a hotspot counts as entered.
        public var enterAfter = 2
        /// Consecutive Wi-Fi misses before it counts as left.
        public var leaveAfter = 3
        /// The weakest access point signal that counts as a sighting, dBm.
        public var minimumRSSI: Double = -70

        /// Settings; the defaults are the most private mode (ask for everything).
        public init(autoPing: Bool = false, autoLocate: Bool = false, group: String = "friends") {
            self.autoPing = autoPing
            self.autoLocate = autoLocate
            self.group = group
        }
    }

    /// The device.
    public let device: Device
    /// The user's account.
    public let account: String
    /// The server.
    public let backend: any LocatorBackend
    /// The settings.
    public let settings: Settings
    /// The hotspot the user is in, as the app last decided.
    public private(set) var currentHotspot: String?
    /// Whether location tracking is on (off after a successful "turn off location").
    public private(set) var isTrackingEnabled = true
    /// Friends shown on the map by the last "find friends in my area".
    public private(set) var friendsOnMap: [SharedLocation] = []
    /// The user's groups, as loaded at start.
    public private(set) var groups: [String] = []

    /// How long the app waits before loading hotspots again after a failure.
    static let loadRetry: Duration = .seconds(30)

    private var service: Task<Void, Never>?
    private var pingSubscription: Subscription?

    /// Creates the app; ``start()`` launches it.
    public init(device: Device, account: String, backend: any LocatorBackend, settings: Settings = Settings()) {
        self.device = device
        self.account = account
        self.backend = backend
        self.settings = settings
    }

    // MARK: User actions

    /// Launches the app: loads hotspots and groups, then watches Wi-Fi for hotspots; pings from
    /// friends arrive as notifications.
    public func start() {
        guard service == nil else { return }
        pingSubscription = backend.observePings(to: account) { [unowned self] notice in received(notice) }
        let app = bound
        service = device.scheduler.spawn { await app.value.watchHotspots() }
    }

    /// Stops watching (the app is closed).
    public func stop() {
        service?.cancel()
        service = nil
        pingSubscription = nil
    }

    /// "Manage friends", "+", an e-mail address.
    public func addFriend(email: String) {
        let app = bound
        device.scheduler.spawn { await app.value.performAddFriend(email: email) }
    }

    /// "Show friends in my area".
    public func findFriendsInArea() {
        let app = bound
        device.scheduler.spawn { await app.value.performFindFriends() }
    }

    /// "Turn off location".
    public func turnOffLocation() {
        let app = bound
        device.scheduler.spawn { await app.value.performTurnOff() }
    }

    private var bound: SimulationBound<FriendLocatorApp> { SimulationBound(self, executor: device.scheduler.executor) }

    // MARK: Hotspots

    private func watchHotspots() async {
        device.record("app.started", [
            ("account", .string(account)), ("auto-ping", .bool(settings.autoPing)), ("auto-locate", .bool(settings.autoLocate)),
            ("group", .string(settings.group)),
        ])
        var hotspots: [HotspotInfo] = []
        while true {
            do throws(BackendError) {
                hotspots = try await online().hotspots()
                groups = try await online().groups(of: account)
                break
            } catch {
                device.record("app.error", [("operation", .string("load")), ("reason", .string(error.description)), ("retry-in", .double(Self.loadRetry.inSeconds))])
            }
            do { try await device.clock.sleep(for: Self.loadRetry) } catch { return }
        }
        guard device.wifi != nil else {
            device.record("app.error", [("operation", .string("hotspot-detection")), ("reason", .string("the device has no Wi-Fi"))])
            return
        }
        var presence = HotspotPresenceDetector(
            hotspots: hotspots, enterAfter: settings.enterAfter, leaveAfter: settings.leaveAfter, minimumRSSI: settings.minimumRSSI)
        for await scan in device.wifiScans() {
            for change in presence.update(with: scan) {
                guard isTrackingEnabled, !Task.isCancelled else { continue }
                if change.entered { await entered(change.hotspot) } else { await left(change.hotspot) }
            }
        }
    }

    private func entered(_ hotspot: HotspotInfo) async {
        currentHotspot = hotspot.name
        device.record("hotspot.entered", [("hotspot", .string(hotspot.name))])
        var location = SharedLocation(account: account, hotspot: hotspot.name, coordinate: nil, precision: .hotspot)

        var group: String?
        if settings.autoPing {
            group = settings.group
            await sendPing(to: settings.group, location)
        } else {
            let answer = await ask(UserPrompt(
                id: "inform-group", message: "You entered \(hotspot.name). Inform a group about your presence?",
                choices: groups + ["no"]))
            if let answer, answer != "no" {
                group = answer
            } else {
                device.record("ping.declined", [("hotspot", .string(hotspot.name)), ("answer", .string(answer ?? "none"))])
            }
        }

        if settings.autoLocate {
            location = await locateThroughBluetooth(in: hotspot) ?? location
        } else {
            let answer = await ask(UserPrompt(id: "locate-precisely", message: "Locate you precisely in \(hotspot.name)?", choices: ["yes", "no"]))
            if answer == "yes" {
                let method = await ask(UserPrompt(
                    id: "locate-method", message: "Locate you through Bluetooth or by pinning your position on the map?",
                    choices: ["bluetooth", "manual"]))
                switch method {
                case "bluetooth": location = await locateThroughBluetooth(in: hotspot) ?? location
                case "manual": location = await pinManually(in: hotspot) ?? location
                default: device.record("locate.declined", [("hotspot", .string(hotspot.name)), ("answer", .string("none"))])
                }
            } else {
                device.record("locate.declined", [("hotspot", .string(hotspot.name)), ("answer", .string(answer ?? "none"))])
            }
        }

        guard isTrackingEnabled else { return }
        await sync(location)
        if let group, !settings.autoPing || location.precision != .hotspot {
            await sendPing(to: group, location)
        }
    }

    private func left(_ hotspot: HotspotInfo) async {
        if currentHotspot == hotspot.name { currentHotspot = nil }
        device.record("hotspot.left", [("hotspot", .string(hotspot.name))])
        await sync(SharedLocation(account: account, hotspot: nil, coordinate: nil, precision: .hotspot))
    }

    // MARK: Locating

    private func locateThroughBluetooth(in hotspot: HotspotInfo) async -> SharedLocation? {
        device.record("locate.started", [("hotspot", .string(hotspot.name)), ("method", .string("bluetooth"))])
        let outcome = await rangeBeacon(of: hotspot)
        switch outcome {
        case .success(let sighting):
            device.record("located", [
                ("hotspot", .string(hotspot.name)), ("method", .string("bluetooth")), ("beacon", .string(sighting.beacon.description)),
                ("distance", .double(sighting.estimatedDistance)), ("proximity", .string(sighting.proximity.rawValue)),
            ])
            return SharedLocation(account: account, hotspot: hotspot.name, coordinate: hotspot.beacons[sighting.beacon], precision: .beacon)
        case .failure(let reason):
            device.record("locate.failed", [("hotspot", .string(hotspot.name)), ("method", .string("bluetooth")), ("reason", .string(reason.rawValue))])
            return settings.manualPinning ? await pinManually(in: hotspot) : nil
        }
    }

    private enum RangingFailure: String, Error {
        case bluetoothOff = "bluetooth-off"
        case noBeacons = "no-beacons-in-hotspot"
        case timeout = "no-beacon-in-range"
        case cancelled
    }

    private func rangeBeacon(of hotspot: HotspotInfo) async -> Result<BeaconSighting, RangingFailure> {
        guard let ranging = device.beacons, ranging.isEnabled else { return .failure(.bluetoothOff) }
        guard !hotspot.beacons.isEmpty else { return .failure(.noBeacons) }
        let scheduler = device.scheduler
        let timeout = settings.locateTimeout
        return await waitForCallback(on: scheduler.executor, cancelled: .failure(.cancelled)) { finish in
            let subscription = ranging.observeRanging { report in
                if let sighting = report.first(where: { hotspot.beacons[$0.beacon] != nil }) { finish(.success(sighting)) }
            }
            let timer = scheduler.schedule(after: timeout) { finish(.failure(ranging.isEnabled ? .timeout : .bluetoothOff)) }
            return {
                subscription.cancel()
                timer.cancel()
            }
        }
    }

    private func pinManually(in hotspot: HotspotInfo) async -> SharedLocation? {
        let answer = await ask(UserPrompt(id: "pin-position", message: "Pin your position on the map of \(hotspot.name)?", choices: ["pin", "cancel"]))
        guard answer == "pin" else {
            device.record("locate.declined", [("hotspot", .string(hotspot.name)), ("method", .string("manual")), ("answer", .string(answer ?? "none"))])
            return nil
        }
        let coordinate = device.location.currentFix?.coordinate ?? hotspot.center
        device.record("located", [
            ("hotspot", .string(hotspot.name)), ("method", .string("manual")),
            ("lat", .double(coordinate.latitude)), ("lon", .double(coordinate.longitude)),
        ])
        return SharedLocation(account: account, hotspot: hotspot.name, coordinate: coordinate, precision: .manual)
    }

    // MARK: Backend

    private func sendPing(to group: String, _ location: SharedLocation) async {
        do throws(BackendError) {
            let recipients = try await online().ping(from: location.account, group: group, location: location)
            device.record("ping.sent", [
                ("group", .string(group)), ("recipients", .string(recipients.joined(separator: ","))),
                ("hotspot", location.hotspot.map(TraceValue.string) ?? .null), ("precision", .string(location.precision.rawValue)),
            ])
        } catch {
            device.record("ping.failed", [("group", .string(group)), ("reason", .string(error.description))])
        }
    }

    private func sync(_ location: SharedLocation) async {
        do throws(BackendError) {
            try await online().updateLocation(location)
            device.record("location.synced", [
                ("hotspot", location.hotspot.map(TraceValue.string) ?? .null), ("precision", .string(location.precision.rawValue)),
            ])
        } catch {
            device.record("sync.failed", [("reason", .string(error.description))])
        }
    }

    private func received(_ notice: PingNotice) {
        let place = notice.location.hotspot ?? "somewhere"
        device.record("ping.received", [
            ("from", .string(notice.from)), ("group", .string(notice.group)), ("hotspot", .string(place)),
            ("precision", .string(notice.location.precision.rawValue)),
        ])
        device.notifications?.notify(id: "ping", message: "\(notice.from) is at \(place)")
    }

    private func performAddFriend(email: String) async {
        do throws(BackendError) {
            let friend = try await online().addFriend(email: email, to: account)
            device.record("friend.added", [("friend", .string(friend)), ("email", .string(email)), ("group", .string("friends"))])
        } catch .notFound {
            device.record("friend.not-found", [("email", .string(email)), ("message", .string(BackendError.notFound(email: email).description))])
        } catch {
            device.record("app.error", [("operation", .string("add-friend")), ("reason", .string(error.description))])
        }
    }

    private func performFindFriends() async {
        do throws(BackendError) {
            let friends = try await online().friendsInArea(of: account)
            friendsOnMap = friends
            if friends.isEmpty {
                device.record("friends.none", [("message", .string("none of your friends who share their location is around"))])
            } else {
                device.record("friends.shown", [
                    ("count", .int(friends.count)),
                    ("friends", .string(friends.map { "\($0.account)@\($0.hotspot ?? "?")" }.joined(separator: ","))),
                ])
            }
        } catch {
            device.record("app.error", [("operation", .string("friends-in-area")), ("reason", .string(error.description))])
        }
    }

    private func performTurnOff() async {
        if let bluetooth = device.beacons, bluetooth.isEnabled {
            bluetooth.isEnabled = false
            device.record("bluetooth.disabled", [("by", .string("app"))])
        }
        do throws(BackendError) {
            try await online().quit(account)
            isTrackingEnabled = false
            currentHotspot = nil
            device.record("location.off", [("message", .string("Location tracking is off; your last location was deleted"))])
        } catch {
            device.record("location.off-failed", [("reason", .string(error.description))])
        }
    }

    // MARK: Helpers

    /// The backend, for a request; refused at once while the device is offline.
    private func online() throws(BackendError) -> any LocatorBackend {
        if device.connectivity?.state == .offline { throw .unreachable }
        return backend
    }

    private func ask(_ prompt: UserPrompt) async -> String? {
        guard let notifications = device.notifications else { return nil }
        let timeout = settings.promptTimeout
        return await waitForCallback(on: device.scheduler.executor, cancelled: nil) { finish in
            notifications.ask(prompt, timeout: timeout) { finish($0) }
            return nil
        }
    }
}
