/// The scripted connection drops of one device (a scenario's `drop-connection` steps): which part of
/// the request in flight each drop loses. A drop the script does not decide is decided by the seed.
///
/// ```swift
/// let drops = ConnectionDrops()
/// drops.script(.reply)          // the next request in flight at a drop is handled, its reply lost
/// ```
public final class ConnectionDrops {
    private var scripted: [LostInFlight] = []

    /// No drop scripted.
    public init() {}

    /// The next request caught by a drop loses `part`.
    public func script(_ part: LostInFlight) {
        scripted.append(part)
    }

    /// The scripted part for the next request caught by a drop (nil: none scripted).
    func take() -> LostInFlight? {
        scripted.isEmpty ? nil : scripted.removeFirst()
    }
}
