import DeviceSimHAL
import DeviceSimClock
import Foundation

/// The app's notification center on the current phone, as UserNotifications' `UNUserNotificationCenter`:
/// authorization (asked once, as a prompt the test or scenario answers), scheduled (pending) and
/// delivered notifications, and the delegate.
///
/// Notifications fire at virtual instants and are shown to the user through the device's notifications
/// as a prompt with id `notification:<request identifier>`, message "title | subtitle | body" and the
/// choices "Open" and "Dismiss": answering "Open" (`phone.answer(prompt: "notification:check-in", with:
/// "Open")`, `do: answer` in a scenario) calls the delegate's `didReceive` with
/// ``UNNotificationDefaultActionIdentifier``. The trace has `notification.authorization`,
/// `notification.scheduled`, `notification.delivered`, `notification.presented`, `notification.opened`,
/// `notification.removed`.
///
/// The app counts as in the foreground while it has a delegate: a delivered notification then goes to
/// `willPresent`, and is shown (and listed among the delivered notifications) only if its answer
/// includes `.banner`, `.list` or `.alert`. Without a delegate it is shown.
///
/// ```swift
/// let center = UNUserNotificationCenter.current()
/// guard try await center.requestAuthorization(options: [.alert, .sound]) else { return }
/// let content = UNMutableNotificationContent()
/// content.title = "Check in?"
/// try await center.add(UNNotificationRequest(identifier: "check-in", content: content,
///                                            trigger: UNTimeIntervalNotificationTrigger(timeInterval: 180, repeats: false)))
/// ```
public final class UNUserNotificationCenter: @unchecked Sendable {
    /// The id of the authorization prompt (answer it with "Allow" or "Don't Allow").
    public static let authorizationPromptID = "notifications.authorization"
    /// The prompt id a delivered notification shows with: this prefix and the request's identifier.
    public static let notificationPromptPrefix = "notification:"
    /// The choices a shown notification offers.
    public static let openChoice = "Open", dismissChoice = "Dismiss"

    /// The object that hears about notifications (held weakly, as on iOS).
    public weak var delegate: (any UNUserNotificationCenterDelegate)? {
        didSet { delegateCallbacks = CallbackContext.capture() }
    }

    private let device: Device?
    private var status: UNAuthorizationStatus = .notDetermined
    private var grantedOptions: UNAuthorizationOptions = []
    /// Answers waiting for the authorization prompt (a second request while it shows waits for it).
    private var authorizationWaiters: [(Bool) -> Void] = []
    private var pending: [PendingRequest] = []
    private var delivered: [(notification: UNNotification, withdrawal: PromptWithdrawal?)] = []
    private var delegateCallbacks = CallbackContext.capture()
    private var geofenceSubscription: ObservationToken?

    private final class PendingRequest {
        let request: UNNotificationRequest
        var timer: (any ScheduledCancellable)?
        init(request: UNNotificationRequest) { self.request = request }
    }

    /// The notification center of the current device (`DeviceContext.current`): one per phone.
    public class func current() -> UNUserNotificationCenter {
        guard let device = DeviceContext.current else { return UNUserNotificationCenter(device: nil) }
        return device.platformState(UNUserNotificationCenter.self) { UNUserNotificationCenter(device: device) }
    }

    private init(device: Device?) {
        self.device = device
    }

    // MARK: Authorization

    /// Asks the user to allow notifications, once: the first call shows the prompt
    /// ``authorizationPromptID`` ("Allow" / "Don't Allow"); later calls answer with the user's choice.
    /// `completionHandler` is called when the user answered, on the simulation's thread.
    public func requestAuthorization(options: UNAuthorizationOptions = [], completionHandler: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        guard let device else { return completionHandler(false, nil) }
        if options.contains(.provisional), status == .notDetermined {
            setStatus(.provisional, options: options, on: device)
        }
        switch status {
        case .authorized, .provisional, .ephemeral: return completionHandler(true, nil)
        case .denied: return completionHandler(false, nil)
        case .notDetermined: break
        }
        // The answer comes when the user answers the prompt, from the simulation's events: the handler
        // runs "on" this phone, so a request it makes (`URLSession`) is this phone's.
        authorizationWaiters.append { [device] granted in DeviceContext.withDevice(device) { completionHandler(granted, nil) } }
        guard authorizationWaiters.count == 1 else { return }
        guard let presenter = device.notifications else {
            // A phone that cannot show prompts: the user is never asked, nothing is allowed.
            return finishAuthorization(.denied, options: options, on: device)
        }
        let appName = "This app"
        let prompt = UserPrompt(
            id: Self.authorizationPromptID,
            message: "“\(appName)” Would Like to Send You Notifications. Notifications may include alerts, sounds, and icon badges.",
            choices: ["Don't Allow", "Allow"])
        presenter.ask(prompt, timeout: nil) { [weak self] answer in
            self?.finishAuthorization(answer == "Allow" ? .authorized : .denied, options: options, on: device)
        }
    }

