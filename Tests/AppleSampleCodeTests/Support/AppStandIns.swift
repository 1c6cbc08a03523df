import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

// What Apple's sample code assumes the app has around it (a view controller's web view and load button,
// its error handlers, UIKit's UIImage, the WWDC session's error type, a meeting manager) and `print`:
// stand-ins that record what the samples do with them, so that the tests can read it. Nothing here is
// DeviceSim's.

/// Values a sample hands to its stand-ins, from whichever thread it runs on.
final class Recorded<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}

/// Whether the calling code runs on the main queue (`DispatchQueue.main`, the main actor). Not
/// `Thread.isMainThread`: under `swift test` on Linux, Foundation's idea of the main thread need not be
/// the thread that drains the main queue.
var onMainQueue: Bool {
    DispatchQueue.getSpecific(key: mainQueueKey) == true
}

private let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

/// A value a stand-in got, and where it was called: on the main queue or not, on which operation queue.
struct CalledFrom<Value: Sendable>: Sendable {
    let value: Value
    let onMainQueue: Bool
    let operationQueue: ObjectIdentifier?
    init(_ value: Value) {
        self.value = value
        self.onMainQueue = DeviceSimAppleSampleCodeTests.onMainQueue
        operationQueue = OperationQueue.current.map(ObjectIdentifier.init)
    }
}

/// A WKWebView stand-in: the HTML it was asked to show, and whether it was asked on the main queue.
final class StandInWebView: Sendable {
    struct Load: Sendable, Equatable {
        let html: String
        let baseURL: URL?
        let onMainQueue: Bool
    }
    let loads = Recorded<Load>()
    func loadHTMLString(_ string: String, baseURL: URL?) {
        loads.append(Load(html: string, baseURL: baseURL, onMainQueue: onMainQueue))
    }
}

/// A UIButton stand-in.
final class StandInButton: Sendable {
    private let enabled = Mutex(true)
    var isEnabled: Bool {
        get { enabled.withLock { $0 } }
        set { enabled.withLock { $0 = newValue } }
    }
}

/// The view controller of "Fetching website data into memory", without UIKit: its web view, its load
/// button and the two error handlers the article calls but does not show.
class StandInViewController: NSObject, @unchecked Sendable {
    let webView = StandInWebView()
    let loadButton = StandInButton()
    /// The errors `handleClientError` got (`URLError`'s code), and where it ran.
    let clientErrors = Recorded<CalledFrom<URLError.Code?>>()
    /// The status codes `handleServerError` got (nil: no HTTP response), and where it ran.
    let serverErrors = Recorded<CalledFrom<Int?>>()

    func handleClientError(_ error: Error) {
        clientErrors.append(CalledFrom((error as? URLError)?.code))
    }

    func handleServerError(_ response: URLResponse?) {
        serverErrors.append(CalledFrom((response as? HTTPURLResponse)?.statusCode))
    }
}

#if !canImport(UIKit)
/// UIKit's image, as far as the WWDC sample uses it: made from data, nil when the data is no image (here:
/// anything that does not start with PNG's signature).
struct UIImage: Sendable {
    let data: Data
    init?(data: Data) {
        guard data.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
        self.data = data
    }
}
#endif

/// The errors of the WWDC21 sample.
enum WoofError: Error {
    case invalidServerResponse
    case unsupportedImage
}

/// The meeting manager of "Handling notifications and notification-related actions": what it was asked.
final class MeetingManager: Sendable {
    let calls = Recorded<String>()
    func acceptMeeting(user: String, meetingID: String) { calls.append("accept \(meetingID) for \(user)") }
    func declineMeeting(user: String, meetingID: String) { calls.append("decline \(meetingID) for \(user)") }
    func queueMeetingForDelivery(user: String, meetingID: String) { calls.append("queue \(meetingID) for \(user)") }
}

/// What the samples printed, in order (the upload sample prints its outcome).
let printedLines = Recorded<String>()

/// `print` for the samples of this module: Swift's, and kept in ``printedLines``.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let line = items.map { "\($0)" }.joined(separator: separator)
    printedLines.append(line)
    Swift.print(line, terminator: terminator)
}
