import Foundation
import Logging
import Synchronization

/// A thread that keeps a connection to gpsd: connects (retrying with capped exponential backoff),
/// reads reports, and reconnects when gpsd goes away. It hands everything it sees to `events`, on its
/// own thread.
///
/// ```swift
/// let reader = GPSDReader(endpoint: .default) { event in print(event) }
/// reader.start()
/// ...
/// reader.stop()
/// ```
public final class GPSDReader: Sendable {
    /// What the reader tells its owner.
    public enum Event: Sendable {
        /// Connected and watching.
        case connected(GPSDEndpoint)
        /// A connection attempt failed; the next one is in `retryIn`.
        case connectFailed(GPSDError, retryIn: Duration)
        /// The connection broke; reconnecting.
        case disconnected(GPSDError)
        /// A TPV report.
        case fix(GPSDFix, device: String, receivedAt: ContinuousClock.Instant)
        /// A SKY report.
        case satellites([GPSDSatellite], device: String)
        /// A raw line from gpsd (JSON or, with `nmea`, NMEA), for recording.
        case line(String)
    }

    /// The first retry delay; doubles after each failure up to ``maximumBackoff``.
    public static let initialBackoff: Duration = .milliseconds(250)
    /// The longest retry delay.
    public static let maximumBackoff: Duration = .seconds(4)

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
    private let logger = Logger(label: "devicesim.gpsd")

    /// Creates a reader; nothing happens until ``start()``.
    public init(endpoint: GPSDEndpoint, device: String? = nil, nmea: Bool = false, events: @escaping @Sendable (Event) -> Void) {
        self.endpoint = endpoint
        self.device = device
        self.nmea = nmea
        self.events = events
    }

    /// Starts the reader thread.
    public func start() {
        let alreadyRunning = finished.withLock { finished -> Bool in
            guard finished else { return true }
            finished = false
            return false
        }
        guard !alreadyRunning else { return }
        stopping.store(false, ordering: .releasing)
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
        let running = finished.withLock { !$0 }
        if running { _ = done.wait(timeout: .now() + 1) }
    }

    private var isStopping: Bool { stopping.load(ordering: .acquiring) }

    private func run() {
        let session = GPSDSession(endpoint: endpoint)
        var backoff = Self.initialBackoff
        while !isStopping {
            do {
                try session.open(nmea: nmea, device: device)
            } catch {
                logger.debug("gpsd connect failed", metadata: ["endpoint": "\(endpoint)", "error": "\(error)"])
                events(.connectFailed(error, retryIn: backoff))
                sleep(for: backoff)
                backoff = min(backoff * 2, Self.maximumBackoff)
                continue
            }
            backoff = Self.initialBackoff
            logger.info("connected to gpsd", metadata: ["endpoint": "\(endpoint)"])
            events(.connected(endpoint))
            while !isStopping {
                guard session.waiting(microseconds: 200_000) else { continue }
                do {
                    let read = try session.read()
                    let now = ContinuousClock.now
                    if !read.line.isEmpty { events(.line(read.line)) }
                    if let fix = read.fix { events(.fix(fix, device: read.device, receivedAt: now)) }
                    if let satellites = read.satellites { events(.satellites(satellites, device: read.device)) }
                } catch {
                    logger.warning("gpsd connection lost", metadata: ["endpoint": "\(endpoint)", "error": "\(error)"])
                    events(.disconnected(error))
                    break
                }
            }
            session.close()
        }
    }

    /// Sleeps up to `duration`, waking early when asked to stop.
    private func sleep(for duration: Duration) {
        let end = ContinuousClock.now + duration
        while !isStopping, ContinuousClock.now < end {
            Thread.sleep(forTimeInterval: min(0.05, (end - ContinuousClock.now).inSeconds))
        }
    }
}

extension Duration {
    fileprivate var inSeconds: Double {
        let (seconds, attoseconds) = components
        return max(0, Double(seconds) + Double(attoseconds) / 1e18)
    }
}
