/// A handle to something scheduled on a device's time (see ``DeviceScheduling/schedule(after:_:)``):
/// cancel it before it runs and it never runs.
///
/// ```swift
/// let timeout = device.scheduling.schedule(after: .seconds(15)) { finish(nil) }
/// // the answer came first
/// timeout.cancel()
/// ```
public protocol CancellableEvent {
    /// Cancels the event if it has not run yet; cancelling twice, or after it ran, does nothing.
    func cancel()
}
