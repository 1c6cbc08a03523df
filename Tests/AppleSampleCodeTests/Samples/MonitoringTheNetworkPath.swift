#if canImport(Network) && !DEVICESIM
import Network
#else
import DeviceSimNetwork
#endif
import Dispatch

// Ordinary NWPathMonitor code, written from Apple's reference pages (Apple publishes no article with a
// listing for it): "NWPathMonitor" https://developer.apple.com/documentation/network/nwpathmonitor,
// "start(queue:)" https://developer.apple.com/documentation/network/nwpathmonitor/start(queue:),
// "pathUpdateHandler" https://developer.apple.com/documentation/network/nwpathmonitor/pathupdatehandler,
// "cancel()" https://developer.apple.com/documentation/network/nwpathmonitor/cancel(),
// "NWPath" https://developer.apple.com/documentation/network/nwpath ("status", "usesInterfaceType(_:)",
// "isExpensive": "Cellular interfaces are considered expensive", "isConstrained").

/// What an app keeps about its connection: online or not, over Wi-Fi, expensive, in Low Data Mode.
final class NetworkStatus: @unchecked Sendable {
    let monitor = NWPathMonitor()
    let queue = DispatchQueue(label: "Monitor")
    private(set) var isConnected = false
    private(set) var isOnWiFi = false
    private(set) var isExpensive = false
    private(set) var isConstrained = false
    /// Called on `queue` after each update (a view model would publish it to the main actor).
    var onChange: (@Sendable (NWPath) -> Void)?

    func startMonitoring() {
        monitor.pathUpdateHandler = { path in
            self.isConnected = path.status == .satisfied
            self.isOnWiFi = path.usesInterfaceType(.wifi)
            self.isExpensive = path.isExpensive
            self.isConstrained = path.isConstrained
            self.onChange?(path)
        }
        monitor.start(queue: queue)
    }

    func stopMonitoring() {
        monitor.cancel()
    }
}

/// "Initializes a path monitor to observe a specific interface type": an app that uploads on Wi-Fi only.
final class WiFiOnlyUploads: @unchecked Sendable {
    let monitor = NWPathMonitor(requiredInterfaceType: .wifi)
    private(set) var mayUpload = false

    func start() {
        monitor.pathUpdateHandler = { path in
            self.mayUpload = path.status == .satisfied
        }
        monitor.start(queue: DispatchQueue(label: "WiFiOnlyUploads"))
    }
}
