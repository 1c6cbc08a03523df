import DeviceSim
import DeviceSimTesting
import DeviceSimUserNotifications
import Testing

/// "Asking permission to use notifications" (Samples/AskingPermissionToUseNotifications.swift) on a
/// simulated phone: the prompt, the user's answer, the settings the app reads afterwards.
@Suite(.simulation) struct NotificationPermissionTests {
    /// "The first time your app makes this authorization request, the system prompts the person to grant
    /// or deny the request": the `async` request waits for the answer, in virtual time; the settings
    /// then say authorized with alerts on, and the app schedules an alert-only notification.
    @Test func theAsyncRequestWaitsForTheUsersAnswerThenTheSettingsAreAuthorized() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: cafe, gpsOn: false)
        let permission = NotificationPermission()
        let asked = simulation.spawn { await permission.requestAuthorization() }
        try await simulation.runCurrent()
        #expect(phone.notifications.showing.map(\.id) == [UNUserNotificationCenter.authorizationPromptID])
        #expect(phone.notifications.showing.first?.choices == ["Don't Allow", "Allow"])
        try phone.answer(prompt: UNUserNotificationCenter.authorizationPromptID, with: "Allow", at: VirtualInstant(offset: .seconds(3)))
        try await simulation.advance(by: .milliseconds(2_999))
        #expect(!asked.isFinished)
        try await simulation.advance(by: .milliseconds(1))
        #expect(asked.isFinished)
        let checked = simulation.spawn { await permission.scheduleBasedOnSettings() }
        try await simulation.runCurrent()
        #expect(checked.isFinished)
        permission.scheduleBasedOnSettingsWithCompletionHandler()
        #expect(permission.reached == ["alert-only", "alert-only"])
    }

    /// The completion form: the handler hears `granted == false` when the user does not allow; "Subsequent
    /// authorization requests don't prompt the person"; the settings say denied, so the article's
    /// `guard` returns before scheduling anything.
    @Test func declinedTheHandlerHearsFalseAndLaterRequestsDoNotAskAgain() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: cafe, gpsOn: false)
        let permission = NotificationPermission()
        phone.answer(prompt: UNUserNotificationCenter.authorizationPromptID, with: "Don't Allow", after: .seconds(2))
        try simulation.perform { permission.requestAuthorizationWithCompletionHandler() }
        try await simulation.advance(by: .seconds(2))
        #expect(permission.reached == ["granted false"])
        try simulation.perform { permission.requestAuthorizationWithCompletionHandler() }
        #expect(permission.reached == ["granted false", "granted false"])
        #expect(simulation.events(named: "prompt.shown").count == 1)
        let checked = simulation.spawn { await permission.scheduleBasedOnSettings() }
        try await simulation.runCurrent()
        #expect(checked.isFinished)
        #expect(permission.reached == ["granted false", "granted false"])
    }

    /// "Provisional authorization ... the system doesn't prompt the person": no prompt, status provisional.
    @Test func provisionalAuthorizationDoesNotPrompt() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: cafe, gpsOn: false)
        let permission = NotificationPermission()
        let asked = simulation.spawn { try await permission.requestProvisionalAuthorization() }
        try await simulation.runCurrent()
        #expect(asked.isFinished)
        #expect(phone.notifications.showing.isEmpty)
        let status = simulation.spawn { await UNUserNotificationCenter.current().notificationSettings().authorizationStatus }
        try await simulation.runCurrent()
        #expect(try status.value() == .provisional)
    }
}
