import DeviceSimHAL
import DeviceSimTime

/// The dog-walk map app (every flow of its document), written against the HAL only, in async/await on
/// the device's clock. The user data (account, dog friends, business records) lives in the device's
/// local database (``store``); accounts live on an ``AccountService``.
///
/// - **Starting the app** (``startApp()``): the user data is loaded from the local database; with none
///   (2-A), the app asks the user to sign in. The service starts with the app.
/// - **Asking sign-in**: the `sign-in-options` prompt (`sign-in`, `sign-up`, `offline`). Sign-in asks
///   for the credential (the `credential` form, ``enterCredential(email:password:)``), the server
///   authenticates it and issues an access token (6-A: a temporary password asks for a new one, twice,
///   through the `new-password` form), the app fetches the user data and caches it in the database.
///   Sign-up (2-A) shows the `sign-up` form (``signUp(email:)``); the server mails a temporary password
///   and the options show again. Offline (2-B) initializes empty user data and saves it.
/// - **Starting the service** (``startService()``): map and location marker at the current location;
///   then the first dog friend (5-A: none yet, the dog profile dialog adds one), its business records
///   on the map (7-A: overlapping records shown as the latest one) and the business menu.
/// - **Updating the current location** and **centering** (``centerMap()``).
/// - **The business menu**: pee, poo and close buttons (``placeRecord(_:)``, ``closeBusinessMenu()``);
///   clicking the location marker toggles it (``clickLocationMarker()``). Placing saves the record,
///   hides the menu and shows "please clean up" for ``Settings/cleanUpMessageDuration``.
/// - **Viewing records at a point** (``clickRecord(id:near:)``): the statistics popup of the marker's
///   group of overlapping records (``BusinessRecordMap``), closed with ``closeStatistics()``; the record
///   list (``openRecordList()``), selecting an item (``selectListItem(id:)``), deleting it after a
///   `delete-record` prompt (``deleteSelectedRecord()``), closing the list (``closeRecordList()``).
/// - **The dog profile**: adding the first dog and editing it (``editDogProfile()``,
///   ``fillDogProfile(name:sex:dateOfBirth:)``, ``confirmDogProfile()``).
///
/// A write that fails (a full disk, a write error) changes nothing saved before; the app reports it
/// with the reason and the user may try again. A signed-in account's changes are queued with each
/// write and synced with the server (``UserDataSyncService``; when, in `DogWalkApp+Sync.swift`).
/// Events are listed in Scenarios/README.md.
///
/// ```swift
/// let app = DogWalkApp(device: device, store: SQLiteUserDataStore(path: dir + "/walker.sqlite", now: { scheduler.now }), accounts: server, userDataService: server)
/// app.startApp()                 // asks sign-in when the database has no user data; starts the service
/// app.placeRecord(.poo)          // once the business menu shows
/// ```
public final class DogWalkApp {
    /// The app's settings.
    public struct Settings: Sendable, Hashable {
        /// How often the app obtains the current location and moves the marker.
        public var updateInterval: Duration = .seconds(5)
        /// Records closer together than this, in metres, are aggregated into one marker.
        public var overlapDistance: Double = 5
        /// How long the "please clean up" message shows.
        public var cleanUpMessageDuration: Duration = .seconds(5)
        /// Whether the map follows the user: each periodic update centers the map on the moved marker
        /// (`map.followed`). Off by default: the document moves only the marker ("Updating the current
        /// location") and gives the user a centering button to bring the map back to it.
        public var followsUser = false

        /// The defaults.
        public init() {}
    }

    /// A form the app shows and waits on.
    enum Form: String {
        case credential, signUp = "sign-up", newPassword = "new-password", dogProfile = "dog-profile"
    }

    /// What the user put into a form.
    enum FormInput {
        case credential(email: String, password: String)
        case signUp(email: String)
        case newPassword(String, confirmation: String)
        case dogProfileConfirmed
        /// The user leaves the dog profile dialog of an edit without submitting.
        case dogProfileCancelled
    }

    /// The device the app runs on.
    public let device: Device
    /// The app's settings.
    public let settings: Settings
    /// The app's local database (nil: the device has none, so nothing can be saved).
    public let store: (any UserDataStore)?
    let accounts: (any AccountService)?
    let userDataService: (any UserDataService)?
    let syncService: (any UserDataSyncService)?

