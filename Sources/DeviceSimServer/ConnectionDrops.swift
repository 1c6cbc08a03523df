/// The scripted connection drops of one device (a scenario's `drop-connection` steps with `lose:`):
/// which part of each request on its way a drop loses. Every request the drop catches loses that
/// part; a drop the script does not decide (`drop-connection` without `lose:`, going offline) is
/// decided by the seed, request by request.
///
/// ```swift
/// let drops = ConnectionDrops()
/// drops.during(.reply) { connectivity.state = .offline; connectivity.state = .online }
/// // every request on its way was handled by the server, and its reply lost
/// ```
public final class ConnectionDrops {
    /// What the drop happening now loses (nil: no scripted drop is happening).
    private(set) var current: LostInFlight?

    /// No drop scripted.
    public init() {}

    /// Runs `drop`, which takes the device's connection down (and up again): every request on its way
    /// that it catches loses `part`.
    public func during(_ part: LostInFlight, drop: () -> Void) {
        let outer = current
        current = part
        defer { current = outer }
        drop()
    }
}
