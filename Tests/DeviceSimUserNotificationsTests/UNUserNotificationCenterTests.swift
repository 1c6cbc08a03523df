import DeviceSim
import DeviceSimCoreLocation
import DeviceSimTesting
import DeviceSimUserNotifications
import Foundation
import Synchronization
import Testing

/// What a delegate heard, in order.
final class RecordingDelegate: UNUserNotificationCenterDelegate, @unchecked Sendable {
    var presentation: UNNotificationPresentationOptions = [.banner, .sound]
    private(set) var heard: [String] = []
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
    ) {
        heard.append("willPresent \(notification.request.identifier)")
        completionHandler(presentation)
    }
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse, withCompletionHandler completionHandler: @escaping () -> Void
    ) {
        heard.append("didReceive \(response.notification.request.identifier) \(response.actionIdentifier)")
        completionHandler()
    }
}

/// A region as CLCircularRegion offers it.
struct Region: NotificationTriggerRegion {
    var identifier: String
    var notifyOnEntry = true
    var notifyOnExit = false
    var triggerCenter: GeoCoordinate
    var triggerRadius: Double
}

final class Box<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

@Suite struct UNUserNotificationCenterTests {
    private let cafe = GeoCoordinate(latitude: 52.5145, longitude: 13.3501)

    private func content(_ title: String) -> UNMutableNotificationContent {
        let content = UNMutableNotificationContent()
        content.title = title
        content.body = "body of \(title)"
        return content
    }

    /// Authorized through the prompt ("Allow"); returns the phone's center.
    private func authorizedCenter(_ simulation: TestSimulation, _ phone: TestDevice) throws -> UNUserNotificationCenter {
        let center = DeviceContext.withDevice(phone.device) { UNUserNotificationCenter.current() }
        phone.answer(prompt: UNUserNotificationCenter.authorizationPromptID, with: "Allow")
        center.requestAuthorization(options: [.alert, .sound]) { _, _ in }
        try simulation.advance(by: .seconds(1))
        return center
    }

    /// "The first time your app makes this authorization request, the system prompts the user to grant
    /// or deny the request and records the user's response. Subsequent authorization requests don't
    /// prompt the user." (requestAuthorization(options:completionHandler:))
    @Test func authorizationIsAskedOnceAsAPrompt() throws {
        let simulation = TestSimulation(seed: 1)
        let phone = simulation.addDevice("phone", at: cafe)
        let center = DeviceContext.withDevice(phone.device) { UNUserNotificationCenter.current() }
        #expect(center === DeviceContext.withDevice(phone.device) { UNUserNotificationCenter.current() })
        let answers = Box<[Bool]>([])
        center.requestAuthorization(options: [.alert]) { granted, _ in answers.value.append(granted) }
        center.requestAuthorization(options: [.alert]) { granted, _ in answers.value.append(granted) }
        #expect(phone.notifications.showing.map(\.id) == ["notifications.authorization"])
        #expect(phone.notifications.showing.first?.choices == ["Don't Allow", "Allow"])
        phone.answer(prompt: "notifications.authorization", with: "Don't Allow", after: .seconds(3))
        try simulation.advance(by: .seconds(5))
        #expect(answers.value == [false, false])
        center.requestAuthorization(options: [.alert]) { granted, _ in answers.value.append(granted) }
        #expect(answers.value == [false, false, false])
        #expect(simulation.events(named: "prompt.shown").count == 1)
        let status = Box<UNAuthorizationStatus?>(nil)
        center.getNotificationSettings { status.value = $0.authorizationStatus }
        #expect(status.value == .denied)
        let error = Box<(any Error)?>(nil)
        center.add(UNNotificationRequest(identifier: "a", content: content("A"), trigger: nil)) { error.value = $0 }
        #expect((error.value as? UNError)?.code == .notificationsNotAllowed)
    }

