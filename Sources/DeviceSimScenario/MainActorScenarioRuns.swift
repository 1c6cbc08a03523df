import DeviceSimTime
import Dispatch
import Foundation

/// Runs scenarios whose app runs on the main actor, one at a time in the process, for threads that
/// wait for them (other scenarios keep running in parallel on their own threads).
///
/// Main-actor runs are not interleaved: each one's main-actor work runs in the order its own events
/// made it runnable, whatever other run is in progress, so a seed gives the same trace in `--jobs 8`
/// as alone.
enum MainActorScenarioRuns {
    /// Held by the thread whose main-actor run is in progress.
    private static let turn = NSLock()

    /// Why a scenario whose app runs on the main actor cannot be run synchronously from the main actor.
    static let calledOnTheMainActor = "the scenario's app runs on the main actor (its ScenarioApp adapter says `runsOnMainActor`), "
        + "and the run was started synchronously on the main actor, which would wait for itself: call "
        + "`try await simulation.runOnMainActor()` there, or run it from another thread"

    /// Runs `body` on the main actor, waiting (on the calling thread, which must not be the main queue's)
    /// for it and for any main-actor run before it; returns what it returned.
    static func wait<Result: Sendable>(_ body: @escaping @MainActor @Sendable () async -> Result) -> Result {
        turn.lock()
        defer { turn.unlock() }
        let done = DispatchSemaphore(value: 0)
        let outcome = Outcome<Result>()
        Task { @MainActor in
            outcome.value = await body()
            done.signal()
        }
        done.wait()
        return outcome.value!
    }

    /// The result, written on the main actor before the waiting thread is signalled.
    private final class Outcome<Value>: @unchecked Sendable {
        var value: Value?
    }
}
