import Synchronization

/// The simulation tasks that have been started and have not returned yet, with their origins.
///
/// Tasks start on whatever thread calls `spawn` and end on the simulation's thread, so the registry
/// has its own lock.
final class LiveTaskRegistry: Sendable {
    private let tasks = Mutex<(next: UInt64, live: [UInt64: SimulationTaskOrigin])>((0, [:]))

    /// Registers a task that starts now; returns its key for ``finish(_:)``.
    func start(_ origin: SimulationTaskOrigin) -> UInt64 {
        tasks.withLock { tasks in
            let key = tasks.next
            tasks.next += 1
            tasks.live[key] = origin
            return key
        }
    }

    /// The task registered under `key` has returned or thrown.
    func finish(_ key: UInt64) {
        _ = tasks.withLock { $0.live.removeValue(forKey: key) }
    }

    /// The origins of the live tasks, in the order they started.
    var origins: [SimulationTaskOrigin] {
        tasks.withLock { tasks in tasks.live.sorted { $0.key < $1.key }.map(\.value) }
    }
}
