import Foundation
import Logging
import Synchronization

/// A thread that keeps a connection to gpsd: connects, reads reports, and reconnects when the
/// connection ends, waiting longer after each failure (``GPSDBackoff``). It hands everything it sees to
/// `events`, on its own thread.
///
/// It never spins and never holds more than a bounded line: every read waits with a deadline, a line
/// longer than gpsd ever sends or one left unfinished drops the connection, and a report that cannot
/// be used (libgps could not decode it, a position out of range) is skipped. Each such input is
/// counted in ``statistics``, and the first of each kind is told to `events` as
/// ``Event/unusable(_:)``; a connection dropped for one ends with ``Event/disconnected(_:retryIn:)``.
///
/// ```swift
/// let reader = GPSDReader(endpoint: .default) { event in print(event) }
/// reader.start()
/// ...
/// reader.stop()
/// print(reader.statistics)
/// ```
public final class GPSDReader: Sendable {
    /// What the reader tells its owner.
    public enum Event: Sendable {
        /// Connected and watching.
        case connected(GPSDEndpoint)
        /// A connection attempt failed; the next one is in `retryIn`.
        case connectFailed(GPSDError, retryIn: Duration)
        /// The connection ended (gpsd closed it, it broke, or the client dropped it for what gpsd sent,
        /// ``GPSDError/unusableInput(_:_:)``); the next attempt is in `retryIn`.
        case disconnected(GPSDError, retryIn: Duration)
        /// A TPV report, its values in range (a fix with a position out of range never comes).
        case fix(GPSDFix, device: String, receivedAt: ContinuousClock.Instant)
        /// A SKY report.
        case satellites([GPSDSatellite], device: String)
        /// A raw line from gpsd (JSON or, with `nmea`, NMEA), for recording.
        case line(String)
        /// The first input of its kind that could not be used and was skipped (later ones are only
        /// counted in ``GPSDReader/statistics``).
        case unusable(GPSDUnusableInput)
    }

    /// The first retry delay (``GPSDBackoff/initial``).
    public static let initialBackoff: Duration = GPSDBackoff.initial
    /// The longest retry delay while gpsd cannot be reached (``GPSDBackoff/maximumWhileUnreachable``).
    public static let maximumBackoff: Duration = GPSDBackoff.maximumWhileUnreachable
    /// How long a connection attempt may take.
    public static let connectTimeout: Duration = .seconds(1)
    /// How long one wait for data lasts before the reader looks whether it is asked to stop.
    static let pollInterval: Duration = .milliseconds(200)

    /// Where gpsd is.
    public let endpoint: GPSDEndpoint
    /// Only this device's reports (nil: every device's).
    public let device: String?
    /// Whether to ask for raw NMEA as well as JSON.
    public let nmea: Bool

    private let events: @Sendable (Event) -> Void
    private let stopping = Atomic<Bool>(false)
    private let finished = Mutex<Bool>(true)
    private let done = DispatchSemaphore(value: 0)
    private let wake = DispatchSemaphore(value: 0)
    private let counts = Mutex(GPSDStatistics())
    private let logger = Logger(label: "devicesim.gpsd")

    /// Creates a reader; nothing happens until ``start()``.
    public init(endpoint: GPSDEndpoint, device: String? = nil, nmea: Bool = false, events: @escaping @Sendable (Event) -> Void) {
        self.endpoint = endpoint
        self.device = device
        self.nmea = nmea
        self.events = events
    }

    /// What the reader has taken in and what it could not use, so far.
    public var statistics: GPSDStatistics { counts.withLock { $0 } }

    /// Starts the reader thread.
    public func start() {
        let alreadyRunning = finished.withLock { finished -> Bool in
            guard finished else { return true }
            finished = false
            return false
        }
        guard !alreadyRunning else { return }
        stopping.store(false, ordering: .releasing)
        while wake.wait(timeout: .now()) == .success {}  // a stop() signal left from an earlier run
        let thread = Thread { [self] in
            run()
            finished.withLock { $0 = true }
            done.signal()
        }
        thread.name = "devicesim.gpsd \(endpoint)"
        thread.start()
    }

