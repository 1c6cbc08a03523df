import Dispatch

/// Whether the caller runs on the main dispatch queue, which is where the main actor's jobs run.
///
/// Not `Thread.isMainThread`: on Linux, once `dispatchMain()` has been called (as Swift Testing's and
/// `async` main entry points do), the main thread exits and worker threads drain the main queue, so
/// main-actor code does not run on the main thread, nor always on the same thread.
public enum MainQueue {
    private static let key = DispatchSpecificKey<Bool>()
    private static let marked: Bool = {
        DispatchQueue.main.setSpecific(key: key, value: true)
        return true
    }()

    /// Whether the calling code runs on the main queue (a main-actor job, or a block on `DispatchQueue.main`).
    public static var isCurrent: Bool {
        _ = marked
        return DispatchQueue.getSpecific(key: key) == true
    }
}
