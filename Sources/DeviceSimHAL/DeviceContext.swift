/// The device that code runs "on": where Apple-shaped APIs created without a device
/// (`CLLocationManager()`, `CBCentralManager(delegate:queue:)`, `UNUserNotificationCenter.current()`,
/// `NWPathMonitor()`) find the phone they belong to.
///
/// Many devices share one process and one world, so this is never a process-wide singleton: it is a
/// task-local value. The scenario runner sets it around each app's launch and actions, and
/// DeviceSimTesting sets it for a test (the first device a test adds is its current device). A `Task {}`
/// started inside inherits it, as task-locals are inherited.
///
/// ```swift
/// let model = DeviceContext.withDevice(phone) { CheckInViewModel() }   // its CLLocationManager is phone's
/// ```
public enum DeviceContext {
    /// The device bound by ``withDevice(_:_:)-(_,()->R)`` in the calling task (or thread).
    @TaskLocal static var bound: DeviceReference?
    /// How a test framework finds its current device when none is bound (DeviceSimTesting installs one
    /// for each test's scope).
    @TaskLocal public static var fallback: (@Sendable () -> Device?)?

    /// The device the calling code runs on: the one bound by ``withDevice(_:_:)-(_,()->R)``, else the
    /// one the test's scope names; nil when the code runs on no device.
    public static var current: Device? {
        if let bound { return bound.device }
        return fallback?()
    }

    /// Runs `body` with `device` as the current device.
    public static func withDevice<R>(_ device: Device, _ body: () throws -> R) rethrows -> R {
        try $bound.withValue(DeviceReference(device), operation: body)
    }

    /// Runs `body` with `device` as the current device, for asynchronous code.
    public static func withDevice<R>(
        _ device: Device, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R
    ) async rethrows -> R {
        try await $bound.withValue(DeviceReference(device), operation: body, isolation: isolation)
    }

    /// Runs `body` with `fallback` as the way to find the current device when none is bound (for test
    /// frameworks: the test's simulation's current device).
    public static func withFallback<R>(_ fallback: @escaping @Sendable () -> Device?, _ body: () throws -> R) rethrows -> R {
        try $fallback.withValue(fallback, operation: body)
    }
}

/// A device as a task-local value. A device is used on its simulation's thread only; the reference
/// crosses threads only with the tasks that inherit it, which run there too.
struct DeviceReference: @unchecked Sendable {
    let device: Device
    init(_ device: Device) { self.device = device }
}
