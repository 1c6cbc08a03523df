#if canImport(UserNotifications) && !DEVICESIM
import UserNotifications
#else
import DeviceSimUserNotifications
#endif
import Foundation

// Apple's sample code: "Scheduling a notification locally from your app"
// https://developer.apple.com/documentation/usernotifications/scheduling-a-notification-locally-from-your-app
// Listings 1 to 4 ("Configuring the notification content", "Creating the trigger", "Creating and
// registering the notification request") unchanged, in one method returning the request's identifier;
// "Cancel a scheduled notification request" with `removePendingNotificationRequests(withIdentifiers:)`.

final class StaffMeetingReminder: @unchecked Sendable {
    private(set) var addErrors: [String] = []

    /// The article's listings in a row, the `async` form of `add`.
    func schedule() async -> String {
        let content = UNMutableNotificationContent()
        content.title = "Weekly Staff Meeting"
        content.body = "Every Tuesday at 2pm"

        // Configure the recurring date.
        var dateComponents = DateComponents()
        dateComponents.calendar = Calendar.current

        dateComponents.weekday = 3  // Tuesday
        dateComponents.hour = 14    // 14:00 hours

        // Create the trigger as a repeating event.
        let trigger = UNCalendarNotificationTrigger(
                 dateMatching: dateComponents, repeats: true)

        // Create the request
        let uuidString = UUID().uuidString
        let request = UNNotificationRequest(identifier: uuidString,
                    content: content, trigger: trigger)

        // Schedule the request with the system.
        let notificationCenter = UNUserNotificationCenter.current()
        do {
            try await notificationCenter.add(request)
        } catch {
            // Handle errors that may occur during add.
            addErrors.append("\(error)")
        }
        return uuidString
    }

    /// The same with `add(_:withCompletionHandler:)` (the article's earlier listing).
    func scheduleWithCompletionHandler() -> String {
        let content = UNMutableNotificationContent()
        content.title = "Weekly Staff Meeting"
        content.body = "Every Tuesday at 2pm"

        // Configure the recurring date.
        var dateComponents = DateComponents()
        dateComponents.calendar = Calendar.current

        dateComponents.weekday = 3  // Tuesday
        dateComponents.hour = 14    // 14:00 hours

        // Create the trigger as a repeating event.
        let trigger = UNCalendarNotificationTrigger(
                 dateMatching: dateComponents, repeats: true)

        // Create the request
        let uuidString = UUID().uuidString
        let request = UNNotificationRequest(identifier: uuidString,
                    content: content, trigger: trigger)

        // Schedule the request with the system.
        let notificationCenter = UNUserNotificationCenter.current()
        notificationCenter.add(request) { (error) in
           if error != nil {
              // Handle any errors.
              self.addErrors.append("\(error!)")
           }
        }
        return uuidString
    }

    /// "Cancel a scheduled notification request".
    func cancel(_ uuidString: String) {
        let notificationCenter = UNUserNotificationCenter.current()
        notificationCenter.removePendingNotificationRequests(withIdentifiers: [uuidString])
    }
}
