import DeviceSimHAL
import DeviceSimTime

/// Notifications and prompts on a simulated phone, answered by a script: a scenario step (or a test)
/// answers the prompt that is showing, or says in advance how the user will answer the next prompt
/// of a kind, after a reaction time. An unanswered prompt times out, as the app asked.
///
/// Both sides go to the trace: `prompt.shown`, `prompt.answered`, `prompt.timed-out`,
/// `prompt.withdrawn`, `prompt.answer-rejected` (a choice not offered, or a tap on a prompt that is no
/// longer showing, with the reason), `notification.posted`.
///
/// ```swift
/// let notifications = SimulatedNotifications(device: device)
/// notifications.answer(prompt: "locate-precisely", with: "yes")   // now, or when it shows
/// ```
public final class SimulatedNotifications: NotificationPresenting {
    private struct Pending {
        var prompt: UserPrompt
        var answer: (String?) -> Void
        var timeout: ScheduledEvent?
    }

    private struct Scripted {
        var choice: String
        var delay: Duration
    }

    private let deviceID: String
    private let scheduler: EventScheduler
    private let events: any EventSink
    /// Prompts showing, by id; ids grow, so their order is the order the prompts were shown.
    private var pending: [Int: Pending] = [:]
    private var nextID = 0
    private var scripted: [String: [Scripted]] = [:]
    /// How each prompt that is no longer showing closed, by id (for late answers).
    private var closed: [Int: (prompt: String, how: String)] = [:]
    /// How many notifications were posted (each is in the trace as `notification.posted`; none is
    /// kept here, so a long run's memory does not grow with them).
    public private(set) var postedCount = 0

    /// Creates the notification centre of `device` (it keeps the device's scheduler and trace, not the
    /// device, so the device may own it).
    public init(device: Device) {
        self.deviceID = device.id
        self.scheduler = device.scheduler
        self.events = device.events
    }

    private func record(_ name: String, _ fields: [(key: String, value: TraceValue)]) {
        events.record(TraceEvent(time: scheduler.now, device: deviceID, name: name, fields: fields))
    }

    /// The prompts showing now, oldest first.
    public var showing: [UserPrompt] { pending.keys.sorted().map { pending[$0]!.prompt } }

    @discardableResult
    public func ask(_ prompt: UserPrompt, timeout: Duration?, answer: @escaping (String?) -> Void) -> PromptWithdrawal {
        let id = nextID
        nextID += 1
        record("prompt.shown", [
            ("prompt", .string(prompt.id)), ("message", .string(prompt.message)), ("choices", .string(prompt.choices.joined(separator: "|"))),
        ])
        var entry = Pending(prompt: prompt, answer: answer)
        if let timeout {
            entry.timeout = scheduler.schedule(after: timeout) { [weak self] in
                guard let self, let expired = pending.removeValue(forKey: id) else { return }
                closed[id] = (expired.prompt.id, "timed out at \(scheduler.now)")
                record("prompt.timed-out", [("prompt", .string(expired.prompt.id))])
                expired.answer(nil)
            }
        }
        pending[id] = entry
        if var queue = scripted[prompt.id], !queue.isEmpty {
            let reply = queue.removeFirst()
            scripted[prompt.id] = queue
            scheduler.schedule(after: reply.delay) { [weak self] in self?.deliver(reply.choice, to: id) }
        }
        return PromptWithdrawal { [weak self] in self?.withdraw(id) }
    }

    /// Takes prompt `id` back while it shows (its visit ended): `prompt.withdrawn`, no answer.
    private func withdraw(_ id: Int) {
        guard let entry = pending.removeValue(forKey: id) else { return }
        entry.timeout?.cancel()
        closed[id] = (entry.prompt.id, "was withdrawn at \(scheduler.now)")
        record("prompt.withdrawn", [("prompt", .string(entry.prompt.id))])
    }

    public func notify(id: String, message: String) {
        postedCount += 1
        record("notification.posted", [("notification", .string(id)), ("message", .string(message))])
    }