    /// Asks the user to allow notifications (see ``requestAuthorization(options:completionHandler:)``);
    /// returns whether they are allowed. The result may be ignored, as with Apple's (an `async` method
    /// imported from a completion handler is `@discardableResult`): Apple's "Asking permission to use
    /// notifications" writes `try await center.requestAuthorization(options: [.alert, .sound, .badge])`.
    @discardableResult
    public func requestAuthorization(options: UNAuthorizationOptions = []) async throws -> Bool {
        await withCheckedContinuation { continuation in
            requestAuthorization(options: options) { granted, _ in continuation.resume(returning: granted) }
        }
    }

    private func finishAuthorization(_ status: UNAuthorizationStatus, options: UNAuthorizationOptions, on device: Device) {
        setStatus(status, options: options, on: device)
        let waiters = authorizationWaiters
        authorizationWaiters = []
        for waiter in waiters { waiter(status == .authorized) }
    }

    private func setStatus(_ status: UNAuthorizationStatus, options: UNAuthorizationOptions, on device: Device) {
        self.status = status
        grantedOptions = options
        device.record("notification.authorization", [("status", .string(Self.name(of: status)))])
    }

    /// The app's settings now; `completionHandler` is called at once.
    public func getNotificationSettings(completionHandler: @escaping @Sendable (UNNotificationSettings) -> Void) {
        completionHandler(UNNotificationSettings(status: status, options: grantedOptions))
    }

    /// The app's settings now.
    public func notificationSettings() async -> UNNotificationSettings {
        UNNotificationSettings(status: status, options: grantedOptions)
    }

    // MARK: Scheduling

    /// Schedules `request` (replacing a pending one with its identifier); fails with
    /// ``UNError/Code/notificationsNotAllowed`` unless the user allowed notifications.
    public func add(_ request: UNNotificationRequest, withCompletionHandler completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
        let error = schedule(request)
        completionHandler?(error)
    }

    /// Schedules `request` (see ``add(_:withCompletionHandler:)``).
    public func add(_ request: UNNotificationRequest) async throws {
        if let error = schedule(request) { throw error }
    }

    private func schedule(_ request: UNNotificationRequest) -> UNError? {
        guard let device, status == .authorized || status == .provisional || status == .ephemeral else {
            device?.record("notification.rejected", [("id", .string(request.identifier)), ("reason", .string("not authorized"))])
            return UNError(.notificationsNotAllowed)
        }
        if request.content.shownText.isEmpty && request.content.sound == nil && request.content.badge == nil {
            return UNError(.notificationInvalidNoContent)
        }
        removePending(request.identifier, record: false)
        let entry = PendingRequest(request: request)
        var fields: [(key: String, value: TraceValue)] = [("id", .string(request.identifier)), ("trigger", .string(request.trigger?.traceDescription ?? "now"))]
        switch request.trigger {
        case nil:
            entry.timer = device.scheduling.schedule(after: .zero) { [weak self] in self?.fire(request.identifier) }
        case let trigger as UNTimeIntervalNotificationTrigger:
            trigger.scheduledAt = device.civilClock.date(of: device.now)
            let delay = Duration.milliseconds(Int64((trigger.timeInterval * 1000).rounded()))
            fields.append(("after", .double(trigger.timeInterval)))
            entry.timer = device.scheduling.schedule(after: delay) { [weak self] in self?.fire(request.identifier) }
        case let trigger as UNCalendarNotificationTrigger:
            let now = device.civilClock.date(of: device.now)
            guard let date = trigger.nextDate(after: now, clock: device.civilClock) else { return UNError(.notificationInvalidNoDate) }
            let delay = Duration.milliseconds(Int64((date.timeIntervalSince(now) * 1000).rounded()))
            fields.append(("after", .double(date.timeIntervalSince(now))))
            entry.timer = device.scheduling.schedule(after: delay) { [weak self] in self?.fire(request.identifier) }
        case let trigger as UNLocationNotificationTrigger:
            guard let geofences = device.geofences else {
                device.record("notification.rejected", [("id", .string(request.identifier)), ("reason", .string("the device has no geofence monitoring"))])
                return nil
            }
            var transitions: Set<GeofenceTransition> = []
            if trigger.region.notifyOnEntry { transitions.insert(.enter) }
            if trigger.region.notifyOnExit { transitions.insert(.exit) }
            let region = GeofenceRegion(
                id: Self.notificationPromptPrefix + request.identifier, center: trigger.region.triggerCenter,
                radius: trigger.region.triggerRadius, transitions: transitions)
            do {
                try geofences.startMonitoring(region)
            } catch {
                // iOS accepts the request and never fires it; the trace says why.
                device.record("notification.rejected", [("id", .string(request.identifier)), ("reason", .string(error.description))])
                return nil
            }
            entry.timer = GeofenceStop(geofences: geofences, id: region.id)
            if geofenceSubscription == nil {
                geofenceSubscription = geofences.observe { [weak self] event in self?.geofenceEvent(event) }
            }
        default:
            break
        }
        pending.append(entry)
        device.record("notification.scheduled", fields)
        return nil
    }