    /// Stops the reader and waits (at most a second) for its thread to end.
    public func stop() {
        stopping.store(true, ordering: .releasing)
        wake.signal()
        let running = finished.withLock { !$0 }
        if running { _ = done.wait(timeout: .now() + 1) }
    }

    private var isStopping: Bool { stopping.load(ordering: .acquiring) }

    private func run() {
        let session = GPSDSession(endpoint: endpoint)
        var backoff = GPSDBackoff()
        var said = Set<String>()
        while !isStopping {
            counts.withLock { $0.attempts += 1 }
            do {
                try session.open(nmea: nmea, device: device, timeout: Self.connectTimeout)
            } catch {
                let delay = backoff.delay(after: .couldNotConnect)
                logger.debug("gpsd connect failed", metadata: ["endpoint": "\(endpoint)", "error": "\(error)"])
                events(.connectFailed(error, retryIn: delay))
                sleep(for: delay)
                continue
            }
            counts.withLock { $0.connections += 1 }
            logger.info("connected to gpsd", metadata: ["endpoint": "\(endpoint)"])
            events(.connected(endpoint))
            let ending = read(session, backoff: &backoff, said: &said)
            session.close()
            guard let (error, how) = ending else { break }
            let delay = backoff.delay(after: how)
            if case .unusableInput(_, let input) = error { counts.withLock { $0.count(input) } }
            logger.warning("gpsd connection ended", metadata: ["endpoint": "\(endpoint)", "error": "\(error)", "retry in": "\(delay)"])
            events(.disconnected(error, retryIn: delay))
            sleep(for: delay)
        }
    }

    /// Reads from an open session until it ends (returning why) or the reader is stopped (nil).
    /// Resets `backoff` once the connection has delivered usable lines for ``GPSDBackoff/healthyAfter``
    /// without anything unusable.
    private func read(_ session: GPSDSession, backoff: inout GPSDBackoff, said: inout Set<String>) -> (GPSDError, GPSDBackoff.Ending)? {
        var firstGoodLine: ContinuousClock.Instant?
        var clean = true
        while !isStopping {
            let read: GPSDSession.Read
            do {
                guard let next = try session.next(waitingAtMost: Self.pollInterval) else { continue }
                read = next
            } catch {
                if case .unusableInput = error { return (error, .unusableInput) }
                return (error, .closed)
            }
            let now = ContinuousClock.now
            events(.line(read.line))
            var problems = read.unusable.map { [$0] } ?? []
            if let fix = read.fix {
                let (checked, found) = GPSDFixField.check(fix)
                problems += found
                if let checked {
                    if checked.hasPosition { counts.withLock { $0.fixesUsed += 1 } }
                    events(.fix(checked, device: read.device, receivedAt: now))
                }
            }
            if let satellites = read.satellites { events(.satellites(satellites, device: read.device)) }
            for problem in problems {
                counts.withLock { $0.count(problem) }
                logger.debug("gpsd sent what cannot be used", metadata: ["endpoint": "\(endpoint)", "input": "\(problem)"])
                if said.insert(problem.kind).inserted { events(.unusable(problem)) }
            }
            if !problems.isEmpty { clean = false }
            guard clean else { continue }
            if let first = firstGoodLine {
                if first.duration(to: now) >= GPSDBackoff.healthyAfter { backoff.reset() }
            } else {
                firstGoodLine = now
            }
        }
        return nil
    }

    /// Sleeps up to `duration`, waking early when asked to stop.
    private func sleep(for duration: Duration) {
        guard !isStopping else { return }
        let (seconds, attoseconds) = duration.components
        let nanoseconds = max(0, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        _ = wake.wait(timeout: .now() + .nanoseconds(nanoseconds))
    }
}
