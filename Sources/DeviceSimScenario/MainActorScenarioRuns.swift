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
    /// for it and for any main-actor run before it; returns what it returned. When the main thread has
    /// been blocked longer than ``MainThreadWatchdog/limit`` meanwhile (or was already, by an earlier
    /// run), stops waiting and returns what `blocked` makes of the reason, the run left behind.
    static func wait<Result: Sendable>(
        _ body: @escaping @MainActor @Sendable () async -> Result, blocked: (MainThreadBlock) -> Result
    ) -> Result {
        turn.lock()
        defer { turn.unlock() }
        if let earlier = MainThreadWatchdog.blockedFor.withLock({ $0 }) { return blocked(.byAnEarlierRun(earlier)) }
        let done = DispatchSemaphore(value: 0)
        let outcome = Outcome<Result>()
        let heartbeat = MainThreadHeartbeat()
        Task { @MainActor in
            heartbeat.noteMainThread()
            outcome.value = await body()
            done.signal()
        }
        let limit = MainThreadWatchdog.limit
        while done.wait(timeout: .now() + MainThreadWatchdog.interval) == .timedOut {
            let waited = heartbeat.beat()
            guard waited > limit else { continue }
            let block = MainThreadBlock.now(for: waited, in: heartbeat.sampleMainThread())
            MainThreadWatchdog.blockedFor.withLock { $0 = $0 ?? block.summary }
            return blocked(block)
        }
        return outcome.value!
    }

    /// The result, written on the main actor before the waiting thread is signalled.
    private final class Outcome<Value>: @unchecked Sendable {
        var value: Value?
    }
}

/// The main thread held by main-actor work past ``MainThreadWatchdog/limit``.
enum MainThreadBlock: Sendable {
    /// Blocked for this long (so far), in this function at this file:line when a stack sample told.
    case now(for: Duration, in: String?)
    /// Blocked by an earlier run, as this says, and still: this run never started.
    case byAnEarlierRun(String)

    /// What an earlier run's block says to the runs after it.
    var summary: String {
        switch self {
        case .now(let duration, let frame): "blocked for \(DurationText.format(duration))" + (frame.map { " in \($0)" } ?? "")
        case .byAnEarlierRun(let summary): summary
        }
    }
}
