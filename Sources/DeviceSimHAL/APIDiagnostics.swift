import DeviceSimClock

/// A mistake in how app code uses an Apple-shaped API that would go unnoticed on a phone: a delegate
/// method that never runs because its name nearly matches the one the framework calls, say.
///
/// The API module reports it with ``Device/reportAPIDiagnostic(api:message:)``: it goes to the trace
/// (`api.diagnostic`) and DeviceSimTesting fails the test at the next advance.
public struct APIDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// The device it happened on.
    public var device: String
    /// When.
    public var time: VirtualInstant
    /// The API concerned (`CLLocationManagerDelegate`).
    public var api: String
    /// What is wrong and what to do.
    public var message: String

    /// Creates a diagnostic.
    public init(device: String, time: VirtualInstant, api: String, message: String) {
        self.device = device
        self.time = time
        self.api = api
        self.message = message
    }

    public var description: String { "\(device) at \(time): \(api): \(message)" }
}

/// The diagnostics reported on one device and not yet taken by a test framework.
final class APIDiagnosticLog {
    var pending: [APIDiagnostic] = []
}

extension Device {
    /// Reports a misuse of an API (see ``APIDiagnostic``): recorded in the trace as `api.diagnostic` and
    /// kept for ``takeAPIDiagnostics()``.
    ///
    /// ```swift
    /// device.reportAPIDiagnostic(api: "CLLocationManagerDelegate", message: "implement locationManager(_:didUpdateLocations:)")
    /// ```
    public func reportAPIDiagnostic(api: String, message: String) {
        record("api.diagnostic", [("api", .string(api)), ("message", .string(message))])
        platformState(APIDiagnosticLog.self) { APIDiagnosticLog() }
            .pending.append(APIDiagnostic(device: id, time: now, api: api, message: message))
    }

    /// The diagnostics reported since the last call, oldest first.
    public func takeAPIDiagnostics() -> [APIDiagnostic] {
        let log = platformState(APIDiagnosticLog.self) { APIDiagnosticLog() }
        defer { log.pending = [] }
        return log.pending
    }
}
