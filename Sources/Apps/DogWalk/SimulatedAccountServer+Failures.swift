import DeviceSimHAL
import DeviceSimServer
import DeviceSimTime

/// Server errors injected into the dog walk's account server, in the words of the campus game's
/// (`server-failures: [{ operation: sync, within: [1m, 5m], count: 1 }]`): a failed request records
/// `account.failed` (`operation`) and the app hears "the server failed the request".
///
/// ```swift
/// server.injectFailure(.sync, count: 1)
/// ```
extension SimulatedAccountServer {
    /// The server's requests, as failures name them.
    public enum Operation: String, Sendable, Hashable, CaseIterable {
        case signUp = "sign-up", signIn = "sign-in", newPassword = "new-password", userData = "user-data", sync
    }

    /// Makes requests of `operation` fail from `from` (default: now) until `until` (nil: for good), or only the next `count`.
    public func injectFailure(_ operation: Operation, from: VirtualInstant? = nil, until: VirtualInstant? = nil, count: Int? = nil) {
        failures.add(operation, from: from ?? scheduler.now, until: until, count: count)
    }

    /// Fails a request of `operation` that has arrived now, if a failure applies.
    func failIfInjected(_ operation: Operation) throws(BackendError) {
        guard failures.consume(operation, at: scheduler.now) else { return }
        events.record(TraceEvent(time: scheduler.now, device: nil, name: "account.failed", fields: [("operation", .string(operation.rawValue))]))
        throw .serverError(operation: operation.rawValue)
    }
}
