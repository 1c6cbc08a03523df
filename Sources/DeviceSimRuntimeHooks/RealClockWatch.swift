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
        } else if let executor = RealClockSleeps.simulationOfTask?.executor() {
            found = (executor, executor.isInsideAMainActorAdvance ? .mainActor : .testTask)
        } else if MainQueue.isCurrent, let only = onlyMainActorAdvance() {
            found = (only, .mainActor)
        } else {
            found = nil
        }
        guard let found, found.executor.reportsRealClockSleeps else { return }
        // A simulation that stops at the first one (a scenario run) is told its file and line too.
        let wantsLocation = found.executor.onRealClockSleep != nil && found.executor.realClockSleeps.isEmpty
        let caller = programCaller(after: ["dispatch_after_f", "dispatch_source_set_timer"], withLocation: wantsLocation)
        found.executor.noteRealClockSleep(
            RealClockSleep(origin: SimulationTaskOrigin.current, caller: caller?.name, place: found.place, location: caller?.location)
        )
    }

    /// Whether main-queue jobs are held so that a synchronous advance on the main actor can run them early
    /// (`devicesim_run_held_main_queue_jobs`); starts holding them on first use.
    static let holdsMainQueueJobs: Bool = devicesim_hold_main_queue_jobs() != 0

    /// Whether main-queue work passes through the watch in this process; installs its observer on first use.
    static let isWatchingTheMainQueue: Bool = devicesim_set_main_queue_observer(observeMainQueue) != 0

    /// Called on the thread queueing work on the main queue: a simulation draining on that thread (not
    /// from the main actor) that reports such work has main-actor work stranded.
    private static let observeMainQueue: @convention(c) () -> Void = {
        guard let executor = SimulationThread.currentExecutor, executor.reportsStrandedMainActorWork else { return }
        let first = executor.strandedMainActorWork.isEmpty
        let caller = first ? programCaller(after: ["dispatch_async_f", "dispatch_async"], withLocation: executor.onStrandedMainActorWork != nil) : nil
        executor.noteStrandedMainActorWork(
            StrandedMainActorWork(origin: SimulationTaskOrigin.current, caller: caller?.name, location: caller?.location)
        )
    }

    /// The one simulation advancing from the main actor, if exactly one is.
    private static func onlyMainActorAdvance() -> SimulationExecutor? {
        mainActorAdvancing.withLock { advancing in
            advancing.count == 1 ? advancing.first?.value.takeUnretainedValue() : nil
        }
    }

    /// The function that called one of `entries` (a timer call, a main-queue enqueue): the first frame after
    /// it that is the program's own (not the Swift runtime's, the standard library's, Dispatch's or
    /// DeviceSimTime's), demangled, e.g. "closure #1 in CheckInViewModel.arrived()", and, `withLocation`,
    /// its file:line ("CheckInViewModel.swift:42"). (A sleep that runs as a job of its own, after a hop, may
    /// have no frame of the program's on its stack: nil then.) Names only otherwise: reading the debug information for
    /// a file:line takes seconds in a large test binary. Nil when the stack cannot be symbolicated.
    private static func programCaller(after entries: Set<String>, withLocation: Bool) -> (name: String, location: String?)? {
        guard let backtrace = try? Backtrace.capture(limit: 48, top: 0) else { return nil }
        if withLocation, let found = programCaller(after: entries, in: backtrace, options: [.showSourceLocations]) { return found }
        return programCaller(after: entries, in: backtrace, options: [])
    }

    private static func programCaller(after entries: Set<String>, in backtrace: Backtrace, options: Backtrace.SymbolicationOptions) -> (name: String, location: String?)? {
        guard let symbolicated = backtrace.symbolicated(options: options) else { return nil }
        var pastTheEntry = false
        for frame in symbolicated.frames {
            guard let symbol = frame.symbol else { continue }
            let raw = symbol.rawName
            if !pastTheEntry {
                pastTheEntry = entries.contains(raw)
                continue
            }
            // (`devicesim_`: the watch's own C functions, such as the wrapper of a held main-queue job.)
            if frame.isSwiftThunk || symbol.imageName.hasPrefix("lib") || raw.hasPrefix("devicesim_") || raw.hasPrefix("$ss") || raw.hasPrefix("$sS") || raw.hasPrefix("$s13DeviceSimTime") || raw.hasPrefix("$s21DeviceSimRuntimeHooks")
                || symbol.name.hasPrefix("thunk for") || symbol.name.hasPrefix("partial apply for thunk") {
                continue
            }
            let location = symbol.sourceLocation.map { "\($0.path.split(separator: "/").last.map(String.init) ?? $0.path):\($0.line)" }
            return (symbol.name, location)
        }
        return nil
    }
}
