import DeviceSimClock

/// Waits, on the simulation's executor, for the first call of a callback: a prompt's answer, a
/// ranging report that shows a beacon, a timer. `register` installs the callbacks and returns what
/// undoes them; the first `finish` wins, and cancelling the waiting task finishes with `cancelled`.
///
/// ```swift
/// let answer: String? = await waitForCallback(on: executor, cancelled: nil) { finish in
///     notifications.ask(prompt, timeout: .seconds(60)) { finish($0) }
///     return nil
/// }
/// ```
public func waitForCallback<Value: Sendable>(
    on executor: any SimulationExecuting,
    cancelled: Value,
    _ register: @escaping (_ finish: @escaping (Value) -> Void) -> (() -> Void)?
) async -> Value {
    let waiter = CallbackWaiter<Value>()
    let registration = SimulationBound(register, executor: executor)
    return await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
            waiter.begin(continuation, register: registration.value)
        }
    } onCancel: {
        executor.submit { waiter.finish(with: cancelled) }
    }
}

/// One wait: resumed once. Touched only on the simulation's thread (cancellation arrives through the
/// executor's mailbox).
private final class CallbackWaiter<Value: Sendable>: @unchecked Sendable {
    private var continuation: CheckedContinuation<Value, Never>?
    private var undo: (() -> Void)?
    private var result: Value?

    func begin(_ continuation: CheckedContinuation<Value, Never>, register: (@escaping (Value) -> Void) -> (() -> Void)?) {
        if let result {
            continuation.resume(returning: result)
            return
        }
        self.continuation = continuation
        let undo = register { [self] value in finish(with: value) }
        if result != nil { undo?() } else { self.undo = undo }
    }

    func finish(with value: Value) {
        guard result == nil else { return }
        result = value
        undo?()
        undo = nil
        continuation?.resume(returning: value)
        continuation = nil
    }
}