    /// The async form waits for the user's answer in virtual time.
    @Test func asyncAuthorizationReturnsTheAnswer() throws {
        let simulation = TestSimulation(seed: 1)
        let phone = simulation.addDevice("phone", at: cafe)
        let center = DeviceContext.withDevice(phone.device) { UNUserNotificationCenter.current() }
        let asked = simulation.spawn { try await center.requestAuthorization(options: [.alert, .sound]) }
        try phone.answer(prompt: "notifications.authorization", with: "Allow", at: VirtualInstant(offset: .seconds(4)))
        try simulation.advance(by: .seconds(10))
        #expect(try asked.value() == true)
        #expect(simulation.events(named: "prompt.answered").map(\.time) == [VirtualInstant(offset: .seconds(4))])
    }

    /// A time-interval trigger fires that many seconds after `add`; the user sees it and opens it, and the
    /// delegate hears `didReceive` with the default action.
    @Test func timeIntervalTriggerFiresAndOpeningItReachesTheDelegate() throws {
        let simulation = TestSimulation(seed: 1)
        let phone = simulation.addDevice("phone", at: cafe)
        let center = try authorizedCenter(simulation, phone)
        let delegate = RecordingDelegate()
        center.delegate = delegate
        center.add(UNNotificationRequest(identifier: "check-in", content: content("Check in?"), trigger: UNTimeIntervalNotificationTrigger(timeInterval: 180, repeats: false)))
        try simulation.advance(by: .seconds(179))
        #expect(simulation.events(named: "notification.delivered").isEmpty)
        let pending = Box<[String]>([])
        center.getPendingNotificationRequests { pending.value = $0.map(\.identifier) }
        #expect(pending.value == ["check-in"])
        try simulation.advance(by: .seconds(1))
        #expect(simulation.events(named: "notification.delivered").map(\.time) == [VirtualInstant(offset: .seconds(181))])
        #expect(phone.notifications.showing.map(\.id) == ["notification:check-in"])
        #expect(phone.notifications.showing.first?.message == "Check in? | body of Check in?")
        phone.answer(prompt: "notification:check-in", with: "Open")
        try simulation.advance(by: .seconds(1))
        #expect(delegate.heard == ["willPresent check-in", "didReceive check-in com.apple.UNNotificationDefaultActionIdentifier"])
        center.getPendingNotificationRequests { pending.value = $0.map(\.identifier) }
        #expect(pending.value.isEmpty)
    }

    /// A foreground app whose delegate asks for a sound only: delivered (the trace says so), not shown and
    /// not in Notification Center, so not among the delivered notifications ("still visible in
    /// Notification Center", getDeliveredNotifications).
    @Test func willPresentWithoutBannerDoesNotShowIt() throws {
        let simulation = TestSimulation(seed: 1)
        let phone = simulation.addDevice("phone", at: cafe)
        let center = try authorizedCenter(simulation, phone)
        let delegate = RecordingDelegate()
        delegate.presentation = [.sound]
        center.delegate = delegate
        center.add(UNNotificationRequest(identifier: "quiet", content: content("Quiet"), trigger: nil))
        try simulation.advance(by: .seconds(1))
        #expect(delegate.heard == ["willPresent quiet"])
        #expect(phone.notifications.showing.isEmpty)
        let delivered = Box<[String]>([])
        center.getDeliveredNotifications { delivered.value = $0.map(\.request.identifier) }
        #expect(delivered.value.isEmpty)
        #expect(simulation.events(named: "notification.delivered").count == 1)
    }

