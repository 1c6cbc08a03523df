import DeviceSim
import DeviceSimTesting
import DeviceSimUserNotifications
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Opens a check-in page's URL when the user taps the notification, as apps do in `didReceive`.
private final class OpeningDelegate: UNUserNotificationCenterDelegate, @unchecked Sendable {
    private(set) var statuses: [Int] = []
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
    ) {
        completionHandler([.banner])
    }
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse, withCompletionHandler completionHandler: @escaping () -> Void
    ) {
        URLSession.shared.dataTask(with: URL(string: "https://api.example.com/opened")!) { [self] _, response, _ in
            statuses.append((response as? HTTPURLResponse)?.statusCode ?? -1)
        }.resume()
        completionHandler()
    }
}

/// The delegate and the completion handlers run "on" the center's phone: a request they make is that
/// phone's, whichever phone the test (or a scenario's event) happens to be running.
@Suite struct DelegateRunsOnItsPhoneTests {
    @Test func aRequestFromDidReceiveIsSentByTheCentersPhone() throws {
        let simulation = TestSimulation(seed: 1)
        let cafe = GeoCoordinate(latitude: 52.5145, longitude: 13.3501)
        _ = simulation.addDevice("first", at: cafe)
        let second = simulation.addDevice("second", at: cafe)
        let server = FakeHTTPServer(simulation, host: "api.example.com") { server in
            server.route("GET", "/opened") { _ in .status(204) }
        }
        let center = DeviceContext.withDevice(second.device) { UNUserNotificationCenter.current() }
        let delegate = OpeningDelegate()
        center.delegate = delegate
        second.answer(prompt: UNUserNotificationCenter.authorizationPromptID, with: "Allow")
        let settingsStatus = Box<Int?>(nil)
        center.requestAuthorization(options: [.alert]) { _, _ in
            // The answer's handler runs on the phone too.
            URLSession.shared.dataTask(with: URL(string: "https://api.example.com/opened")!) { _, response, _ in
                settingsStatus.value = (response as? HTTPURLResponse)?.statusCode
            }.resume()
        }
        try simulation.advance(by: .seconds(1))
        #expect(settingsStatus.value == 204)
        let content = UNMutableNotificationContent()
        content.title = "Check in?"
        center.add(UNNotificationRequest(identifier: "check-in", content: content, trigger: nil))
        second.answer(prompt: "notification:check-in", with: "Open", after: .seconds(2))
        try simulation.advance(by: .seconds(5))
        #expect(delegate.statuses == [204])
        #expect(server.requests.map(\.device) == ["second", "second"])
    }
}
