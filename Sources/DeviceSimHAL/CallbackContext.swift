import DeviceSimClock
import Dispatch

/// Where an Apple-shaped API delivers its delegate calls and handlers: on the main actor when the object
/// was created there (iOS delivers on the run loop of the creating thread, the main one in practice), or
/// on a dispatch queue the app named, else on the thread that runs the simulation.
///
/// Deliveries happen at virtual instants, during the simulation's events. When the simulation runs on
/// the main actor (a `@MainActor` test's `await advance`, a scenario run with main-actor apps) a main-actor
/// delivery is a direct call; otherwise it waits for the main queue (`DispatchQueue.main.sync`), so the
/// simulation does not move on before the delegate returned.
///
/// ```swift
/// let callbacks = CallbackContext.capture()          // in the manager's init
/// callbacks.deliver { delegate?.locationManagerDidChangeAuthorization(self) }
/// ```
public struct CallbackContext: @unchecked Sendable {
    /// The queue deliveries go to; nil: the simulation's thread.
    private let queue: DispatchQueue?
    /// Whether deliveries go to the main actor (the main queue).
    public let isMainActor: Bool

    /// The context of the calling code: the main actor when called there, else the simulation's thread.
    public static func capture() -> CallbackContext {
        MainQueue.isCurrent ? CallbackContext(queue: .main, isMainActor: true) : CallbackContext(queue: nil, isMainActor: false)
    }

    /// Deliveries on `queue` (the main queue counts as the main actor); nil: as ``capture()``.
    public static func on(_ queue: DispatchQueue?) -> CallbackContext {
        guard let queue else { return capture() }
        if queue === DispatchQueue.main { return CallbackContext(queue: .main, isMainActor: true) }
        queue.setSpecific(key: queueKey, value: ObjectIdentifier(queue))
        return CallbackContext(queue: queue, isMainActor: false)
    }

    /// Runs `body` in this context and returns when it has run.
    public func deliver(_ body: () -> Void) {
        guard let queue else { return body() }
        if isMainActor && MainQueue.isCurrent { return body() }
        if !isMainActor && DispatchQueue.getSpecific(key: CallbackContext.queueKey) == ObjectIdentifier(queue) { return body() }
        queue.sync(execute: body)
    }

    private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()
}