    /// Repeating intervals fire every interval; removing the request stops them; removing a delivered
    /// one takes it off the screen.
    @Test func repeatingTriggersAndRemoval() throws {
        let simulation = TestSimulation(seed: 1)
        let phone = simulation.addDevice("phone", at: cafe)
        let center = try authorizedCenter(simulation, phone)
        center.add(UNNotificationRequest(identifier: "tick", content: content("Tick"), trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: true)))
        center.add(UNNotificationRequest(identifier: "never", content: content("Never"), trigger: UNTimeIntervalNotificationTrigger(timeInterval: 100, repeats: false)))
        center.removePendingNotificationRequests(withIdentifiers: ["never"])
        try simulation.advance(by: .seconds(150))
        #expect(simulation.events(named: "notification.delivered").map(\.time) == [VirtualInstant(offset: .seconds(61)), VirtualInstant(offset: .seconds(121))])
        center.removeAllPendingNotificationRequests()
        center.removeAllDeliveredNotifications()
        try simulation.advance(by: .seconds(100))
        #expect(simulation.events(named: "notification.delivered").count == 2)
        #expect(phone.notifications.showing.isEmpty)
        // The second tick replaced the first on screen; removing the delivered ones took the second away.
        #expect(simulation.events(named: "prompt.withdrawn").map(\.time) == [VirtualInstant(offset: .seconds(121)), VirtualInstant(offset: .seconds(151))])
    }

    /// "DateComponents ... matched in the device's civil time zone": 08:30 in Berlin is 07:30 UTC on
    /// 2026-01-01.
    @Test func calendarTriggerMatchesTheDevicesLocalTime() throws {
        let simulation = TestSimulation(seed: 1)
        let phone = simulation.addDevice("phone", at: cafe)
        phone.device.civilClock = try CivilClock(startDate: TestSimulation.defaultStartDate, timeZone: "Europe/Berlin")
        let center = try authorizedCenter(simulation, phone)
        let trigger = DeviceContext.withDevice(phone.device) { UNCalendarNotificationTrigger(dateMatching: DateComponents(hour: 8, minute: 30), repeats: false) }
        #expect(trigger.nextTriggerDate() == TestSimulation.defaultStartDate.addingTimeInterval(7.5 * 3600))
        center.add(UNNotificationRequest(identifier: "morning", content: content("Morning"), trigger: trigger))
        try simulation.advance(by: .seconds(8 * 3600))
        #expect(simulation.events(named: "notification.delivered").map(\.time) == [VirtualInstant(offset: .seconds(7 * 3600 + 1800))])
    }

    /// A location trigger fires when the phone walks into the region (the device's geofence monitor).
    @Test func locationTriggerFiresOnEntry() throws {
        let simulation = TestSimulation(seed: 1)
        let phone = simulation.addDevice("phone", at: GeoCoordinate(latitude: 52.5145, longitude: 13.3401))
        let center = try authorizedCenter(simulation, phone)
        center.add(UNNotificationRequest(
            identifier: "at-cafe", content: content("At the café"),
            trigger: UNLocationNotificationTrigger(region: Region(identifier: "cafe", triggerCenter: cafe, triggerRadius: 80), repeats: false)))
        try simulation.advance(by: .seconds(30))
        #expect(simulation.events(named: "notification.delivered").isEmpty)
        phone.walk(to: [cafe])
        try simulation.advance(by: .seconds(900))
        #expect(simulation.events(named: "notification.delivered").count == 1)
        #expect(phone.notifications.showing.map(\.id) == ["notification:at-cafe"])
    }

    /// "let region = CLCircularRegion(center: center, radius: 2000.0, identifier: "Headquarters") ...
    /// let trigger = UNLocationNotificationTrigger(region: region, repeats: false)": Apple's own example
    /// compiles with DeviceSimCoreLocation's region and fires on entry.
    @Test func locationTriggerTakesACoreLocationRegion() throws {
        let simulation = TestSimulation(seed: 1)
        let phone = simulation.addDevice("phone", at: GeoCoordinate(latitude: 52.5145, longitude: 13.3401))
        let center = try authorizedCenter(simulation, phone)
        let region = CLCircularRegion(center: CLLocationCoordinate2D(latitude: cafe.latitude, longitude: cafe.longitude), radius: 80, identifier: "cafe")
        region.notifyOnEntry = true
        region.notifyOnExit = false
        center.add(UNNotificationRequest(identifier: "at-cafe", content: content("At the café"), trigger: UNLocationNotificationTrigger(region: region, repeats: false)))
        phone.walk(to: [cafe])
        try simulation.advance(by: .seconds(900))
        #expect(simulation.events(named: "notification.delivered").count == 1)
        #expect(phone.notifications.showing.map(\.id) == ["notification:at-cafe"])
    }
}
