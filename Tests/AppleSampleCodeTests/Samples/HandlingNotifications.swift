#if canImport(UserNotifications) && !DEVICESIM
import UserNotifications
#else
import DeviceSimUserNotifications
#endif
import Foundation

// Apple's sample code: "Handling notifications and notification-related actions"
// https://developer.apple.com/documentation/usernotifications/handling-notifications-and-notification-related-actions
// The two delegate methods unchanged ("Handle user-selected actions", "Handle notifications while your
// app runs in the foreground"); the content with the meeting's user info is the listing of "Declaring
// your actionable notification types"
// (https://developer.apple.com/documentation/usernotifications/declaring-your-actionable-notification-types).
// `sharedMeetingManager` is the article's; a stand-in (AppStandIns.swift) records what it is asked.

final class MeetingNotifications: NSObject, UNUserNotificationCenterDelegate, @unchecked Sendable {
    let sharedMeetingManager = MeetingManager()

    /// The content of a meeting invitation ("Assign categories to local notifications").
    static func invitation(meetingID: String, userID: String) -> UNMutableNotificationContent {
        let content = UNMutableNotificationContent()
        content.title = "Weekly Staff Meeting"
        content.body = "Every Tuesday at 2pm"
        content.userInfo = ["MEETING_ID" : meetingID,
                            "USER_ID" : userID ]
        content.categoryIdentifier = "MEETING_INVITATION"
        return content
    }

    func userNotificationCenter(_ center: UNUserNotificationCenter,
                didReceive response: UNNotificationResponse,
                withCompletionHandler completionHandler:
                   @escaping () -> Void) {

       // Get the meeting ID from the original notification.
       let userInfo = response.notification.request.content.userInfo
       let meetingID = userInfo["MEETING_ID"] as! String
       let userID = userInfo["USER_ID"] as! String

       // Perform the task associated with the action.
       switch response.actionIdentifier {
       case "ACCEPT_ACTION":
          sharedMeetingManager.acceptMeeting(user: userID,
                meetingID: meetingID)
          break

       case "DECLINE_ACTION":
          sharedMeetingManager.declineMeeting(user: userID,
                meetingID: meetingID)
          break

       // Handle other actions…

       default:
          break
       }

       // Always call the completion handler when done.
       completionHandler()
    }

    func userNotificationCenter(_ center: UNUserNotificationCenter,
             willPresent notification: UNNotification,
             withCompletionHandler completionHandler:
                @escaping (UNNotificationPresentationOptions) -> Void) {
       if notification.request.content.categoryIdentifier ==
                "MEETING_INVITATION" {
          // Retrieve the meeting details.
          // (The article breaks these two lines after `content.`, which no Swift compiler accepts; joined.)
          let meetingID = notification.request.content.userInfo["MEETING_ID"] as! String
          let userID = notification.request.content.userInfo["USER_ID"] as! String

          // Add the meeting to the queue.
          sharedMeetingManager.queueMeetingForDelivery(user: userID,
                meetingID: meetingID)

          // Play a sound to let the user know about the invitation.
          completionHandler(.sound)
          return
       }
       else {
          // Handle other notification types...
       }

       // Don't alert the user for other types.
       completionHandler(UNNotificationPresentationOptions(rawValue: 0))
    }
}

// Ordinary delegate code written from the reference pages of the two methods
// (https://developer.apple.com/documentation/usernotifications/unusernotificationcenterdelegate/usernotificationcenter(_:willpresent:withcompletionhandler:),
// https://developer.apple.com/documentation/usernotifications/unusernotificationcenterdelegate/usernotificationcenter(_:didreceive:withcompletionhandler:),
// UNNotificationDefaultActionIdentifier: "The action that indicates the user opened the app from the
// notification interface"): show banners in the foreground, open the screen the notification is about.
final class ForegroundBanners: NSObject, UNUserNotificationCenterDelegate, @unchecked Sendable {
    private(set) var opened: [String] = []
    private(set) var presented: [String] = []

    func userNotificationCenter(_ center: UNUserNotificationCenter,
                                willPresent notification: UNNotification,
                                withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void) {
        presented.append(notification.request.identifier)
        completionHandler([.banner, .sound])
    }

    func userNotificationCenter(_ center: UNUserNotificationCenter,
                                didReceive response: UNNotificationResponse,
                                withCompletionHandler completionHandler: @escaping () -> Void) {
        if response.actionIdentifier == UNNotificationDefaultActionIdentifier {
            opened.append(response.notification.request.identifier)
        }
        completionHandler()
    }
}

/// The `async` forms of the same two methods (the Swift interface Xcode shows for the delegate).
final class AsyncForegroundList: NSObject, UNUserNotificationCenterDelegate, @unchecked Sendable {
    private(set) var opened: [String] = []

    func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async -> UNNotificationPresentationOptions {
        [.list]
    }

    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
        if response.actionIdentifier == UNNotificationDefaultActionIdentifier {
            opened.append(response.notification.request.identifier)
        }
    }
}