    private func geofenceEvent(_ event: GeofenceEvent) {
        guard event.region.hasPrefix(Self.notificationPromptPrefix), event.transition != .dwell else { return }
        let id = String(event.region.dropFirst(Self.notificationPromptPrefix.count))
        guard let entry = pending.first(where: { $0.request.identifier == id }),
              let trigger = entry.request.trigger as? UNLocationNotificationTrigger else { return }
        if event.transition == .enter && !trigger.region.notifyOnEntry { return }
        if event.transition == .exit && !trigger.region.notifyOnExit { return }
        fire(id)
    }

    /// The request `id` fires now: delivered, and scheduled again when it repeats.
    private func fire(_ id: String) {
        guard let device, let index = pending.firstIndex(where: { $0.request.identifier == id }) else { return }
        let entry = pending[index]
        let request = entry.request
        if let trigger = request.trigger, trigger.repeats {
            if let interval = trigger as? UNTimeIntervalNotificationTrigger {
                interval.scheduledAt = device.civilClock.date(of: device.now)
                let delay = Duration.milliseconds(Int64((interval.timeInterval * 1000).rounded()))
                entry.timer = device.scheduling.schedule(after: delay) { [weak self] in self?.fire(id) }
            } else if let calendar = trigger as? UNCalendarNotificationTrigger {
                let now = device.civilClock.date(of: device.now)
                if let date = calendar.nextDate(after: now, clock: device.civilClock) {
                    let delay = Duration.milliseconds(Int64((date.timeIntervalSince(now) * 1000).rounded()))
                    entry.timer = device.scheduling.schedule(after: delay) { [weak self] in self?.fire(id) }
                }
            }
        } else {
            pending.remove(at: index)
            entry.timer?.cancel()
        }
        let notification = UNNotification(date: device.civilClock.date(of: device.now), request: request)
        device.record("notification.delivered", [("id", .string(id)), ("title", .string(request.content.title)), ("body", .string(request.content.body))])
        guard let delegate else { return show(notification, on: device) }
        delegateCallbacks.deliver {
            // The delegate runs "on" this phone: what it creates or sends (`URLSession`,
            // `CLLocationManager()`) is this phone's, in a scenario's events too.
            DeviceContext.withDevice(device) {
                delegate.userNotificationCenter(self, willPresent: notification) { [weak self] options in
                    guard let self else { return }
                    device.record("notification.presented", [("id", .string(id)), ("options", .string(Self.names(of: options)))])
                    // Presented with none of `.banner`, `.list`, `.alert` (a sound only, or nothing), it is
                    // not in Notification Center, so not among the delivered notifications
                    // (getDeliveredNotifications: "still visible in Notification Center").
                    if options.isShown { show(notification, on: device) }
                }
            }
        }
    }

