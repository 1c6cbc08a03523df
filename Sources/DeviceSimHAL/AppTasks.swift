import DeviceSimClock

/// The tasks an app started on its device, ended together when the app stops (it is killed or
/// restarted): after ``stop()`` nothing new starts, and the flows check ``isStopped`` after each wait
/// so that a stopped app touches nothing more.
///
/// ```swift
/// let tasks = AppTasks(device: device)
/// tasks.run(self) { app in await app.download() }
/// tasks.stop()                      // the app is killed: its tasks are cancelled
/// ```
public final class AppTasks {
    /// The device the tasks run on.
    public let device: Device
    /// Whether ``stop()`` was called.
    public private(set) var isStopped = false
    private var running: [Task<Void, Never>] = []

    /// No task yet.
    public init(device: Device) {
        self.device = device
    }

    /// Runs `operation` on `app` as a task of the device, on its scheduler's executor (nothing, once
    /// stopped).
    public func run<App: AnyObject>(_ app: App, _ operation: @escaping @Sendable (App) async -> Void) {
        guard !isStopped else { return }
        let bound = SimulationBound(app, executor: device.scheduling.executor)
        running.removeAll { $0.isCancelled }
        running.append(device.spawn { await operation(bound.value) })
    }

    /// Cancels every task and refuses new ones.
    public func stop() {
        isStopped = true
        for task in running { task.cancel() }
        running = []
    }
}