    /// Where the location marker is (nil before the service shows it).
    public internal(set) var marker: GeoCoordinate?
    /// Where the map is centered (nil before the service shows it).
    public internal(set) var mapCenter: GeoCoordinate?
    /// Whether the app had a current location at its last update.
    public private(set) var isLocationAvailable = false
    /// How many times the marker moved.
    public private(set) var markerMoves = 0
    /// The user data (nil before it is loaded or the user signs in).
    public internal(set) var userData: UserData?
    /// The dog whose records the map shows.
    public internal(set) var selectedDog: DogProfile?
    /// The record markers on the map.
    public internal(set) var shownMarkers: [BusinessRecordMap.Marker] = []
    /// Whether the business menu shows.
    public internal(set) var isBusinessMenuShown = false
    /// Whether the "please clean up" message shows.
    public internal(set) var isCleanUpMessageShown = false
    /// The record whose statistics popup shows, and the records overlapping it.
    public internal(set) var statisticsPopup: (record: BusinessRecord, overlapping: [BusinessRecord])?
    /// The record list, when it shows.
    public internal(set) var recordList: [BusinessRecord]?
    /// The record selected in the list (its delete button shows).
    public internal(set) var selectedListRecord: BusinessRecord?
    /// The dog profile dialog's contents, while it shows.
    public internal(set) var dogProfileDraft: DogProfile?
    /// Whether the app was stopped (killed or restarted); it does nothing afterwards.
    public var isStopped: Bool { appTasks.isStopped }

    var service: Task<Void, Never>?
    lazy var appTasks = AppTasks(device: device)
    var waitingForms: [Form: (FormInput) -> Void] = [:]
    var cleanUpGeneration = 0
    /// The sync's state (``requestSync()``).
    var sync = SyncState()
    private var outageReported = false
    private var mapShown = false

    /// Creates the app on `device`, keeping its data in `store`; `accounts`, `userDataService` and
    /// `sync` are its server (nil: offline accounts only; without `sync` a signed-in account's changes
    /// stay queued on the device).
    public init(
        device: Device, store: (any UserDataStore)? = nil, settings: Settings = Settings(), accounts: (any AccountService)? = nil,
        userDataService: (any UserDataService)? = nil, sync: (any UserDataSyncService)? = nil
    ) {
        self.device = device
        self.store = store
        self.settings = settings
        self.accounts = accounts
        self.userDataService = userDataService
        self.syncService = sync
    }

    /// Whether the service is running.
    public var isRunning: Bool { service != nil }

    /// Starts the service (does nothing if it is running).
    public func startService() {
        guard service == nil, !isStopped else { return }
        let app = SimulationBound(self, executor: device.scheduler.executor)
        service = device.scheduler.spawn { await app.value.runService() }
    }

    /// Stops the service; the marker stays where it is.
    public func stopService() {
        guard let service else { return }
        service.cancel()
        self.service = nil
        device.record("service.stopped")
    }

    /// Stops the app for good (it is killed or restarted): its tasks end, open forms and dialogs go,
    /// and it records nothing more.
    public func stop() {
        appTasks.stop()
        sync.stop()
        service?.cancel()
        service = nil
        waitingForms = [:]
    }

    /// The user taps the centering button.
    public func centerMap() {
        if let fix = device.location.currentFix {
            mapCenter = fix.coordinate
            device.record("map.centered", Self.fields(fix.coordinate) + [("source", .string("current"))])
        } else if let marker {
            mapCenter = marker
            device.record("map.centered", Self.fields(marker) + [("source", .string("last-known"))])
        } else {
            device.record("map.center-failed", [("reason", .string("location unavailable"))])
        }
    }

