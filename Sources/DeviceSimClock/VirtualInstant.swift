/// A point in a simulation's virtual time: the time elapsed since the simulation started.
///
/// Virtual instants are exact (whole nanoseconds), totally ordered and independent of the wall clock.
/// Durations are rounded to the nearest nanosecond (see ``Swift/Duration/wholeNanoseconds``).
///
/// ```swift
/// let start = VirtualInstant.zero
/// let later = start.advanced(by: .seconds(5))   // or start + .seconds(5)
/// start.duration(to: later) // 5 seconds          // or later - start
/// ```
public struct VirtualInstant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the start of the simulation.
    public var nanoseconds: Int64

    /// The start of the simulation.
    public static let zero = VirtualInstant(nanoseconds: 0)

    /// Creates an instant `nanoseconds` after the start of the simulation.
    @inlinable
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// Creates an instant `offset` after the start of the simulation.
    @inlinable
    public init(offset: Duration) {
        self.nanoseconds = offset.wholeNanoseconds
    }

    /// The time elapsed since the start of the simulation.
    @inlinable
    public var offset: Duration { .nanoseconds(nanoseconds) }

    /// The time since the start of the simulation, in seconds.
    public var seconds: Double { Double(nanoseconds) / 1e9 }

    @inlinable
    public func advanced(by duration: Duration) -> VirtualInstant {
        VirtualInstant(nanoseconds: nanoseconds &+ duration.wholeNanoseconds)
    }

    @inlinable
    public func duration(to other: VirtualInstant) -> Duration {
        .nanoseconds(other.nanoseconds &- nanoseconds)
    }

    /// The time from `start` to this instant in seconds: exactly `start.duration(to: self).inSeconds`,
    /// bit for bit, without the 128-bit division `Duration.components` makes (a device's motion asks
    /// this every second).
    ///
    /// ```swift
    /// VirtualInstant(nanoseconds: 2_500_000_000).seconds(since: .zero) // 2.5
    /// ```
    @inlinable
    public func seconds(since start: VirtualInstant) -> Double {
        let (seconds, nanoseconds) = (nanoseconds &- start.nanoseconds).quotientAndRemainder(dividingBy: 1_000_000_000)
        return Double(seconds) + Double(nanoseconds &* 1_000_000_000) / 1e18
    }

    @inlinable
    public static func < (lhs: VirtualInstant, rhs: VirtualInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    // The operators of the standard library's `ContinuousClock.Instant` and `SuspendingClock.Instant`.

    /// The instant `rhs` after `lhs` (``advanced(by:)``): `simulation.now + .seconds(30)`.
    @inlinable
    public static func + (lhs: VirtualInstant, rhs: Duration) -> VirtualInstant {
        lhs.advanced(by: rhs)
    }

    /// Moves `lhs` forward by `rhs`.
    public static func += (lhs: inout VirtualInstant, rhs: Duration) {
        lhs = lhs.advanced(by: rhs)
    }

    /// The instant `rhs` before `lhs`.
    public static func - (lhs: VirtualInstant, rhs: Duration) -> VirtualInstant {
        lhs.advanced(by: .zero - rhs)
    }

    /// Moves `lhs` back by `rhs`.
    public static func -= (lhs: inout VirtualInstant, rhs: Duration) {
        lhs = lhs - rhs
    }

    /// The time from `rhs` to `lhs` (negative when `lhs` is earlier): `rhs.duration(to: lhs)`.
    public static func - (lhs: VirtualInstant, rhs: VirtualInstant) -> Duration {
        rhs.duration(to: lhs)
    }

    /// Seconds since the start with millisecond precision, e.g. `"12.500s"`.
    public var description: String { VirtualInstant.format(nanoseconds: nanoseconds) + "s" }

    /// Formats nanoseconds as seconds with exactly three decimals, without floating point.
    static func format(nanoseconds: Int64) -> String {
        let negative = nanoseconds < 0
        let millis = (negative ? -nanoseconds : nanoseconds) / 1_000_000
        let whole = millis / 1000
        let fraction = millis % 1000
        let fractionText = fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
        return (negative ? "-" : "") + "\(whole).\(fractionText)"
    }
}

extension Duration {
    /// The duration in whole nanoseconds, rounded to the nearest one (halves away from zero).
    ///
    /// Rounding, not truncating, keeps durations written in decimal seconds where a person reads them:
    /// `.seconds(4.999)` is 4.998999999999999666 s as a `Double`, and lands on 4_999_000_000 ns.
    ///
    /// ```swift
    /// Duration.seconds(4.999).wholeNanoseconds      // 4_999_000_000
    /// Duration.milliseconds(4_999).wholeNanoseconds // 4_999_000_000
    /// ```
    @inlinable
    public var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (nanoseconds, remainder) = attoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        let rounding: Int64 = remainder >= 500_000_000 ? 1 : remainder <= -500_000_000 ? -1 : 0
        return seconds &* 1_000_000_000 &+ nanoseconds &+ rounding
    }

    /// The duration in seconds, as a floating-point value.
    public var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
