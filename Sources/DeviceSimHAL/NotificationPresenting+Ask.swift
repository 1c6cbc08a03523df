import DeviceSimClock
import Synchronization

extension NotificationPresenting {
    /// Shows `prompt` and waits for the user's answer: the choice, or nil if it timed out unanswered
    /// (or the waiting task was cancelled, which takes the prompt back). It runs in the caller's isolation
    /// (a `@MainActor` view model's, say), so the presenter never crosses to another executor.
    ///
    /// ```swift
    /// let prompt = UserPrompt(id: "stamp", message: "Collect your stamp?", choices: ["Collect", "Not now"])
    /// if await prompts.ask(prompt, timeout: .seconds(60)) == "Collect" { try await api.collect() }
    /// ```
    public func ask(_ prompt: UserPrompt, timeout: Duration?, isolation: isolated (any Actor)? = #isolation) async -> String? {
        // Cancellation comes on the cancelling thread; the prompt is taken back on the simulation's.
        let home = SimulationThread.currentExecuting
        let waiter = PromptWaiter()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
                guard waiter.begin(continuation) else { return }
                let withdrawal = ask(prompt, timeout: timeout) { answer in waiter.finish(answer) }
                waiter.keep(withdrawal)
            }
        } onCancel: {
            if let home, !home.isDrainingOnThisThread {
                home.submit { waiter.cancel() }
            } else {
                waiter.cancel()
            }
        }
    }
}

/// One `ask` waiting for its answer: resumed once, by the answer, the time-out or cancellation.
private final class PromptWaiter: @unchecked Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<String?, Never>?, finished: Bool)>((nil, false))
    /// Touched on the simulation's thread only.
    private var withdrawal: PromptWithdrawal?

    /// Installs the continuation; false (and resumed with nil) if the wait was cancelled already.
    func begin(_ continuation: CheckedContinuation<String?, Never>) -> Bool {
        let cancelled = state.withLock { state -> Bool in
            if state.finished { return true }
            state.continuation = continuation
            return false
        }
        if cancelled { continuation.resume(returning: nil) }
        return !cancelled
    }

    func keep(_ withdrawal: PromptWithdrawal) {
        if state.withLock({ $0.finished }) { withdrawal.withdraw() } else { self.withdrawal = withdrawal }
    }

    func finish(_ answer: String?) {
        let continuation = state.withLock { state -> CheckedContinuation<String?, Never>? in
            guard !state.finished else { return nil }
            state.finished = true
            defer { state.continuation = nil }
            return state.continuation
        }
        withdrawal = nil
        continuation?.resume(returning: answer)
    }

    /// Takes the prompt back (on the simulation's thread) and ends the wait with nil.
    func cancel() {
        let withdrawal = self.withdrawal
        self.withdrawal = nil
        finish(nil)
        withdrawal?.withdraw()
    }
}