    /// The user answers prompt `promptID` with `choice`: the oldest such prompt showing now gets the
    /// answer after `delay`; if none is showing, the next one that shows does, unless `onlyIfShowing`:
    /// then the tap lands on nothing and is recorded as `prompt.answer-rejected` after `delay`. A tap
    /// that arrives after its prompt timed out or was withdrawn is rejected too, with the reason.
    public func answer(prompt promptID: String, with choice: String, after delay: Duration = .zero, onlyIfShowing: Bool = false) {
        if let id = pending.filter({ $0.value.prompt.id == promptID }).keys.min() {
            if delay == .zero {
                deliver(choice, to: id)
            } else {
                scheduler.schedule(after: delay) { [weak self] in self?.deliver(choice, to: id) }
            }
        } else if onlyIfShowing {
            scheduler.schedule(after: delay) { [weak self] in
                guard let self else { return }
                var reason = "no '\(promptID)' prompt is showing"
                if let last = closed.filter({ $0.value.prompt == promptID }).max(by: { $0.key < $1.key }) {
                    reason += "; the last one \(last.value.how)"
                }
                record("prompt.answer-rejected", [("prompt", .string(promptID)), ("choice", .string(choice)), ("reason", .string(reason))])
            }
        } else {
            scripted[promptID, default: []].append(Scripted(choice: choice, delay: delay))
        }
    }

    private func deliver(_ choice: String, to id: Int) {
        guard let entry = pending[id] else {
            if let gone = closed[id] {
                record("prompt.answer-rejected", [
                    ("prompt", .string(gone.prompt)), ("choice", .string(choice)), ("reason", .string("the prompt \(gone.how), before this tap")),
                ])
            }
            return
        }
        guard entry.prompt.choices.contains(choice) else {
            record("prompt.answer-rejected", [
                ("prompt", .string(entry.prompt.id)), ("choice", .string(choice)),
                ("reason", .string("not one of \(entry.prompt.choices.joined(separator: "|"))")),
            ])
            return
        }
        pending[id] = nil
        entry.timeout?.cancel()
        closed[id] = (entry.prompt.id, "was answered at \(scheduler.now)")
        record("prompt.answered", [("prompt", .string(entry.prompt.id)), ("choice", .string(choice))])
        entry.answer(choice)
    }
}

/// A phone's network connectivity, scripted: offline, or online on Wi-Fi or cellular.
///
/// ```swift
/// let connectivity = SimulatedConnectivity()
/// connectivity.interface = .cellular   // still online, now on cellular
/// connectivity.state = .offline
/// ```
public final class SimulatedConnectivity: ConnectivityMonitor {
    private let observers = ObserverList<ConnectivityState>()
    private let interfaceObservers = ObserverList<NetworkInterfaceKind?>()
    /// The interface the device comes back online on (the last one it used).
    private var lastInterface: NetworkInterfaceKind

    /// Creates the monitor in `state`, on Wi-Fi while online.
    public init(_ state: ConnectivityState = .online) {
        self.interface = state == .online ? .wifi : nil
        self.lastInterface = .wifi
    }

    /// Creates the monitor online on `interface`, or offline when nil.
    public init(interface: NetworkInterfaceKind?) {
        self.interface = interface
        self.lastInterface = interface ?? .wifi
    }

    /// The current state; setting a new one notifies observers. Going online uses the interface the
    /// device used last (Wi-Fi at first).
    public var state: ConnectivityState {
        get { interface == nil ? .offline : .online }
        set { interface = newValue == .online ? (interface ?? lastInterface) : nil }
    }

    /// The interface carrying the connection (nil: offline); setting a new one notifies observers of the
    /// interface, and of the state when it went online or offline.
    public var interface: NetworkInterfaceKind? {
        didSet {
            guard interface != oldValue else { return }
            if let interface { lastInterface = interface }
            if (interface == nil) != (oldValue == nil) { observers.send(state) }
            interfaceObservers.send(interface)
        }
    }

    public func observe(_ observer: @escaping (ConnectivityState) -> Void) -> ObservationToken {
        observers.add(observer)
    }

    public func observeInterface(_ observer: @escaping (NetworkInterfaceKind?) -> Void) -> ObservationToken {
        interfaceObservers.add(observer)
    }
}
