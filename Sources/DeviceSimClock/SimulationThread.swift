import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which simulation executor the calling thread is draining right now (nil: none), in thread-local
/// storage so that the global-enqueue hook can ask without a lock.
package enum SimulationThread {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "cannot create the simulation's thread-local key")
        return key
    }()

    /// The executor the calling thread drains, as an unretained pointer (the executor outlives its drain).
    package static var current: UnsafeMutableRawPointer? {
        get { pthread_getspecific(key) }
        set { pthread_setspecific(key, newValue) }
    }

    /// The executor the calling thread drains, if any, as app-side code sees it (DeviceSimTime's
    /// `currentExecutor` gives the engine's concrete type).
    package static var currentExecuting: (any SimulationExecuting)? {
        current.map { Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue() as! any SimulationExecuting }
    }
}
