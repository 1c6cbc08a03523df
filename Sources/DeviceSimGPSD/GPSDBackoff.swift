/// How long the client waits before connecting to gpsd again: after every failed attempt and after
/// every connection that ended, the wait doubles from ``initial``, up to ``maximumWhileUnreachable``
/// while gpsd cannot be reached or hangs up, and up to ``maximumWhileMisbehaving`` while it sends what
/// cannot be used (a gpsd that floods or stalls is not hammered with connections). The wait starts
/// over only once a connection has delivered usable reports for ``healthyAfter``, so a gpsd that
/// accepts and then fails at once is not reconnected to in a tight loop.
///
/// ```swift
/// var backoff = GPSDBackoff()
/// backoff.delay(after: .couldNotConnect)   // 0.25 s, then 0.5 s, 1 s, ... 4 s
/// backoff.reset()                          // after good data for a while
/// ```
public struct GPSDBackoff: Sendable, Hashable {
    /// How a connection attempt or a connection ended.
    public enum Ending: Sendable, Hashable {
        /// No connection (nothing listens, the host is unknown, no answer in time).
        case couldNotConnect
        /// gpsd closed the connection, or it broke.
        case closed
        /// The client dropped the connection for what gpsd sent.
        case unusableInput
    }

    /// The first wait.
    public static let initial: Duration = .milliseconds(250)
    /// The longest wait while gpsd cannot be reached or hangs up (gpsd starting up is found soon).
    public static let maximumWhileUnreachable: Duration = .seconds(4)
    /// The longest wait while gpsd sends what cannot be used.
    public static let maximumWhileMisbehaving: Duration = .seconds(30)
    /// How long a connection must deliver usable reports before the wait starts over.
    public static let healthyAfter: Duration = .seconds(10)

    /// The wait the next ending gets (before its cap).
    public private(set) var next: Duration = Self.initial

    /// Creates a backoff at its first wait.
    public init() {}

    /// The wait after `ending`; the next one doubles.
    public mutating func delay(after ending: Ending) -> Duration {
        let cap = ending == .unusableInput ? Self.maximumWhileMisbehaving : Self.maximumWhileUnreachable
        let delay = min(next, cap)
        next = min(delay * 2, cap)
        return delay
    }

    /// Starts over at ``initial`` (a connection has been healthy).
    public mutating func reset() {
        next = Self.initial
    }
}
