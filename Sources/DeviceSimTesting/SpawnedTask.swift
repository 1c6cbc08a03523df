import DeviceSim
import Foundation

/// A task started in a ``TestSimulation``, whose outcome a synchronous test can read once it has
/// advanced the simulation: ``isFinished``, ``result`` and ``value()``, without awaiting anything.
///
/// ```swift
/// let search = simulation.spawn { try await viewModel.search("cafe") }
/// try simulation.advance(by: .milliseconds(299))
/// #expect(!search.isFinished)             // the 300 ms debounce has not fired
/// try simulation.advance(by: .milliseconds(1))
/// #expect(try search.value() == ["Café Einstein"])
/// ```
public final class SpawnedTask<Success: Sendable>: @unchecked Sendable {
    /// The underlying task (await its `value` from async code, or cancel it).
    public let task: Task<Success, any Error>
    private let outcome: Outcome

    init(task: Task<Success, any Error>, outcome: Outcome) {
        self.task = task
        self.outcome = outcome
    }

    /// Whether the operation has returned or thrown.
    public var isFinished: Bool { outcome.result != nil }

    /// What the operation returned or threw; nil while it runs.
    public var result: Result<Success, any Error>? { outcome.result }

    /// What the operation returned; throws what it threw, or ``SpawnedTaskError/notFinished`` while it
    /// is still running (advance the simulation first).
    public func value() throws -> Success {
        guard let result = outcome.result else { throw SpawnedTaskError.notFinished }
        return try result.get()
    }

    /// Cancels the task (its sleeps on the virtual clock throw `CancellationError` at the next advance).
    public func cancel() { task.cancel() }

    /// Where the wrapped operation leaves its result (written on the simulation's thread, read by the
    /// test after advancing; a lock keeps the two apart).
    final class Outcome: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Result<Success, any Error>?

        var result: Result<Success, any Error>? {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }

        func finish(_ result: Result<Success, any Error>) {
            lock.lock()
            stored = result
            lock.unlock()
        }
    }
}

/// Why a ``SpawnedTask`` has no value to give.
public enum SpawnedTaskError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The task is still running: advance the simulation until it finishes.
    case notFinished

    public var description: String {
        "the spawned task has not finished yet; advance the simulation (advance(by:), runUntilIdle()) until it does"
    }
}
