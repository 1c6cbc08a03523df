#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking

/// `URLSessionConfiguration.waitsForConnectivity` on Linux, where swift-corelibs-foundation declares it
/// unavailable ("Not available on non-Darwin platforms"), so that code written from Apple's
/// documentation compiles unchanged: Apple's "Fetching website data into memory" sets
/// `configuration.waitsForConnectivity = true`. (Swift prefers an available declaration to an
/// unavailable one of the same name.)
///
/// Sessions that go through the simulation (``SimulatedURLProtocol``) honour it as Apple documents it:
/// with the device offline, a task waits for connectivity instead of failing with
/// `URLError.notConnectedToInternet`, and fails with `.timedOut` after `timeoutIntervalForResource`.
/// Foundation's own HTTP loading ignores it. The flag travels in `protocolClasses` (as a class that
/// loads nothing), the one part of a configuration that every copy keeps and no server sees.
///
/// ```swift
/// let configuration = SimulatedURLProtocol.sessionConfiguration(.default)
/// configuration.waitsForConnectivity = true
/// ```
extension URLSessionConfiguration {
    /// Whether the session waits for connectivity instead of failing at once (false by default).
    public var waitsForConnectivity: Bool {
        get { protocolClasses?.contains { $0 == WaitsForConnectivityFlag.self } ?? false }
        set {
            var classes = (protocolClasses ?? []).filter { $0 != WaitsForConnectivityFlag.self }
            if newValue { classes.append(WaitsForConnectivityFlag.self) }
            protocolClasses = classes
        }
    }
}

/// The mark of a configuration that waits for connectivity: a protocol class that accepts no request.
final class WaitsForConnectivityFlag: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { false }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() {}
    override func stopLoading() {}
}
#endif
