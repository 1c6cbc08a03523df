import Synchronization

/// A ``GPSDStatus`` shared between the thread that reads gpsd and the one that shows it: the reader
/// feeds events in, the display takes a snapshot and the changes since its last look.
///
/// ```swift
/// let monitor = GPSDStatusMonitor(GPSDStatus(endpoint: endpoint))
/// let reader = GPSDReader(endpoint: endpoint) { monitor.observe($0) }
/// ...
/// let (status, changes) = monitor.take()   // every second or so
/// ```
public final class GPSDStatusMonitor: Sendable {
    private let state: Mutex<(status: GPSDStatus, changes: [GPSDStatusChange])>

    /// Creates a monitor starting from `status`.
    public init(_ status: GPSDStatus) {
        state = Mutex((status, []))
    }

    /// Takes in one reader event (any thread).
    public func observe(_ event: GPSDReader.Event, at now: ContinuousClock.Instant = .now) {
        state.withLock { state in state.changes += state.status.observe(event, at: now) }
    }

    /// The state now and the problems that started or ended since the last call (checking for
    /// silence first).
    public func take(at now: ContinuousClock.Instant = .now) -> (status: GPSDStatus, changes: [GPSDStatusChange]) {
        state.withLock { state in
            state.changes += state.status.check(at: now)
            defer { state.changes = [] }
            return (state.status, state.changes)
        }
    }
}
