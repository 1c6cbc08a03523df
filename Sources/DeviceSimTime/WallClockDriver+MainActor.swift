import DeviceSimClock
import Dispatch
import Synchronization

extension WallClockDriver {
    /// Runs `scheduler` on the wall clock for `duration` (nil: until `stop` is raised) from the main actor,
    /// as ``run(_:for:stop:)`` does from a thread of its own, letting `@MainActor` work settle after every
    /// event as ``EventScheduler/runOnMainActor(until:)`` does: `devicesim live` and `serve` run a
    /// scenario whose app runs on the main actor this way. It waits for the wall clock without blocking
    /// the main actor, so main-actor code keeps running meanwhile.
    ///
    /// ```swift
    /// try await WallClockDriver(speed: 10).runOnMainActor(scheduler, for: .minutes(5), stop: stop)
    /// ```
    @MainActor
    public func runOnMainActor(_ scheduler: EventScheduler, for duration: Duration? = nil, stop: StopSignal = StopSignal()) async throws {
        let executor = scheduler.executor
        let advance = executor.beginMainActorAdvance()
        defer { advance.end() }
        let wake = WakeUp()
        executor.setWake { wake.signal() }
        stop.setWake { wake.signal() }
        defer {
            executor.setWake(nil)
            stop.setWake(nil)
        }

        let pace = Pace(from: scheduler.now, speed: speed, for: duration)
        while !stop.isRaised {
            await scheduler.settleMainActor()
            if let reason = scheduler.stopReason { throw SchedulerError.stopped(reason: reason, at: scheduler.now) }
            let (current, finishing) = pace.current()
            scheduler.advanceClock(to: current)
            switch try step(scheduler, at: current, finishing: finishing, end: pace.end, elapsed: pace.elapsed) {
            case .ranAnEvent: continue
            case .finished: break
            case .wait(let wait): if wait > .zero { await wake.wait(upTo: min(wait, .seconds(1))) }
            }
            if finishing { break }
        }
        if let end = pace.end, stop.isRaised == false { scheduler.advanceClock(to: end) }
        await scheduler.settleMainActor()
    }
}

/// Resumes one waiter when signalled or when its time is up, whichever comes first, without blocking a
/// thread: the main actor keeps running while the wall-clock driver waits.
private final class WakeUp: Sendable {
    private struct State {
        var signalled = false
        var waiter: CheckedContinuation<Void, Never>?
        var generation = 0
    }
    private let state = Mutex(State())

    func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state.waiter = nil }
            if state.waiter == nil { state.signalled = true }
            return state.waiter
        }
        waiter?.resume()
    }

    func wait(upTo duration: Duration) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let generation = state.withLock { state -> Int? in
                if state.signalled {
                    state.signalled = false
                    return nil
                }
                state.waiter = continuation
                state.generation += 1
                return state.generation
            }
            guard let generation else { return continuation.resume() }
            // A real timer, deliberately: live runs wait for the wall clock.
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(duration.wholeNanoseconds))) { [self] in
                let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                    guard state.generation == generation else { return nil }
                    defer { state.waiter = nil }
                    return state.waiter
                }
                waiter?.resume()
            }
        }
    }
}