    private func runService() async {
        device.record("service.started", [("interval", .double(settings.updateInterval.inSeconds))])
        var fix = device.location.currentFix
        if fix == nil {
            reportUnavailable()
            fix = await device.location.nextFix(on: device.scheduler.executor)
        }
        guard let fix, !Task.isCancelled else { return }
        outageReported = false
        isLocationAvailable = true
        mapCenter = fix.coordinate
        marker = fix.coordinate
        mapShown = true
        device.record("map.shown", Self.fields(fix.coordinate))
        device.record("marker.shown", Self.fields(fix.coordinate) + [("accuracy", Self.value(fix.horizontalAccuracy))])
        if userData != nil { run { await $0.showDogFriendOnMap() } }

        let clock = device.clock
        var deadline = clock.now
        while true {
            deadline = deadline.advanced(by: settings.updateInterval)
            do {
                try await clock.sleep(until: deadline)
            } catch {
                return
            }
            updateMarker()
        }
    }

    /// Whether the map shows (the service has shown it).
    var isMapShown: Bool { mapShown && service != nil }

    /// Why the map is not shown, for an action that needs it: the service is not running, or it is
    /// and waits for a first location fix (or a dog friend) before it shows the map.
    var whyNoMap: String {
        guard service != nil else { return "the map is not shown; start the service first" }
        if device.location.currentFix == nil { return "the map is not shown yet: the service waits for a location fix" }
        return selectedDog == nil
            ? "the map is not shown yet: there is no dog friend (add one in the dog profile dialog)"
            : "the map is not shown yet"
    }

    private func updateMarker() {
        guard let fix = device.location.currentFix else {
            reportUnavailable()
            return
        }
        if outageReported {
            device.record("location.recovered", Self.fields(fix.coordinate))
        }
        outageReported = false
        isLocationAvailable = true
        marker = fix.coordinate
        markerMoves += 1
        device.record("marker.moved", Self.fields(fix.coordinate) + [("accuracy", Self.value(fix.horizontalAccuracy))])
        if settings.followsUser {
            mapCenter = fix.coordinate
            device.record("map.followed", Self.fields(fix.coordinate))
        }
    }

    private func reportUnavailable() {
        isLocationAvailable = false
        guard !outageReported else { return }
        outageReported = true
        device.record("location.unavailable", marker.map { [("keeping", .string("last-marker"))] + Self.fields($0) } ?? [])
    }

    // MARK: Helpers for the flows

    /// The current location: the latest fix, or the marker when there is none.
    var currentLocation: GeoCoordinate? { device.location.currentFix?.coordinate ?? marker }

    /// Runs `operation` as a task of the app on the simulation's executor (cancelled when the app stops).
    func run(_ operation: @escaping @Sendable (DogWalkApp) async -> Void) {
        appTasks.run(self, operation)
    }

    /// Shows `form` and waits for the user to fill it (nil: the app stopped).
    func waitFor(_ form: Form, _ fields: [(key: String, value: TraceValue)] = []) async -> FormInput? {
        device.record("form.shown", [("form", .string(form.rawValue))] + fields)
        return await waitForCallback(on: device.scheduler.executor, cancelled: nil) { [weak self] finish in
            self?.waitingForms[form] = { finish($0) }
            return { self?.waitingForms[form] = nil }
        }
    }

    /// Hands `input` to `form` if it shows; otherwise records why the user's action did nothing.
    func submit(_ input: FormInput, to form: Form, action: String) {
        guard let waiting = waitingForms.removeValue(forKey: form) else {
            return ignored(action, "the \(form.rawValue) form is not shown")
        }
        waiting(input)
    }

    /// Shows a prompt and waits for the answer (nil: the app stopped, which takes the prompt back, or
    /// the device cannot ask).
    func ask(_ prompt: UserPrompt) async -> String? {
        guard let notifications = device.notifications else { return nil }
        return await waitForCallback(on: device.scheduler.executor, cancelled: nil) { finish in
            let withdrawal = notifications.ask(prompt, timeout: nil) { finish($0) }
            return { withdrawal.withdraw() }
        }
    }

    /// Records that a user action had no effect, and why.
    func ignored(_ action: String, _ reason: String) {
        device.record("action.ignored", [("action", .string(action)), ("reason", .string(reason))])
    }

    static func fields(_ coordinate: GeoCoordinate) -> [(key: String, value: TraceValue)] {
        [("lat", .double(coordinate.latitude)), ("lon", .double(coordinate.longitude))]
    }

    static func value(_ number: Double?) -> TraceValue {
        number.map(TraceValue.double) ?? .null
    }

    static func text(_ string: String?) -> TraceValue {
        string.map(TraceValue.string) ?? .null
    }
}
