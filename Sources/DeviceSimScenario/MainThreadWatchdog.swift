import DeviceSimRuntimeHooks
import Dispatch
import Foundation
import Synchronization

/// Stops a scenario run whose app's main-actor code holds the main thread too long: a busy loop,
/// `Thread.sleep`, a semaphore wait or `DispatchQueue.main.sync` on the main thread. Nothing else can run
/// on the main actor meanwhile (the simulation is driven from there), so the run would stall, silently.
///
/// While a scenario whose app runs on the main actor is in progress (``ScenarioSimulation/run()``,
/// ``ScenarioSimulation/runLive(driver:stop:for:)``), the waiting thread sends a small job to the main
/// queue every tenth of a second; when one has waited longer than ``limit``, the run stops with
/// ``SchedulerError/stopped(reason:at:)``: "the main thread has been blocked for 5s by ...", the app and
/// its scenario line, the step it was running, and the function and file:line the main thread is in (a
/// stack sample, on Linux). The trace holds what ran before. The main thread stays blocked, so every
/// later main-actor run in the process stops at once, saying so; other scenarios run as usual.
///
/// ```swift
/// MainThreadWatchdog.limit = .seconds(30)   // or DEVICESIM_MAIN_THREAD_LIMIT=30s in the environment
/// ```
public enum MainThreadWatchdog {
    /// The default bound: 5 seconds.
    public static let defaultLimit: Duration = .seconds(5)

    /// The environment variable that sets ``limit`` (a duration such as `30s` or `2m`).
    public static let environmentVariable = "DEVICESIM_MAIN_THREAD_LIMIT"

    /// How long main-actor work may hold the main thread before the run stops: ``defaultLimit``, or the
    /// duration in ``environmentVariable`` when it is one longer than zero.
    public static var limit: Duration {
        get { configuredLimit.withLock { $0 } }
        set { configuredLimit.withLock { $0 = newValue } }
    }

    private static let configuredLimit = Mutex<Duration>(
        ProcessInfo.processInfo.environment[environmentVariable].flatMap(DurationText.parse).flatMap { $0 > .zero ? $0 : nil } ?? defaultLimit
    )

    /// Why the main thread is no longer usable (set by the first block seen, for good).
    static let blockedFor = Mutex<String?>(nil)

    /// How often the waiting thread looks.
    static let interval: DispatchTimeInterval = .milliseconds(100)
}

/// One main-actor run's heartbeat: a job on the main queue, sent again when the last one has run.
final class MainThreadHeartbeat: Sendable {
    private struct State {
        var sentAt: ContinuousClock.Instant?
        var mainThread: SampledThread?
    }
    private let state = Mutex(State())

    /// Called on the main actor: the thread to sample when it is blocked. Only the process's main thread
    /// is noted: a process whose main queue is served by Dispatch's worker threads (after
    /// `dispatchMain()`, as in a test process) may run the blocked job on another one, and a sample of the
    /// wrong thread would name the wrong function. Your own `devicesim` serves it from the main thread.
    func noteMainThread() {
        guard Thread.isMainThread else { return }
        state.withLock { $0.mainThread = .current }
    }

    /// Sends a beat if none is waiting; returns how long the waiting one has waited.
    func beat() -> Duration {
        let now = ContinuousClock.now
        let send = state.withLock { state -> Bool in
            guard state.sentAt == nil else { return false }
            state.sentAt = now
            return true
        }
        if send {
            DispatchQueue.main.async { [self] in
                state.withLock { $0.sentAt = nil }
                noteMainThread()
            }
        }
        return state.withLock { $0.sentAt.map { $0.duration(to: now) } ?? .zero }
    }

    /// The function (and its file:line) the main thread is running now, if a sample can tell.
    func sampleMainThread() -> String? {
        guard let thread = state.withLock({ $0.mainThread }), let frame = ThreadStackSample.programFrame(of: thread) else { return nil }
        return frame.location.map { "\(frame.name) at \($0)" } ?? frame.name
    }
}

/// What a scenario run tells the watchdog about the main-actor work in progress, for its message.
final class MainActorActivity: Sendable {
    /// The scenario step (or app launch) running right now, e.g. "the step 'leave' at check-in.yaml:16".
    let current = Mutex<String?>(nil)
    /// Whether the run is driven from the main actor (the watchdog watches only those): otherwise
    /// ``running(_:_:)`` records nothing.
    let isWatched = Atomic<Bool>(false)

    /// Runs `body` as `description`.
    func running<Result>(_ description: @autoclosure () -> String, _ body: () throws -> Result) rethrows -> Result {
        guard isWatched.load(ordering: .relaxed) else { return try body() }
        let previous = current.withLock { current in
            defer { current = description() }
            return current
        }
        defer { current.withLock { $0 = previous } }
        return try body()
    }
}
