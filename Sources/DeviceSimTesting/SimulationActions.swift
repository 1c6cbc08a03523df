import DeviceSim
import Synchronization

/// How a test touches its simulation: every action runs on the simulation's thread at a virtual
/// instant, now or later, so that the tasks it wakes stay in virtual time; what goes wrong on the way is
/// kept for the next advance to throw. Shared by a ``TestSimulation`` and its ``TestDevice``s.
final class SimulationActions: @unchecked Sendable {
    let scheduler: EventScheduler
    private let problems = Mutex<[TestSimulationError]>([])

    init(scheduler: EventScheduler) {
        self.scheduler = scheduler
    }

    /// Runs `action` at `instant` (nil: now) on the simulation's thread. Now: at once, on this thread,
    /// then what it woke (see `EventScheduler.runNow`); later: as an event of the advance that reaches
    /// `instant`. Called from a thread other than the one advancing the simulation, it runs at the next
    /// drain instead and the next advance throws ``TestSimulationError/touchedFromAnotherThread(_:at:)``.
    func perform(_ what: String, at instant: VirtualInstant? = nil, fileID: String, line: Int, _ action: @escaping () -> Void) {
        let origin = SimulationTaskOrigin(fileID: fileID, line: line)
        let executor = scheduler.executor
        if executor.isDrainedElsewhere {
            note(.touchedFromAnotherThread(what, at: origin))
            let unchecked = UncheckedAction(action)
            let scheduler = UncheckedScheduler(scheduler)
            executor.submit {
                if let instant, instant > scheduler.value.now {
                    scheduler.value.schedule(at: instant) { unchecked.action() }
                } else {
                    unchecked.action()
                }
            }
            return
        }
        if let instant, instant > scheduler.now {
            scheduler.schedule(at: instant, action)
            return
        }
        do {
            try scheduler.runNow(action)
        } catch {
            note(.runStopped(error, at: origin))
        }
    }

    /// Like ``perform(_:at:fileID:line:_:)`` with an instant, but throws when `instant` has passed.
    func perform(_ what: String, at instant: VirtualInstant, fileID: String, line: Int, checked action: @escaping () -> Void) throws(TestSimulationError) {
        if instant < scheduler.now { throw .instantInThePast(instant, now: scheduler.now) }
        perform(what, at: instant, fileID: fileID, line: line, action)
    }

    /// Keeps `problem` for the next advance.
    func note(_ problem: TestSimulationError) {
        problems.withLock { $0.append(problem) }
    }

    /// The problems noted since the last call.
    func takeProblems() -> [TestSimulationError] {
        problems.withLock { problems in
            defer { problems.removeAll() }
            return problems
        }
    }
}

/// An action carried to the simulation's thread (it runs there only).
private struct UncheckedAction: @unchecked Sendable {
    let action: () -> Void
    init(_ action: @escaping () -> Void) { self.action = action }
}

/// The scheduler carried to the simulation's thread (touched there only).
private struct UncheckedScheduler: @unchecked Sendable {
    let value: EventScheduler
    init(_ value: EventScheduler) { self.value = value }
}
