import DeviceSim
import DeviceSimTesting
import DeviceSimUserNotifications
import Foundation
import Testing

/// "Handling notifications and notification-related actions" (Samples/HandlingNotifications.swift) on a
/// simulated phone: the delegate while the app is in the foreground, and the user opening a notification.
@Suite(.simulation) struct HandlingNotificationsTests {
    /// Adds `content` as `identifier`, delivered `after` seconds.
    func add(_ simulation: TestSimulation, _ identifier: String, _ content: UNNotificationContent, after seconds: TimeInterval) throws {
        try simulation.perform {
            UNUserNotificationCenter.current().add(UNNotificationRequest(
                identifier: identifier, content: content, trigger: UNTimeIntervalNotificationTrigger(timeInterval: seconds, repeats: false)))
        }
    }

    /// "If your app is in the foreground when a notification arrives, the shared user notification center
    /// calls this method": at the trigger's virtual instant the article's `willPresent` queues the meeting
    /// and asks for a sound only, so no banner shows.
    @Test func aMeetingInvitationInTheForegroundIsQueuedWithASoundAndNoBanner() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: cafe, gpsOn: false)
        try await allowNotifications(simulation, phone)
        let delegate = MeetingNotifications()
        try simulation.perform { UNUserNotificationCenter.current().delegate = delegate }
        try add(simulation, "meeting", MeetingNotifications.invitation(meetingID: "123", userID: "abc"), after: 60)
        try await simulation.advance(by: .seconds(59))
        #expect(delegate.sharedMeetingManager.calls.all.isEmpty)
        try await simulation.advance(by: .seconds(1))
        #expect(delegate.sharedMeetingManager.calls.all == ["queue 123 for abc"])
        #expect(simulation.events(named: "notification.presented").map(\.time) == [VirtualInstant(offset: .seconds(60))])
        #expect(simulation.events(named: "notification.presented").first?.fields.first { $0.key == "options" }?.value == .string("sound"))
        #expect(phone.notifications.showing.isEmpty)
        // Not shown in Notification Center, so not delivered there (getDeliveredNotifications: "still
        // visible in Notification Center").
        #expect(try await deliveredIdentifiers(simulation).isEmpty)
    }

    /// "Don't alert the user for other types": `UNNotificationPresentationOptions(rawValue: 0)`, not shown.
    @Test func otherNotificationsInTheForegroundAreNotPresented() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: cafe, gpsOn: false)
        try await allowNotifications(simulation, phone)
        let delegate = MeetingNotifications()
        try simulation.perform { UNUserNotificationCenter.current().delegate = delegate }
        let content = UNMutableNotificationContent()
        content.title = "Lunch"
        try add(simulation, "lunch", content, after: 1)
        try await simulation.advance(by: .seconds(1))
        #expect(simulation.events(named: "notification.presented").first?.fields.first { $0.key == "options" }?.value == .string("none"))
        #expect(phone.notifications.showing.isEmpty)
        #expect(try await deliveredIdentifiers(simulation).isEmpty)
        #expect(delegate.sharedMeetingManager.calls.all.isEmpty)
    }

    /// `[.banner, .sound]` shows the notification; the user opening it reaches `didReceive` with
    /// `UNNotificationDefaultActionIdentifier` ("the user opened the app from the notification interface").
    @Test func aBannerTheUserOpensReachesDidReceiveWithTheDefaultAction() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: cafe, gpsOn: false)
        try await allowNotifications(simulation, phone)
        let delegate = ForegroundBanners()
        try simulation.perform { UNUserNotificationCenter.current().delegate = delegate }
        let content = UNMutableNotificationContent()
        content.title = "Check in?"
        try add(simulation, "check-in", content, after: 180)
        try await simulation.advance(by: .seconds(180))
        #expect(delegate.presented == ["check-in"])
        #expect(phone.notifications.showing.map(\.id) == ["notification:check-in"])
        #expect(delegate.opened.isEmpty)
        phone.answer(prompt: "notification:check-in", with: UNUserNotificationCenter.openChoice, after: .seconds(5))
        try await simulation.advance(by: .seconds(5))
        #expect(delegate.opened == ["check-in"])
        #expect(try await deliveredIdentifiers(simulation).isEmpty)
    }

    /// The `async` forms of the delegate methods work the same: `[.list]` puts it in the list, and opening
    /// it reaches the `async` `didReceive`.
    @Test func theAsyncDelegateMethodsAreCalledToo() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: cafe, gpsOn: false)
        try await allowNotifications(simulation, phone)
        let delegate = AsyncForegroundList()
        try simulation.perform { UNUserNotificationCenter.current().delegate = delegate }
        let content = UNMutableNotificationContent()
        content.title = "Check in?"
        try add(simulation, "check-in", content, after: 10)
        try await simulation.advance(by: .seconds(10))
        #expect(simulation.events(named: "notification.presented").first?.fields.first { $0.key == "options" }?.value == .string("list"))
        #expect(try await deliveredIdentifiers(simulation) == ["check-in"])
        phone.answer(prompt: "notification:check-in", with: UNUserNotificationCenter.openChoice)
        try await simulation.advance(by: .seconds(1))
        #expect(delegate.opened == ["check-in"])
    }
}
