import DeviceSimHAL
import DeviceSimServer
import DeviceSimTime

/// The device-facing flows of the friend-locator app (its document: "Friend locator" use cases),
/// written against the HAL and the ``LocatorBackend`` protocol only, in async/await on the device's
/// clock:
///
/// - **Register as user**: with ``Settings/signedIn`` false the app opens on its sign-up screen;
///   ``signUp(email:)`` logs in through the federation provider, shows the answer, and on success goes
///   on to the main part (below).
/// - **Show location to friends**, in the three privacy modes. Hotspots are detected through Wi-Fi
///   scans and, with a location fix, their areas (``HotspotPresenceDetector``); the user can be in
///   several overlapping hotspots at once, and her location is the one she entered last of those she
///   is in. Each entry is a *visit* handled at once, in a task of its own: with *auto-ping* the app
///   pings the chosen group; without it, it asks by notification which group to inform, or none. Then
///   it locates the user precisely: with *auto-locate* through Bluetooth beacons; without it, it asks
///   "locate precisely?" and, on yes, "Bluetooth or manual pinning?". When Bluetooth fails (off, or no
///   beacon of the hotspot's fence within ``Settings/locateTimeout``) it offers manual pinning, if
///   ``Settings/manualPinning`` allows. Finally it syncs the location with the backend and pings the
///   group (again, with the better precision, when auto-ping already pinged). Leaving a hotspot ends
///   its visit (its open prompts are withdrawn) and syncs where she still is.
/// - **Sharing off**: when the account does not share its location, nothing of it leaves the device
///   (`location.withheld`): no prompts, no pings, no syncs.
/// - **Offline**: a sync or ping that cannot reach the server is queued and sent when the device is
///   back online (the newest location wins; a ping about a hotspot she has left is dropped).
/// - **Add a friend** by e-mail (found, or not found).
/// - **Find friends in my area** (none, or some shown on the map), within ``Settings/area``.
/// - **Turn off location tracking**: Bluetooth off, "quit" to the backend; success or the error.
/// - Pings from friends arrive as notifications.
/// - **Nothing lost**: each ping and location sync carries a request id that every attempt keeps; a
///   request whose connection dropped is sent again after the timeout (the backend answers a repeated
///   id as before). Who is signed in, whether tracking is off, what waits to be sent and how far the
///   visit of each hotspot she is in got live in a ``FriendLocatorStore``: a restarted app goes on
///   from there. A visit a restarted app finds her still in (entered within its first `leaveAfter`
///   scans) goes on where it was (`hotspot.entered` with `resumed: true`: her friends are not pinged
///   twice; a visit whose "inform a group?" was showing is asked again); one she is no longer in is left (`hotspot.left` with `while: closed`) and where she is
///   now synced.
///
/// Events (device's trace): `app.started`, `signup.shown`, `signed-up`, `sign-up.failed`,
/// `hotspot.entered`, `hotspot.left`, `location.withheld`, `ping.sent`, `ping.declined`, `ping.failed`,
/// `ping.dropped`, `ping.received`, `locate.started`, `located`, `locate.failed`, `locate.declined`,
/// `location.synced`, `sync.failed`, `friend.added`, `friend.not-found`, `friends.none`,
/// `friends.shown`, `location.off`, `location.off-failed`, `app.error`.
///
/// ```swift
/// let app = FriendLocatorApp(device: alice, account: "alice", backend: backend, settings: .init(autoPing: true))
/// app.start()
/// try scheduler.run(for: .seconds(600))
/// ```
public final class FriendLocatorApp {
    /// Which friends "Show friends in my area" shows.
    public enum FriendsArea: Sendable, Hashable, CustomStringConvertible {
        /// Friends in any hotspot (the document's literal reading).
        case any
        /// Friends in a hotspot whose centre (or their pinned position) is within this many metres of
        /// the user (her fix, or the hotspot she is in).
        case within(metres: Double)

        public var description: String {
            switch self {
            case .any: "any"
            case .within(let metres): "\(TraceValue.format(metres))m"
            }
        }
    }

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
        /// Which friends "Show friends in my area" shows (default: within 1 km).
        public var area: FriendsArea = .within(metres: 1000)
        /// Whether the user is already signed in when the app starts (false: the sign-up screen).
        public var signedIn = true