    private func show(_ notification: UNNotification, on device: Device) {
        let id = notification.request.identifier
        // A notification delivered again (a repeating trigger) replaces the one on screen, as on iOS.
        for earlier in delivered where earlier.notification.request.identifier == id { earlier.withdrawal?.withdraw() }
        delivered.removeAll { $0.notification.request.identifier == id }
        guard let presenter = device.notifications else { return delivered.append((notification, nil)) }
        let prompt = UserPrompt(
            id: Self.notificationPromptPrefix + id, message: notification.request.content.shownText,
            choices: [Self.openChoice, Self.dismissChoice])
        let withdrawal = presenter.ask(prompt, timeout: nil) { [weak self] answer in
            guard let self, let answer else { return }
            delivered.removeAll { $0.notification === notification }
            let action = answer == Self.openChoice ? UNNotificationDefaultActionIdentifier : UNNotificationDismissActionIdentifier
            device.record("notification.opened", [("id", .string(id)), ("action", .string(answer == Self.openChoice ? "open" : "dismiss"))])
            // iOS tells the delegate about a dismissal only for categories that ask for it.
            guard action == UNNotificationDefaultActionIdentifier, let delegate else { return }
            let response = UNNotificationResponse(notification: notification, actionIdentifier: action)
            delegateCallbacks.deliver {
                DeviceContext.withDevice(device) { delegate.userNotificationCenter(self, didReceive: response) {} }
            }
        }
        delivered.append((notification, withdrawal))
    }

    // MARK: Pending and delivered

    /// The requests waiting for their trigger, in the order they were added.
    public func getPendingNotificationRequests(completionHandler: @escaping @Sendable ([UNNotificationRequest]) -> Void) {
        completionHandler(pending.map(\.request))
    }

    /// The requests waiting for their trigger, in the order they were added.
    public func pendingNotificationRequests() async -> [UNNotificationRequest] {
        pending.map(\.request)
    }

    /// Removes the pending requests with these identifiers (they will not fire).
    public func removePendingNotificationRequests(withIdentifiers identifiers: [String]) {
        for id in identifiers { removePending(id, record: true) }
    }

    /// Removes every pending request.
    public func removeAllPendingNotificationRequests() {
        for id in pending.map(\.request.identifier) { removePending(id, record: true) }
    }

    private func removePending(_ id: String, record: Bool) {
        guard let index = pending.firstIndex(where: { $0.request.identifier == id }) else { return }
        pending.remove(at: index).timer?.cancel()
        if record { device?.record("notification.removed", [("id", .string(id)), ("from", .string("pending"))]) }
    }

    /// The app's notifications still shown in Notification Center, oldest first.
    public func getDeliveredNotifications(completionHandler: @escaping @Sendable ([UNNotification]) -> Void) {
        completionHandler(delivered.map(\.notification))
    }

    /// The app's notifications still shown in Notification Center, oldest first.
    public func deliveredNotifications() async -> [UNNotification] {
        delivered.map(\.notification)
    }

    /// Takes the delivered notifications with these identifiers off the screen.
    public func removeDeliveredNotifications(withIdentifiers identifiers: [String]) {
        for id in identifiers { removeDelivered { $0.request.identifier == id } }
    }

    /// Takes every delivered notification of the app off the screen.
    public func removeAllDeliveredNotifications() {
        removeDelivered { _ in true }
    }

    private func removeDelivered(_ matches: (UNNotification) -> Bool) {
        let removed = delivered.filter { matches($0.notification) }
        delivered.removeAll { matches($0.notification) }
        for entry in removed {
            device?.record("notification.removed", [("id", .string(entry.notification.request.identifier)), ("from", .string("delivered"))])
            entry.withdrawal?.withdraw()
        }
    }

    // MARK: Names

    private static func name(of status: UNAuthorizationStatus) -> String {
        switch status {
        case .notDetermined: "not-determined"
        case .denied: "denied"
        case .authorized: "authorized"
        case .provisional: "provisional"
        case .ephemeral: "ephemeral"
        }
    }

    private static func names(of options: UNNotificationPresentationOptions) -> String {
        let names: [(UNNotificationPresentationOptions, String)] = [(.badge, "badge"), (.sound, "sound"), (.alert, "alert"), (.list, "list"), (.banner, "banner")]
        let shown = names.filter { options.contains($0.0) }.map(\.1)
        return shown.isEmpty ? "none" : shown.joined(separator: "|")
    }
}

/// Something scheduled for a pending request that removing it undoes: a timer, or a monitored region.
typealias ScheduledCancellable = CancellableEvent

/// Stops monitoring a location trigger's region (also from inside the monitor's own transition callback,
/// where the trigger fires: the monitor allows it).
struct GeofenceStop: ScheduledCancellable {
    let geofences: any GeofenceMonitoring
    let id: String
    func cancel() { geofences.stopMonitoring(id) }
}
