import DeviceSimHAL
import DeviceSimTime

extension LocationProvider {
    /// Waits for the next fix from this source, on the simulation's executor; returns nil if the
    /// waiting task is cancelled first.
    ///
    /// ```swift
    /// let fix = await device.location.nextFix(on: device.scheduler.executor)
    /// ```
    public func nextFix(on executor: SimulationExecutor) async -> LocationFix? {
        let waiter = FixWaiter()
        let source = SimulationBound(self as any LocationProvider, executor: executor)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<LocationFix?, Never>) in
                waiter.begin(continuation, source: source.value)
            }
        } onCancel: {
            executor.submit { waiter.finish(with: nil) }
        }
    }
}

/// One wait for a fix: resumed once, by the first fix or by cancellation. Touched only on the
/// simulation's thread (the executor's mailbox carries cancellation there).
private final class FixWaiter: @unchecked Sendable {
    private var continuation: CheckedContinuation<LocationFix?, Never>?
    private var subscription: Subscription?
    private var finished = false

    func begin(_ continuation: CheckedContinuation<LocationFix?, Never>, source: any LocationProvider) {
        guard !finished else {
            continuation.resume(returning: nil)
            return
        }
        self.continuation = continuation
        subscription = source.observe { [self] update in
            if case .fix(let fix) = update { finish(with: fix) }
        }
    }

    func finish(with fix: LocationFix?) {
        finished = true
        subscription?.cancel()
        subscription = nil
        continuation?.resume(returning: fix)
        continuation = nil
    }
}
