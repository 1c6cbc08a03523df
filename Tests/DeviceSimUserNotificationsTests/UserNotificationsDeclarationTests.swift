#if canImport(UserNotifications) && !DEVICESIM
import UserNotifications
#else
import DeviceSimUserNotifications
#endif
import Foundation
import Testing

/// Every mirrored declaration of docs/apple-apis/UserNotifications.md, used as Apple's documentation
/// shows it: this file compiles against Apple's UserNotifications as well (without `DEVICESIM`).
final class DeclarationDelegate: UNUserNotificationCenterDelegate {
    func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async -> UNNotificationPresentationOptions {
        [.banner, .list, .sound, .badge]
    }
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
        _ = (response.actionIdentifier == UNNotificationDefaultActionIdentifier, response.notification.request.identifier, response.notification.date)
    }
}

@Suite struct UserNotificationsDeclarationTests {
    @Test func everyMirroredDeclarationCompiles() async throws {
        let center: UNUserNotificationCenter = UNUserNotificationCenter.current()
        let delegate = DeclarationDelegate()
        center.delegate = delegate
        let options: UNAuthorizationOptions = [.alert, .sound, .badge, .carPlay, .criticalAlert, .providesAppNotificationSettings, .provisional]
        center.requestAuthorization(options: options) { (_: Bool, _: (any Error)?) in }
        let settings: UNNotificationSettings = await center.notificationSettings()
        let statuses: [UNAuthorizationStatus] = [.notDetermined, .denied, .authorized, .provisional, .ephemeral]
        #expect(statuses.contains(settings.authorizationStatus))
        let kinds: [UNNotificationSetting] = [settings.soundSetting, settings.badgeSetting, settings.alertSetting, settings.notificationCenterSetting, settings.lockScreenSetting]
        #expect(kinds.allSatisfy { [UNNotificationSetting.notSupported, .disabled, .enabled].contains($0) })
        center.getNotificationSettings { (_: UNNotificationSettings) in }

        let content = UNMutableNotificationContent()
        content.title = "Check in?"
        content.subtitle = "Café"
        content.body = "Three minutes at the café"
        content.userInfo = ["place": "cafe"]
        content.sound = UNNotificationSound.default
        content.badge = NSNumber(value: 1)
        content.categoryIdentifier = "check-in"
        content.threadIdentifier = "visits"
        let readOnly: UNNotificationContent = content
        #expect(readOnly.title == "Check in?" && readOnly.threadIdentifier == "visits")
        let interval = UNTimeIntervalNotificationTrigger(timeInterval: 180, repeats: false)
        let _: TimeInterval = interval.timeInterval
        let _: Date? = interval.nextTriggerDate()
        let calendar = UNCalendarNotificationTrigger(dateMatching: DateComponents(hour: 8, minute: 30), repeats: true)
        let _: DateComponents = calendar.dateComponents
        let _: Date? = calendar.nextTriggerDate()
        let trigger: UNNotificationTrigger = calendar
        #expect(trigger.repeats)
        let request = UNNotificationRequest(identifier: "check-in", content: content, trigger: interval)
        let _: (String, UNNotificationContent, UNNotificationTrigger?) = (request.identifier, request.content, request.trigger)
        center.add(request) { (_: (any Error)?) in }
        do { try await center.add(request) } catch let error as UNError { #expect([UNError.Code.notificationsNotAllowed].contains(error.code)) }
        center.getPendingNotificationRequests { (_: [UNNotificationRequest]) in }
        let _: [UNNotificationRequest] = await center.pendingNotificationRequests()
        center.removePendingNotificationRequests(withIdentifiers: ["check-in"])
        center.removeAllPendingNotificationRequests()
        center.getDeliveredNotifications { (_: [UNNotification]) in }
        let _: [UNNotification] = await center.deliveredNotifications()
        center.removeDeliveredNotifications(withIdentifiers: ["check-in"])
        center.removeAllDeliveredNotifications()
        let presentation: UNNotificationPresentationOptions = [.badge, .sound, .list, .banner]
        #expect(presentation.contains(.banner))
        #expect(UNNotificationDismissActionIdentifier != UNNotificationDefaultActionIdentifier)
    }
}
