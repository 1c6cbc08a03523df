/// What the app hears about notifications, as UserNotifications' `UNUserNotificationCenterDelegate`.
/// Implement either form of each method (with a completion handler, or `async`); the other form's
/// default calls it.
///
/// ```swift
/// final class Notifications: NSObject, UNUserNotificationCenterDelegate {
///     func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async
///         -> UNNotificationPresentationOptions { [.banner, .sound] }
///     func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
///         openCheckIn()
///     }
/// }
/// ```
public protocol UNUserNotificationCenterDelegate: AnyObject {
    /// A notification arrived while the app is in the foreground: answer how to present it.
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void)
    /// A notification arrived while the app is in the foreground: how to present it.
    func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async -> UNNotificationPresentationOptions
    /// The user responded to a notification (opened it).
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse, withCompletionHandler completionHandler: @escaping () -> Void)
    /// The user responded to a notification (opened it).
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async
}

extension UNUserNotificationCenterDelegate {
    /// Calls the `async` form (which, unless implemented, presents nothing, as iOS does without a delegate).
    public func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
    ) {
        let bridge = AsyncBridge(run: { await self.userNotificationCenter(center, willPresent: notification) }, finish: completionHandler)
        Task { await bridge.go() }
    }

    public func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async -> UNNotificationPresentationOptions {
        []
    }

    /// Calls the `async` form.
    public func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse, withCompletionHandler completionHandler: @escaping () -> Void
    ) {
        let bridge = AsyncBridge(run: { await self.userNotificationCenter(center, didReceive: response) }, finish: { _ in completionHandler() })
        Task { await bridge.go() }
    }

    public func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {}
}

/// Carries a delegate's `async` method and the completion handler into the task that bridges them (the
/// delegate is used where the center delivers, as on iOS).
struct AsyncBridge<Result>: @unchecked Sendable {
    let run: () async -> Result
    let finish: (Result) -> Void
    func go() async { finish(await run()) }
}
