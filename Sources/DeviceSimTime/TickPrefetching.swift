/// A target of ``EventScheduler/repeating(every:startingAt:calling:_:)`` that names the memory its
/// next tick will read, so that the scheduler can start loading it a few ticks ahead.
///
/// The scheduler runs a lane of ticks in a known order. When it takes a tick to run, it prefetches
/// the event and the target (its first 256 bytes: keep what every tick reads there) of the ninth
/// tick after it in the lane; it asks the target of the fifth, cached by then, for level 0 (what
/// the target's own stored properties point to), and the target of the third for level 1 (what
/// those objects point to in turn, cached by then). A fleet whose state does not fit in the caches
/// then seldom waits on memory. (Four ticks apart, not two: a tick of a device that stands still
/// takes less time than a load from memory on a busy machine.)
///
/// ```swift
/// final class Sampler: TickPrefetching {
///     let motion: DeviceMotion
///     var readings: [Double] = []
///     func prefetchTickState(level: Int) {
///         if level == 0 {
///             motion.prefetch()
///             Prefetch.elements(of: readings)
///         } else {
///             motion.prefetchRoute()
///         }
///     }
/// }
/// ```
public protocol TickPrefetching: AnyObject {
    /// Starts loading, with ``Prefetch``, what the next tick reads at `level` (0: what the object's
    /// stored properties point to; 1: what those point to). It must change nothing.
    func prefetchTickState(level: Int)
}
