import CRealClockWatch
import DeviceSimTime
import Runtime
import Synchronization

/// Watches the Dispatch timers the process arms and reports those armed by code running in a
/// simulation that reports them (``SimulationExecutor/reportsRealClockSleeps``).
enum RealClockWatch {
    /// Whether timers pass through the watch in this process; installs the observer on first use.
    static let isWatching: Bool = devicesim_set_real_clock_observer(observe) != 0

    /// The executors advancing from the main actor right now.
    private static let mainActorAdvancing = Mutex<[ObjectIdentifier: Unmanaged<SimulationExecutor>]>([:])

    static func beginMainActorAdvance(_ executor: SimulationExecutor) {
        mainActorAdvancing.withLock { $0[ObjectIdentifier(executor)] = .passUnretained(executor) }
    }

    static func endMainActorAdvance(_ executor: SimulationExecutor) {
        _ = mainActorAdvancing.withLock { $0.removeValue(forKey: ObjectIdentifier(executor)) }
    }

    /// Called on the thread arming a timer.
    private static let observe: @convention(c) (Int32) -> Void = { fromTimerSource in
        guard !RealClockSleeps.areAllowed else { return }
        let found: (executor: SimulationExecutor, place: RealClockSleep.Place)?
        if let executor = SimulationThread.currentExecutor {
            found = (executor, .simulationThread)
        } else if fromTimerSource != 0 {
            // Outside the simulation's thread only `dispatch_after_f` counts: the main run loop arms its own
            // timers with timer sources (XCTest spins it on the main thread while main-actor code advances a
            // simulation), and those are not the program's sleeps. (So a sleep with a tolerance is seen on
            // the simulation's thread only.)
            found = nil
        } else if let executor = RealClockSleeps.simulationOfTask?() {
            found = (executor, executor.isInsideAMainActorAdvance ? .mainActor : .testTask)
        } else if MainQueue.isCurrent, let only = onlyMainActorAdvance() {
            found = (only, .mainActor)
        } else {
            found = nil
        }
        guard let found, found.executor.reportsRealClockSleeps else { return }
        found.executor.noteRealClockSleep(
            RealClockSleep(origin: SimulationTaskOrigin.current, caller: callerName(), place: found.place)
        )
    }

    /// The one simulation advancing from the main actor, if exactly one is.
    private static func onlyMainActorAdvance() -> SimulationExecutor? {
        mainActorAdvancing.withLock { advancing in
            advancing.count == 1 ? advancing.first?.value.takeUnretainedValue() : nil
        }
    }

    /// The function that armed the timer: the first frame after the timer call that is the program's own
    /// (not the Swift runtime's, the standard library's, Dispatch's or DeviceSimTime's), demangled, e.g.
    /// "closure #1 in CheckInViewModel.arrived()". Names only: reading the debug information for a
    /// file:line takes seconds in a large test binary. Nil when the stack cannot be symbolicated.
    private static func callerName() -> String? {
        guard let backtrace = try? Backtrace.capture(limit: 48, top: 0), let symbolicated = backtrace.symbolicated(options: []) else { return nil }
        var pastTheTimer = false
        for frame in symbolicated.frames {
            guard let symbol = frame.symbol else { continue }
            let raw = symbol.rawName
            if !pastTheTimer {
                pastTheTimer = raw == "dispatch_after_f" || raw == "dispatch_source_set_timer"
                continue
            }
            if frame.isSwiftThunk || symbol.imageName.hasPrefix("lib") || raw.hasPrefix("$ss") || raw.hasPrefix("$sS") || raw.hasPrefix("$s13DeviceSimTime") || raw.hasPrefix("$s21DeviceSimRuntimeHooks")
                || symbol.name.hasPrefix("thunk for") || symbol.name.hasPrefix("partial apply for thunk") {
                continue
            }
            return symbol.name
        }
        return nil
    }
}
