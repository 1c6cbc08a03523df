/// The scripted connection drops of one device (a scenario's `drop-connection` steps with `lose:`):
/// which part of each request on its way a drop loses. Every request the drop catches loses that
/// part; a drop the script does not decide (`drop-connection` without `lose:`, going offline) is
/// decided by the seed, request by request. A drop of the interface (``during(_:drop:)``) fails the
/// requests at once; a loss in the network with the interface up (``lostInTheNetwork(_:)``) leaves
/// them to time out.
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

    /// Every request on its way loses `part` (nil: the seed decides, request by request) somewhere in
    /// the network while the device's interface stays up: the device hears nothing and times out.
    public func lostInTheNetwork(_ part: LostInFlight?) {
        let caught = watchers
        watchers = [:]
        for key in caught.keys.sorted() { caught[key]?(part) }
    }

    /// The requests on their way, each told of a loss in the network (``lostInTheNetwork(_:)``).
    private var watchers: [Int: (LostInFlight?) -> Void] = [:]
    private var nextWatcher = 0

    /// Tells `caught` when a loss in the network catches the request on its way; the key ends it.
    func watch(_ caught: @escaping (LostInFlight?) -> Void) -> Int {
        nextWatcher += 1
        watchers[nextWatcher] = caught
        return nextWatcher
    }

    /// Ends a ``watch(_:)``.
    func unwatch(_ key: Int) {
        watchers[key] = nil
    }
}
