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
    /// The tasks started and not finished, oldest first, each with its number. A task takes itself
    /// off when it returns: a finished task kept here would keep its memory (its stack slabs) for
    /// the rest of the run, a few kilobytes per request of every device of a fleet.
    private var running: [(number: Int, task: Task<Void, Never>)] = []
    private var started = 0

    /// No task yet.
    public init(device: Device) {
        self.device = device
    }

    /// Runs `operation` on `app` as a task of the device, on its scheduler's executor (nothing, once
    /// stopped).
    public func run<App: AnyObject>(_ app: App, _ operation: @escaping @Sendable (App) async -> Void) {
        guard !isStopped else { return }
        let bound = SimulationBound(app, executor: device.scheduling.executor)
        let tasks = SimulationBound(self, executor: device.scheduling.executor)
        started += 1
        let number = started
        running.removeAll { $0.task.isCancelled }
        running.append((number, device.spawn {
            await operation(bound.value)
            tasks.value.finished(number)
        }))
    }

    /// Takes the task `number` off the running ones (it returned).
    private func finished(_ number: Int) {
        running.removeAll { $0.number == number }
    }

    /// Cancels every task and refuses new ones.
    public func stop() {
        isStopped = true
        for (_, task) in running { task.cancel() }
        running = []
    }
}