        /// Settings; the defaults are the most private mode (ask for everything).
        public init(autoPing: Bool = false, autoLocate: Bool = false, group: String = "friends") {
            self.autoPing = autoPing
            self.autoLocate = autoLocate
            self.group = group
        }
    }

    /// The device.
    public let device: Device
    /// The user's account (after sign-up: the one the federation provider returned).
    public private(set) var account: String
    /// The server.
    public let backend: any LocatorBackend
    /// The settings.
    public let settings: Settings
    /// The hotspots the user is in, as the app last decided, in the order she entered them.
    public private(set) var insideHotspots: [HotspotInfo] = []
    /// The hotspot that is her location: the one she entered last of those she is in.
    public var currentHotspot: String? { insideHotspots.last?.name }
    /// Whether location tracking is on (off after a successful "turn off location").
    public private(set) var isTrackingEnabled = true
    /// Whether the account shares its location, as loaded at start (nothing leaves the device when not).
    public private(set) var isSharing = true
    /// Whether the user is signed in.
    public private(set) var isSignedIn: Bool
    /// Friends shown on the map by the last "find friends in my area".
    public private(set) var friendsOnMap: [SharedLocation] = []
    /// The user's groups, as loaded at start.
    public private(set) var groups: [String] = []
    /// The hotspots, as loaded at start.
    public private(set) var hotspots: [HotspotInfo] = []

    /// How long the app waits before loading hotspots again after a failure.
    static let loadRetry: Duration = .seconds(30)

    private var service: Task<Void, Never>?
    private var pingSubscription: ObservationToken?
    private var connectivitySubscription: ObservationToken?
    /// The visit of each hotspot she is in (prompts, locating), by hotspot name.
    private var visits: [String: Task<Void, Never>] = [:]
    /// How far the visit of each hotspot she is in got (saved), in the order entered.
    private var visitProgress: [FriendLocatorLocalState.Visit] = []
    /// The visits of the last launch not yet found again by this one (a restarted app).
    private var visitsToResume: [String: FriendLocatorLocalState.Visit] = [:]
    private var outbox = Outbox()

    /// Where the app keeps who is signed in, whether tracking is off, and what waits to be sent.
    public let store: any FriendLocatorStore
    /// Numbers the requests of this launch (their ids also carry the device and the instant).
    private var requestCount = 0

    /// Creates the app; ``start()`` launches it. With `restoring` (a relaunch) it loads what `store`
    /// saved (a restarted app goes on signed in as it was, with tracking as it was and what was not
    /// sent yet), and with nothing saved it starts from `settings` and saves that. Without it (a first
    /// launch) it starts from `settings` and touches the store only when it has something to keep,
    /// so a fleet of devices that never queue anything opens no database.
    public init(
        device: Device, account: String, backend: any LocatorBackend, settings: Settings = Settings(),
        store: any FriendLocatorStore = InMemoryFriendLocatorStore(), restoring: Bool = true
    ) {
        self.device = device
        self.account = account
        self.backend = backend
        self.settings = settings
        self.store = store
        self.isSignedIn = settings.signedIn
        guard restoring else { return }
        do {
            if let saved = try store.load() {
                if let savedAccount = saved.account {
                    self.account = savedAccount
                    isSignedIn = true
                } else {
                    isSignedIn = false
                }
                isTrackingEnabled = !saved.trackingOff
                outbox = Outbox(restoring: saved.queued)
                visitProgress = saved.visits
                visitsToResume = Dictionary(saved.visits.map { ($0.hotspot, $0) }, uniquingKeysWith: { _, last in last })
            } else {
                persist()
            }
        } catch {
            device.record("storage.failed", [("operation", .string("load")), ("reason", .string(error.description))])
        }
    }

    // MARK: User actions

    /// Launches the app: signed in, it loads hotspots, groups and the sharing state, then watches
    /// Wi-Fi for hotspots, and pings from friends arrive as notifications; signed out, it shows the
    /// sign-up screen.
    public func start() {
        guard service == nil, !isShowingSignUp else { return }
        guard isSignedIn else {
            isShowingSignUp = true
            device.record("app.started", [("signed-in", .bool(false))])
            device.record("signup.shown", [("message", .string("Sign up with your university account"))])
            return
        }
        pingSubscription = backend.observePings(to: account) { [unowned self] notice in received(notice) }
        connectivitySubscription = device.connectivity?.observe { [unowned self] state in
            if state == .online { flushOutbox() }
        }
        let app = bound
        service = device.scheduler.spawn { await app.value.watchHotspots() }
        // A restarted app sends what the last launch could not.
        if device.connectivity?.state != .offline { flushOutbox() }
    }

    private var isShowingSignUp = false
    /// Whether ``stop()`` was called.
    public private(set) var isStopped = false
    /// The tasks of user actions and requests not finished yet, oldest first, each with its number,
    /// cancelled when the app stops. A task takes itself off when it returns: a finished task kept
    /// here would keep its memory for the rest of the run (a few kilobytes a ping, at every device).
    private var requests: [(number: Int, task: Task<Void, Never>)] = []
    private var requestsStarted = 0

    /// Runs `operation` as a task of the app (nothing once stopped).
    private func spawn(_ operation: @escaping @Sendable (FriendLocatorApp) async -> Void) {
        guard !isStopped else { return }
        let app = bound
        requestsStarted += 1
        let number = requestsStarted
        requests.removeAll { $0.task.isCancelled }
        requests.append((number, device.scheduler.spawn {
            await operation(app.value)
            app.value.requests.removeAll { $0.number == number }
        }))
    }
    /// Stops watching (the app is closed, killed or restarted): its requests are abandoned and it
    /// touches nothing afterwards; a new app on the device loads what was saved.
    public func stop() {
        isStopped = true
        for (_, task) in requests { task.cancel() }
        requests = []
        service?.cancel()
        service = nil
        for visit in visits.values { visit.cancel() }
        visits = [:]
        pingSubscription = nil
        connectivitySubscription = nil
    }

    /// "Sign up" on the sign-up screen, with the user's university e-mail address.
    public func signUp(email: String) {
        spawn { await $0.performSignUp(email: email) }
    }

    /// "Manage friends", "+", an e-mail address.
    public func addFriend(email: String) {
        guard isSignedIn else { return ignoredWhileSignedOut("add-friend") }
        spawn { await $0.performAddFriend(email: email) }
    }

    /// "Show friends in my area".
    public func findFriendsInArea() {
        guard isSignedIn else { return ignoredWhileSignedOut("find-friends") }
        spawn { await $0.performFindFriends() }
    }

    /// "Turn off location".
    public func turnOffLocation() {
        guard isSignedIn else { return ignoredWhileSignedOut("turn-off-location") }
        spawn { await $0.performTurnOff() }
    }

    /// An action of the main part while the sign-up screen shows: nobody is signed in, so nothing is
    /// asked of the backend (`action.ignored`, so that a scenario's author sees why nothing happened).
    private func ignoredWhileSignedOut(_ action: String) {
        guard !isStopped else { return }
        device.record("action.ignored", [("action", .string(action)), ("reason", .string("no one is signed in (the sign-up screen shows): sign up first"))])
    }

    private var bound: SimulationBound<FriendLocatorApp> { SimulationBound(self, executor: device.scheduler.executor) }

    // MARK: Signing up

    private func performSignUp(email: String) async {
        guard !isSignedIn else {
            device.record("sign-up.failed", [("email", .string(email)), ("message", .string("already signed in as \(account)"))])
            return
        }
        do throws(BackendError) {
            account = try await online().signUp(email: email)
            guard !isStopped else { return }
            isSignedIn = true
            isShowingSignUp = false
            persist()
            device.record("signed-up", [("account", .string(account)), ("email", .string(email)), ("message", .string("Welcome, \(account): you are signed in"))])
            start()
        } catch {
            device.record("sign-up.failed", [("email", .string(email)), ("message", .string(error.description))])
        }
    }

    // MARK: Hotspots

    private func watchHotspots() async {
        device.record("app.started", [
            ("account", .string(account)), ("auto-ping", .bool(settings.autoPing)), ("auto-locate", .bool(settings.autoLocate)),
            ("group", .string(settings.group)),
        ])
        while true {
            do throws(BackendError) {
                hotspots = try await online().hotspots()
                groups = try await online().groups(of: account)
                isSharing = try await online().isSharing(account)
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
        var newScans = 0
        for await scan in device.wifiScans() {
            for change in presence.update(with: scan, fix: device.location.currentFix) {
                guard isTrackingEnabled, !Task.isCancelled else { continue }
                if change.entered { entered(change.hotspot) } else { left(change.hotspot) }
            }
            if scan.resultsUpdated, !visitsToResume.isEmpty {
                newScans += 1
                if newScans >= max(settings.leaveAfter, settings.enterAfter), isTrackingEnabled, !Task.isCancelled { leftWhileClosed() }
            }
        }
    }

    /// The visits of the last launch that this one did not find her in again: she left while the app
    /// was not running. Each is left now, and where she is now synced.
    private func leftWhileClosed() {
        let gone = visitProgress.filter { visitsToResume[$0.hotspot] != nil }
        visitsToResume = [:]
        guard !gone.isEmpty else { return }
        visitProgress.removeAll { gone.contains($0) }
        for visit in gone {
            device.record("hotspot.left", [("hotspot", .string(visit.hotspot)), ("while", .string("closed"))])
        }
        guard isSharing else { return persist() }
        syncSaved(SharedLocation(account: account, hotspot: currentHotspot, coordinate: nil, precision: .hotspot))
    }

    /// An entry: recorded at once; its visit (prompts, locating, sync, ping) runs in a task of its own.
    private func entered(_ hotspot: HotspotInfo) {
        insideHotspots.append(hotspot)
        let resumed = visitsToResume.removeValue(forKey: hotspot.name)
        device.record("hotspot.entered", [("hotspot", .string(hotspot.name))] + (resumed == nil ? [] : [("resumed", .bool(true))]))
        guard isSharing else {
            device.record("location.withheld", [("hotspot", .string(hotspot.name)), ("reason", .string("location sharing is off for \(account)"))])
            return
        }
        if resumed?.isComplete == true { return }
        let app = bound
        visits[hotspot.name] = device.scheduler.spawn { await app.value.visit(hotspot, resuming: resumed) }
    }

    /// Saves how far the visit of `hotspot` got.
    private func saveProgress(of hotspot: String, group: String?, isComplete: Bool, isGroupAnswered: Bool = true) {
        let progress = FriendLocatorLocalState.Visit(hotspot: hotspot, group: group, isComplete: isComplete, isGroupAnswered: isGroupAnswered)
        if let index = visitProgress.firstIndex(where: { $0.hotspot == hotspot }) {
            visitProgress[index] = progress
        } else {
            visitProgress.append(progress)
        }
        persist()
    }

    /// An exit: ends the hotspot's visit (its open prompts are withdrawn), drops pings about it still
    /// waiting to be sent, and syncs where she still is.
    private func left(_ hotspot: HotspotInfo) {
        insideHotspots.removeAll { $0.name == hotspot.name }
        device.record("hotspot.left", [("hotspot", .string(hotspot.name))])
        visits.removeValue(forKey: hotspot.name)?.cancel()
        visitProgress.removeAll { $0.hotspot == hotspot.name }
        for ping in outbox.dropPings(about: hotspot.name) {
            device.record("ping.dropped", [
                ("group", .string(ping.group)), ("hotspot", .string(hotspot.name)), ("reason", .string("left \(hotspot.name) before it could be sent")),
            ])
        }
        guard isSharing else { return }
        syncSaved(SharedLocation(account: account, hotspot: currentHotspot, coordinate: nil, precision: .hotspot))
    }

    /// Syncs `location` in a task of its own, saved first as on its way (with what else changed), so
    /// that an app killed before the answer sends it again when it is restarted.
    private func syncSaved(_ location: SharedLocation) {
        let version = outbox.nextVersion()
        let requestID = newRequestID("sync")
        outbox.sending(sync: Outbox.Sync(location: location, version: version, attempts: 1, requestID: requestID))
        persist()
        spawn { await $0.sync(location, version: version, requestID: requestID) }
    }

    /// A hotspot's visit; `resuming`: the visit a killed app had begun (its group question is behind it).
    private func visit(_ hotspot: HotspotInfo, resuming: FriendLocatorLocalState.Visit? = nil) async {
        var location = SharedLocation(account: account, hotspot: hotspot.name, coordinate: nil, precision: .hotspot)

        var group: String?
        if let resuming, resuming.isGroupAnswered {
            group = resuming.group
        } else if settings.autoPing {
            group = settings.group
            send(ping: settings.group, location)
        } else {
            // Begun before it is asked: an app killed while the question shows resumes this visit.
            if resuming == nil { saveProgress(of: hotspot.name, group: nil, isComplete: false, isGroupAnswered: false) }
            guard !isStopped else { return }   // killed while saving
            let answer = await ask(UserPrompt(
                id: "inform-group", message: "You entered \(hotspot.name). Inform a group about your presence?",
                choices: groups + ["no"]))
            if Task.isCancelled { return }
            if let answer, answer != "no" {
                group = answer
            } else {
                device.record("ping.declined", [("hotspot", .string(hotspot.name)), ("answer", .string(answer ?? "none"))])
            }
        }
        if resuming?.isGroupAnswered != true { saveProgress(of: hotspot.name, group: group, isComplete: false) }
        guard !isStopped else { return }   // killed while saving

        if settings.autoLocate {
            location = await locateThroughBluetooth(in: hotspot) ?? location
        } else {
            let answer = await ask(UserPrompt(id: "locate-precisely", message: "Locate you precisely in \(hotspot.name)?", choices: ["yes", "no"]))
            if Task.isCancelled { return }
            if answer == "yes" {
                let method = await ask(UserPrompt(
                    id: "locate-method", message: "Locate you through Bluetooth or by pinning your position on the map?",
                    choices: ["bluetooth", "manual"]))
                if Task.isCancelled { return }
                switch method {
                case "bluetooth": location = await locateThroughBluetooth(in: hotspot) ?? location
                case "manual": location = await pinManually(in: hotspot) ?? location
                default: device.record("locate.declined", [("hotspot", .string(hotspot.name)), ("answer", .string("none"))])
                }
            } else {
                device.record("locate.declined", [("hotspot", .string(hotspot.name)), ("answer", .string(answer ?? "none"))])
            }
        }

        guard isTrackingEnabled, !Task.isCancelled else { return }
        visits[hotspot.name] = nil
        // A hotspot-level location of a visit that a later entry has overtaken would hide where she is now.
        if location.precision != .hotspot || currentHotspot == hotspot.name { await sync(location) }
        guard !isStopped, !Task.isCancelled else { return }   // killed while it was being sent
        if let group, !settings.autoPing || location.precision != .hotspot {
            send(ping: group, location)
        }
        saveProgress(of: hotspot.name, group: group, isComplete: true)
    }

    // MARK: Locating

    private func locateThroughBluetooth(in hotspot: HotspotInfo) async -> SharedLocation? {
        device.record("locate.started", [("hotspot", .string(hotspot.name)), ("method", .string("bluetooth"))])
        let outcome = await rangeBeacon(of: hotspot)
        if Task.isCancelled { return nil }
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
        if Task.isCancelled { return nil }
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

    /// Pings `group` in a task of its own (a visit that ends does not cut a request short).
    /// The ping is on its way from now until the server answers: every save meanwhile (the visit's
    /// progress is saved right after) keeps it, so an app killed before the answer sends it again, with
    /// the same request id, when it is restarted.
    private func send(ping group: String, _ location: SharedLocation) {
        let requestID = newRequestID("ping")
        outbox.sending(ping: Outbox.Ping(group: group, location: location, attempts: 1, requestID: requestID))
        spawn { await $0.sendPing(to: group, location, attempt: 1, requestID: requestID) }
    }

    /// A request id no other request of this device carries: the device, the instant, this launch's
    /// count. Every attempt of one ping or one location keeps its id.
    private func newRequestID(_ kind: String) -> String {
        requestCount += 1
        return "\(device.id)/\(kind)/\(device.scheduler.now.offset.inSeconds)/\(requestCount)"
    }

    /// How many times a request whose connection dropped is sent in all (the same request id each time).
    static let attemptsAfterADrop = 3

    private func sendPing(to group: String, _ location: SharedLocation, attempt: Int, requestID: String) async {
        do throws(BackendError) {
            let recipients = try await online().ping(from: location.account, group: group, location: location, requestID: requestID)
            guard !isStopped else { return }
            answered(requestID)
            device.record("ping.sent", [
                ("group", .string(group)), ("recipients", .string(recipients.joined(separator: ","))),
                ("hotspot", location.hotspot.map(TraceValue.string) ?? .null), ("precision", .string(location.precision.rawValue)),
                ("attempt", .int(attempt)),
            ])
        } catch {
            guard !isStopped else { return }
            let stillThere = isTrackingEnabled && isSharing && (location.hotspot.map { hotspot in insideHotspots.contains { $0.name == hotspot } } ?? true)
            // The connection dropped with the ping on its way: the server may have handled it; the
            // same request id again is answered without notifying anyone twice.
            if error.isTimeout, stillThere, attempt < Self.attemptsAfterADrop {
                device.record("ping.failed", [("group", .string(group)), ("reason", .string(error.description)), ("attempt", .int(attempt)), ("queued", .bool(true))])
                outbox.sending(ping: Outbox.Ping(group: group, location: location, attempts: attempt + 1, requestID: requestID))
                await sendPing(to: group, location, attempt: attempt + 1, requestID: requestID)
                return
            }
            let queued = error == .unreachable && stillThere
            device.record("ping.failed", [("group", .string(group)), ("reason", .string(error.description)), ("attempt", .int(attempt)), ("queued", .bool(queued))])
            if queued {
                outbox.answered(requestID)
                outbox.queue(ping: Outbox.Ping(group: group, location: location, attempts: attempt, requestID: requestID))
                persist()
            } else {
                answered(requestID)
            }
            if case .locationOff = error { isSharing = false }
        }
    }

    private func sync(_ location: SharedLocation, version: Int? = nil, attempt: Int = 1, requestID: String? = nil) async {
        let version = version ?? outbox.nextVersion()
        let requestID = requestID ?? newRequestID("sync")
        outbox.sending(sync: Outbox.Sync(location: location, version: version, attempts: attempt, requestID: requestID))
        do throws(BackendError) {
            try await online().updateLocation(location, requestID: requestID)
            guard !isStopped else { return }
            let hadQueued = outbox.hasQueuedSync
            outbox.synced(version: version)
            if hadQueued, !outbox.hasQueuedSync { persist() } else { answered(requestID) }
            device.record("location.synced", [
                ("hotspot", location.hotspot.map(TraceValue.string) ?? .null), ("precision", .string(location.precision.rawValue)),
                ("attempt", .int(attempt)),
            ])
        } catch {
            guard !isStopped else { return }
            let newest = isTrackingEnabled && isSharing && outbox.isNewest(version)
            if error.isTimeout, newest, attempt < Self.attemptsAfterADrop {
                device.record("sync.failed", [("reason", .string(error.description)), ("attempt", .int(attempt)), ("queued", .bool(true))])
                await sync(location, version: version, attempt: attempt + 1, requestID: requestID)
                return
            }
            // Offline, or dropped on every attempt: the newest location is kept and sent again when
            // the device is online again, or (dropped) after `syncRetryDelay`, so the server never
            // keeps a place she has left.
            let queued = (error == .unreachable || error.isTimeout) && newest
            device.record("sync.failed", [("reason", .string(error.description)), ("attempt", .int(attempt)), ("queued", .bool(queued))])
            if queued {
                outbox.answered(requestID)
                outbox.queue(sync: Outbox.Sync(location: location, version: version, attempts: attempt, requestID: requestID))
                persist()
                if error.isTimeout {
                    device.scheduler.schedule(after: Self.syncRetryDelay) { [weak self] in self?.flushOutbox() }
                }
            } else {
                answered(requestID)
            }
            if case .locationOff = error { isSharing = false }
        }
    }

    /// How long a location sync whose connection dropped on every attempt waits before it is sent again.
    static let syncRetryDelay: Duration = .seconds(30)

    /// Back online: sends the newest location that could not be synced, then the pings still waiting.
    private func flushOutbox() {
        guard !isStopped, !outbox.isEmpty, device.connectivity?.state != .offline else { return }
        let (sync, pings) = outbox.takeAll()   // on their way from now (saved as such)
        persist()
        spawn { app in
            if let sync { await app.sync(sync.location, version: sync.version, attempt: sync.attempts + 1, requestID: sync.requestID) }
            for ping in pings { await app.sendPing(to: ping.group, ping.location, attempt: ping.attempts + 1, requestID: ping.requestID) }
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
            guard !isStopped else { return }
            device.record("friend.added", [("friend", .string(friend)), ("email", .string(email)), ("group", .string("friends"))])
        } catch .notFound {
            guard !isStopped else { return }
            device.record("friend.not-found", [("email", .string(email)), ("message", .string(BackendError.notFound(email: email).description))])
        } catch {
            guard !isStopped else { return }   // abandoned by a kill or a restart: nothing to say
            device.record("app.error", [("operation", .string("add-friend")), ("reason", .string(error.description))])
        }
    }

    private func performFindFriends() async {
        let here = device.location.currentFix?.coordinate ?? insideHotspots.last?.center
        if case .within = settings.area, here == nil {
            device.record("friends.none", [
                ("area", .string(settings.area.description)),
                ("message", .string("where you are is not known (no location fix and no hotspot): turn on location or enter a hotspot")),
            ])
            return
        }
        do throws(BackendError) {
            var friends = try await online().friendsInArea(of: account)
            guard !isStopped else { return }
            if case .within(let radius) = settings.area, let here {
                let centres = Dictionary(hotspots.map { ($0.name, $0.center) }, uniquingKeysWith: { first, _ in first })
                friends = friends.filter { friend in
                    guard let position = friend.coordinate ?? friend.hotspot.flatMap({ centres[$0] }) else { return false }
                    return position.distance(to: here) <= radius
                }
            }
            friendsOnMap = friends
            if friends.isEmpty {
                device.record("friends.none", [
                    ("area", .string(settings.area.description)), ("message", .string("none of your friends who share their location is around")),
                ])
            } else {
                device.record("friends.shown", [
                    ("count", .int(friends.count)),
                    ("friends", .string(friends.map { "\($0.account)@\($0.hotspot ?? "?")" }.joined(separator: ","))),
                    ("area", .string(settings.area.description)),
                ])
                // Where each friend is drawn on the map (the precise position, else the hotspot's
                // centre), so the report can draw them and a reader can see why one was shown.
                let centres = Dictionary(hotspots.map { ($0.name, $0.center) }, uniquingKeysWith: { first, _ in first })
                for friend in friends {
                    guard let position = friend.coordinate ?? friend.hotspot.flatMap({ centres[$0] }) else { continue }
                    device.record("friend.shown", [
                        ("friend", .string(friend.account)), ("hotspot", friend.hotspot.map(TraceValue.string) ?? .null),
                        ("precision", .string(friend.precision.rawValue)),
                        ("lat", .double((position.latitude * 1e6).rounded() / 1e6)), ("lon", .double((position.longitude * 1e6).rounded() / 1e6)),
                    ])
                }
            }
        } catch {
            guard !isStopped else { return }
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
            guard !isStopped else { return }
            isTrackingEnabled = false
            insideHotspots = []
            for visit in visits.values { visit.cancel() }
            visits = [:]
            visitProgress = []
            visitsToResume = [:]
            outbox.dropAll()
            persist()
            device.record("location.off", [("message", .string("Location tracking is off; your last location was deleted"))])
        } catch {
            guard !isStopped else { return }
            device.record("location.off-failed", [("reason", .string(error.description))])
        }
    }

    // MARK: Helpers

    /// Saves who is signed in, whether tracking is off and what waits to be sent; a failure is
    /// recorded (`storage.failed`) and the app goes on with what it has in memory.
    private func persist() {
        guard !isStopped else { return }   // a killed app writes nothing
        let state = FriendLocatorLocalState(
            account: isSignedIn ? account : nil, trackingOff: !isTrackingEnabled, queued: outbox.saved(account: account), visits: visitProgress)
        do {
            try store.save(state)
            savedInFlight = outbox.inFlightRequestIDs
        } catch {
            guard !isStopped else { return }   // killed during this write: it records nothing more
            device.record("storage.failed", [("operation", .string("save")), ("reason", .string(error.description))])
        }
    }

    /// The request ids the last save kept as on their way.
    private var savedInFlight: Set<String> = []

    /// The request `requestID` was answered (or failed for good): no longer on its way. Saved again
    /// only if the last save kept it, so that a restart does not send it once more.
    private func answered(_ requestID: String) {
        outbox.answered(requestID)
        if savedInFlight.contains(requestID) { persist() }
    }

    /// The backend, for a request; refused at once while the device is offline.
    private func online() throws(BackendError) -> any LocatorBackend {
        if device.connectivity?.state == .offline { throw .unreachable }
        return backend
    }

    private func ask(_ prompt: UserPrompt) async -> String? {
        guard let notifications = device.notifications else { return nil }
        let timeout = settings.promptTimeout
        return await waitForCallback(on: device.scheduler.executor, cancelled: nil) { finish in
            let shown = notifications.ask(prompt, timeout: timeout) { finish($0) }
            return { shown.withdraw() }
        }
    }
}

/// What could not be sent while offline: the newest location (locations carry versions that grow with
/// every location the app decides on), and pings.
private struct Outbox {
    struct Sync {
        var location: SharedLocation
        var version: Int
        var attempts: Int
        var requestID: String
    }

    struct Ping {
        var group: String
        var location: SharedLocation
        var attempts: Int
        var requestID: String
    }

    private var latestVersion = 0
    private var syncedVersion = 0
    private var sync: Sync?
    private var pings: [Ping] = []
    /// Requests on their way, not answered yet: saved with what waits, so that a restarted app sends
    /// them again (with their request ids, which the server applies once).
    private var syncOnItsWay: Sync?
    private var pingsOnTheirWay: [Ping] = []

    var inFlightRequestIDs: Set<String> { Set(pingsOnTheirWay.map(\.requestID) + (syncOnItsWay.map { [$0.requestID] } ?? [])) }

    var isEmpty: Bool { sync == nil && pings.isEmpty }
    var hasQueuedSync: Bool { sync != nil }

    init() {}

    /// The outbox a previous launch saved.
    init(restoring queued: [FriendLocatorLocalState.Queued]) {
        for item in queued {
            switch item.kind {
            case .sync:
                sync = Sync(location: item.location, version: item.version, attempts: item.attempts, requestID: item.requestID)
                latestVersion = max(latestVersion, item.version)
            case .ping:
                pings.append(Ping(group: item.group ?? "friends", location: item.location, attempts: item.attempts, requestID: item.requestID))
            }
        }
    }

    /// What waits to be sent and what is on its way, as the device saves it (the newest location only).
    func saved(account: String) -> [FriendLocatorLocalState.Queued] {
        let newest = [sync, syncOnItsWay].compactMap { $0 }.filter { $0.version > syncedVersion }.max { $0.version < $1.version }
        let pings = pings + pingsOnTheirWay
        return (newest.map { [FriendLocatorLocalState.Queued(kind: .sync, requestID: $0.requestID, group: nil, location: $0.location, version: $0.version, attempts: $0.attempts)] } ?? [])
            + pings.map { FriendLocatorLocalState.Queued(kind: .ping, requestID: $0.requestID, group: $0.group, location: $0.location, version: 0, attempts: $0.attempts) }
    }

    mutating func nextVersion() -> Int {
        latestVersion += 1
        return latestVersion
    }

    /// Whether no location newer than `version` was decided on since.
    func isNewest(_ version: Int) -> Bool { version == latestVersion }

    mutating func synced(version: Int) {
        syncedVersion = max(syncedVersion, version)
        if let queued = sync, queued.version <= version { sync = nil }
        if let sending = syncOnItsWay, sending.version <= version { syncOnItsWay = nil }
    }

    /// `item` is on its way (a newer location replaces an older one).
    mutating func sending(sync item: Sync) {
        guard item.version >= (syncOnItsWay?.version ?? 0) else { return }
        syncOnItsWay = item
    }

    /// `ping` is on its way (its attempts so far).
    mutating func sending(ping: Ping) {
        pingsOnTheirWay.removeAll { $0.requestID == ping.requestID }
        pingsOnTheirWay.append(ping)
    }

    /// The request `requestID` is no longer on its way.
    mutating func answered(_ requestID: String) {
        pingsOnTheirWay.removeAll { $0.requestID == requestID }
        if syncOnItsWay?.requestID == requestID { syncOnItsWay = nil }
    }

    /// Keeps `item` unless a newer location was synced or queued meanwhile (the newest wins).
    mutating func queue(sync item: Sync) {
        guard item.version > syncedVersion, item.version > (sync?.version ?? 0) else { return }
        sync = item
    }

    mutating func queue(ping: Ping) {
        pings.append(ping)
    }

    /// Removes the pings about `hotspot` waiting to be sent and returns them; those on their way are
    /// no longer sent again after a restart.
    mutating func dropPings(about hotspot: String) -> [Ping] {
        let dropped = pings.filter { $0.location.hotspot == hotspot }
        pings.removeAll { $0.location.hotspot == hotspot }
        pingsOnTheirWay.removeAll { $0.location.hotspot == hotspot }
        return dropped
    }

    /// Forgets everything waiting and on its way (location tracking was turned off).
    mutating func dropAll() {
        sync = nil
        pings = []
        syncOnItsWay = nil
        pingsOnTheirWay = []
    }

    /// Everything waiting, to be sent now: on its way from here.
    mutating func takeAll() -> (sync: Sync?, pings: [Ping]) {
        defer {
            if let sync { sending(sync: sync) }
            for ping in pings { sending(ping: ping) }
            sync = nil
            pings = []
        }
        return (sync, pings)
    }
}
