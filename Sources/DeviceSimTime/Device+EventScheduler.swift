import DeviceSimClock
import DeviceSimHAL

extension Device {
    /// The scheduler that owns the device's time, as the engine's concrete type: for the runner, the
    /// simulated drivers, servers and tests, which need more than app code's ``Device/scheduling``
    /// (repeating events, running the simulation, the executor's reports).
    ///
    /// The one place where the engine recovers its own type from the device: every `Device` in a simulation
    /// is made with an `EventScheduler` (`Device(id:scheduler:location:events:)`); a device made on
    /// another ``DeviceScheduling`` stops here with that message.
    ///
    /// ```swift
    /// let ticks = device.scheduler.repeating(every: .seconds(1)) { _ in gps.tick() }
    /// ```
    public var scheduler: EventScheduler {
        guard let scheduler = scheduling as? EventScheduler else {
            preconditionFailure("device \(id) runs on a \(type(of: scheduling)), not on DeviceSimTime's EventScheduler")
        }
        return scheduler
    }
}
