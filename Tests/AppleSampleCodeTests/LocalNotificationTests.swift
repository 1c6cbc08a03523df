import DeviceSim
import DeviceSimTesting
import DeviceSimUserNotifications
import Foundation
import Testing

/// Allows notifications on the current phone, as the user does when asked.
func allowNotifications(_ simulation: TestSimulation, _ phone: TestDevice) async throws {
    phone.answer(prompt: UNUserNotificationCenter.authorizationPromptID, with: "Allow")
    try simulation.perform { UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .sound, .badge]) { _, _ in } }
    try await simulation.runCurrent()
}

/// The identifiers of the phone's pending requests.
func pendingIdentifiers(_ simulation: TestSimulation) async throws -> [String] {
    let pending = simulation.spawn { await UNUserNotificationCenter.current().pendingNotificationRequests().map(\.identifier) }
    try await simulation.runCurrent()
    return try pending.value()
}

/// The identifiers of the phone's delivered notifications.
func deliveredIdentifiers(_ simulation: TestSimulation) async throws -> [String] {
    let delivered = simulation.spawn { await UNUserNotificationCenter.current().deliveredNotifications().map(\.request.identifier) }
    try await simulation.runCurrent()
    return try delivered.value()
}

/// 2026-01-01 (the simulation's start, a Thursday) plus `days` and `hours`, as a virtual instant.
func instant(days: Int64, hours: Int64, minutes: Int64 = 0) -> VirtualInstant {
    VirtualInstant(offset: .seconds(days * 86_400 + hours * 3_600 + minutes * 60))
}

/// "Scheduling a notification locally from your app" (Samples/SchedulingANotificationLocally.swift) on a
/// simulated phone.
@Suite(.simulation) struct LocalNotificationTests {
    /// "Create a UNCalendarNotificationTrigger ... every Tuesday at 2pm": pending until then, delivered at
    /// that virtual instant, and again a week later (it repeats), still pending in between.
    @Test func theWeeklyMeetingIsDeliveredEveryTuesdayAt2pm() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: cafe, gpsOn: false)
        try await allowNotifications(simulation, phone)
        let reminder = StaffMeetingReminder()
        let scheduled = simulation.spawn { await reminder.schedule() }
        try await simulation.runCurrent()
        let identifier = try scheduled.value()
        #expect(reminder.addErrors.isEmpty)
        #expect(try await pendingIdentifiers(simulation) == [identifier])
        let tuesday = instant(days: 5, hours: 14)                         // 2026-01-06 14:00 UTC
        // "nextTriggerDate(): The next date at which the trigger conditions are met."
        let next = simulation.spawn { await (UNUserNotificationCenter.current().pendingNotificationRequests().first?.trigger as? UNCalendarNotificationTrigger)?.nextTriggerDate() }
        try await simulation.runCurrent()
        #expect(try next.value() == simulation.startDate.addingTimeInterval(Double(tuesday.offset.components.seconds)))
        try await simulation.advance(to: VirtualInstant(offset: tuesday.offset - .seconds(1)))
        #expect(simulation.events(named: "notification.delivered").isEmpty)
        try await simulation.advance(to: tuesday)
        #expect(simulation.events(named: "notification.delivered").map(\.time) == [tuesday])
        #expect(phone.notifications.showing.map(\.id) == ["notification:\(identifier)"])
        #expect(phone.notifications.showing.first?.message == "Weekly Staff Meeting | Every Tuesday at 2pm")
        #expect(try await pendingIdentifiers(simulation) == [identifier])
        #expect(try await deliveredIdentifiers(simulation) == [identifier])
        try await simulation.advance(to: instant(days: 12, hours: 14))
        #expect(simulation.events(named: "notification.delivered").map(\.time) == [tuesday, instant(days: 12, hours: 14)])
    }

    /// The phone's time zone decides "2pm": in Berlin (UTC+1 in January) the meeting is at 13:00 UTC.
    @Test func twoPMIsInThePhonesTimeZone() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: cafe, gpsOn: false)
        phone.device.civilClock = try CivilClock(startDate: simulation.startDate, timeZone: "Europe/Berlin")
        try await allowNotifications(simulation, phone)
        let reminder = StaffMeetingReminder()
        let identifier = try simulation.perform { reminder.scheduleWithCompletionHandler() }
        try await simulation.advance(to: instant(days: 5, hours: 14))
        #expect(reminder.addErrors.isEmpty)
        #expect(simulation.events(named: "notification.delivered").map(\.time) == [instant(days: 5, hours: 13)])
        #expect(try await pendingIdentifiers(simulation) == [identifier])
    }

    /// "Cancel a scheduled notification request": the pending list shrinks, and the cancelled request is
    /// never delivered.
    @Test func aCancelledRequestLeavesThePendingListAndIsNotDelivered() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: cafe, gpsOn: false)
        try await allowNotifications(simulation, phone)
        let reminder = StaffMeetingReminder()
        let first = try simulation.perform { reminder.scheduleWithCompletionHandler() }
        let second = try simulation.perform { reminder.scheduleWithCompletionHandler() }
        #expect(first != second)
        #expect(Set(try await pendingIdentifiers(simulation)) == [first, second])
        try simulation.perform { reminder.cancel(first) }
        #expect(try await pendingIdentifiers(simulation) == [second])
        try await simulation.advance(to: instant(days: 5, hours: 14))
        #expect(simulation.events(named: "notification.delivered").compactMap { $0.fields.first { $0.key == "id" }?.value } == [.string(second)])
    }

    /// Without permission, `add` fails with `UNError.notificationsNotAllowed` and nothing is pending.
    @Test func withoutPermissionAddFails() async throws {
        let simulation = try TestSimulation.current
        simulation.addDevice("phone", at: cafe, gpsOn: false)
        let reminder = StaffMeetingReminder()
        let scheduled = simulation.spawn { await reminder.schedule() }
        try await simulation.runCurrent()
        _ = try scheduled.value()
        #expect(reminder.addErrors.count == 1)
        #expect(try await pendingIdentifiers(simulation).isEmpty)
    }

    /// `removeDeliveredNotifications(withIdentifiers:)` takes a delivered notification off the list.
    @Test func aDeliveredNotificationCanBeRemoved() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: cafe, gpsOn: false)
        try await allowNotifications(simulation, phone)
        let content = UNMutableNotificationContent()
        content.title = "Check in?"
        try simulation.perform {
            UNUserNotificationCenter.current().add(UNNotificationRequest(
                identifier: "check-in", content: content, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 180, repeats: false)))
        }
        try await simulation.advance(by: .seconds(180))
        #expect(try await deliveredIdentifiers(simulation) == ["check-in"])
        #expect(try await pendingIdentifiers(simulation).isEmpty)
        try simulation.perform { UNUserNotificationCenter.current().removeDeliveredNotifications(withIdentifiers: ["check-in"]) }
        #expect(try await deliveredIdentifiers(simulation).isEmpty)
        #expect(phone.notifications.showing.isEmpty)
    }
}
