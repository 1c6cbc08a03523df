#if canImport(UserNotifications) && !DEVICESIM
import UserNotifications
#else
import DeviceSimUserNotifications
#endif

// Apple's sample code: "Asking permission to use notifications"
// https://developer.apple.com/documentation/usernotifications/asking-permission-to-use-notifications
// The listings are unchanged; each is the body of a method, and where the article leaves a comment for
// the app's own code ("Handle the error here.", "Schedule an alert-only notification."), the line after
// the comment records that the app got there (`reached`), so that a test can tell.

final class NotificationPermission: @unchecked Sendable {
    private(set) var reached: [String] = []
    private func reach(_ place: String) { reached.append(place) }

    /// "Explicitly request authorization in context", the `async` form.
    func requestAuthorization() async {
        let center = UNUserNotificationCenter.current()

        do {
            try await center.requestAuthorization(options: [.alert, .sound, .badge])
        } catch {
            // Handle the error here.
            reach("error")
        }
    }

    /// The same request with a completion handler (the article's earlier listing).
    func requestAuthorizationWithCompletionHandler() {
        let center = UNUserNotificationCenter.current()
        center.requestAuthorization(options: [.alert, .sound, .badge]) { granted, error in

            if let error = error {
                // Handle the error here.
                self.reach("error \(error)")
            }

            // Enable or disable features based on the authorization.
            self.reach("granted \(granted)")
        }
    }

    /// "Use provisional authorization to send trial notifications".
    func requestProvisionalAuthorization() async throws {
        let center = UNUserNotificationCenter.current()
        try await center.requestAuthorization(options: [.alert, .sound, .badge, .provisional])
    }

    /// "Customize notifications based on the current authorizations".
    func scheduleBasedOnSettings() async {
        let center = UNUserNotificationCenter.current()

        // Obtain the notification settings.
        let settings = await center.notificationSettings()

        // Verify the authorization status.
        guard (settings.authorizationStatus == .authorized) ||
              (settings.authorizationStatus == .provisional) else { return }

        if settings.alertSetting == .enabled {
            // Schedule an alert-only notification.
            reach("alert-only")
        } else {
            // Schedule a notification with a badge and sound.
            reach("badge and sound")
        }
    }

    /// The same with `getNotificationSettings(completionHandler:)` (the article's earlier listing).
    func scheduleBasedOnSettingsWithCompletionHandler() {
        let center = UNUserNotificationCenter.current()
        center.getNotificationSettings { settings in
            guard (settings.authorizationStatus == .authorized) ||
                  (settings.authorizationStatus == .provisional) else { return }

            if settings.alertSetting == .enabled {
                // Schedule an alert-only notification.
                self.reach("alert-only")
            } else {
                // Schedule a notification with a badge and sound.
                self.reach("badge and sound")
            }
        }
    }
}
