import DeviceSimHAL
import Dispatch

/// Watches the phone's network path, as Network's `NWPathMonitor`: after ``start(queue:)`` the
/// ``pathUpdateHandler`` gets the current path once, then every change, on the queue given, at the
/// virtual instants the device goes online or offline or moves between Wi-Fi and cellular.
///
/// It belongs to the current device (`DeviceContext.current`) when created; a monitor created on no
/// device reports an unsatisfied path and never changes. A device with no connectivity driver is
/// online on Wi-Fi.
///
/// ```swift
/// let monitor = NWPathMonitor()
/// monitor.pathUpdateHandler = { path in print(path.status == .satisfied ? "online" : "offline") }
/// monitor.start(queue: DispatchQueue(label: "network"))
/// ```
public final class NWPathMonitor: @unchecked Sendable, CustomDebugStringConvertible {
    private enum Filter {
        case all
        case required(NWInterface.InterfaceType)
        case prohibited([NWInterface.InterfaceType])
    }

    /// A handler that receives network path updates.
    public var pathUpdateHandler: (@Sendable (NWPath) -> Void)?
    /// The queue path updates are delivered on (nil until ``start(queue:)``).
    public private(set) var queue: DispatchQueue?

    private let device: Device?
    private let filter: Filter
    private var subscription: ObservationToken?
    private var started = false
    private var cancelled = false
    private var callbacks: CallbackContext?
    /// The last path delivered, so that a change that this monitor's filter hides is not delivered.
    private var delivered: NWPath?

    /// Creates a monitor of every interface type.
    public convenience init() {
        self.init(filter: .all)
    }

    /// Creates a monitor of one interface type: the path is satisfied only while that interface is up.
    public convenience init(requiredInterfaceType: NWInterface.InterfaceType) {
        self.init(filter: .required(requiredInterfaceType))
    }

    /// Creates a monitor of the interface types not in `prohibitedInterfaceTypes`.
    public convenience init(prohibitedInterfaceTypes: [NWInterface.InterfaceType]) {
        self.init(filter: .prohibited(prohibitedInterfaceTypes))
    }

    private init(filter: Filter) {
        self.filter = filter
        self.device = DeviceContext.current
    }

    /// The network path now, as this monitor sees it.
    public var currentPath: NWPath {
        NWPath(interface: visible(deviceInterface))
    }

    /// Starts monitoring and sets the queue path updates are delivered on; the handler gets the current
    /// path at once (at this virtual instant), then every change. Later calls are ignored.
    public func start(queue: DispatchQueue) {
        guard !started, !cancelled else { return }
        started = true
        self.queue = queue
        let callbacks = CallbackContext.on(queue)
        self.callbacks = callbacks
        guard let device else {
            deliver(currentPath)
            return
        }
        if let connectivity = device.connectivity {
            subscription = connectivity.observeInterface { [weak self] _ in
                guard let self else { return }
                deliver(currentPath)
            }
        }
        device.scheduling.schedule(after: .zero) { [weak self] in
            guard let self else { return }
            deliver(currentPath)
        }
    }

    /// Stops monitoring: no more updates are delivered.
    public func cancel() {
        cancelled = true
        subscription = nil
    }

    public var debugDescription: String { "NWPathMonitor(\(currentPath.debugDescription))" }

    private func deliver(_ path: NWPath) {
        guard !cancelled, path != delivered else { return }
        delivered = path
        guard let handler = pathUpdateHandler, let callbacks else { return }
        // The handler runs on the monitor's phone, as delegate calls do: a `URLSession` request or a
        // `Task {}` it starts belongs to that phone.
        guard let device else { return callbacks.deliver { handler(path) } }
        callbacks.deliver { DeviceContext.withDevice(device) { handler(path) } }
    }

    /// The interface the device is on now (Wi-Fi when it has no connectivity driver; nil offline).
    private var deviceInterface: NWInterface? {
        guard let device else { return nil }
        guard let connectivity = device.connectivity else { return .wifi }
        switch connectivity.interface {
        case .wifi: return .wifi
        case .cellular: return .cellular
        case nil: return nil
        }
    }

    private func visible(_ interface: NWInterface?) -> NWInterface? {
        guard let interface else { return nil }
        switch filter {
        case .all: return interface
        case .required(let type): return interface.type == type ? interface : nil
        case .prohibited(let types): return types.contains(interface.type) ? nil : interface
        }
    }
}
