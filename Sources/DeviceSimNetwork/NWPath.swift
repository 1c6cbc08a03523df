/// A snapshot of the device's network, as Network's `NWPath`: whether there is a usable route, over
/// which interfaces, and whether it is expensive (cellular).
///
/// ```swift
/// monitor.pathUpdateHandler = { path in
///     if path.status == .satisfied, !path.isExpensive { uploadPhotos() }
/// }
/// ```
public struct NWPath: Equatable, Sendable, CustomDebugStringConvertible {
    /// Whether a path has a usable route, as Network's `NWPath.Status`.
    public enum Status: Equatable, Hashable, Sendable {
        /// The path has a usable route upon which to send and receive data.
        case satisfied
        /// The path does not have a usable route.
        case unsatisfied
        /// The path has no usable route now, but a connection attempt will trigger network attachment
        /// (the simulated phone never reports it: its links are up or down).
        case requiresConnection
    }

    /// Why a path is unsatisfied, as Network's `NWPath.UnsatisfiedReason`.
    public enum UnsatisfiedReason: Equatable, Hashable, Sendable {
        /// No reason is given (the path is satisfied, or no network is available).
        case notAvailable
        /// The user has disabled cellular data for the app.
        case cellularDenied
        /// The user has disabled Wi-Fi for the app.
        case wifiDenied
        /// The user has disabled local network access for the app.
        case localNetworkDenied
        /// A required VPN is not active.
        case vpnInactive
    }

    /// Whether the path has a usable route.
    public let status: Status
    /// Why the path is unsatisfied (`.notAvailable` when satisfied or when no network is up).
    public let unsatisfiedReason: UnsatisfiedReason
    /// The interfaces the path can use.
    public let availableInterfaces: [NWInterface]
    /// Whether the path uses an interface that is considered expensive (cellular).
    public let isExpensive: Bool
    /// Whether the path uses an interface in Low Data Mode (never on the simulated phone).
    public let isConstrained: Bool
    /// Whether the path can route IPv4 traffic.
    public let supportsIPv4: Bool
    /// Whether the path can route IPv6 traffic.
    public let supportsIPv6: Bool
    /// Whether the path has a DNS server configured.
    public let supportsDNS: Bool

    /// Whether the path uses an interface of `type`.
    public func usesInterfaceType(_ type: NWInterface.InterfaceType) -> Bool {
        availableInterfaces.contains { $0.type == type }
    }

    public var debugDescription: String {
        let interfaces = availableInterfaces.map(\.name).joined(separator: ", ")
        return "\(status)" + (interfaces.isEmpty ? "" : " (\(interfaces))") + (isExpensive ? ", expensive" : "")
    }

    /// The path over `interface` (nil: no network is up).
    init(interface: NWInterface?) {
        let up = interface != nil
        self.status = up ? .satisfied : .unsatisfied
        self.unsatisfiedReason = .notAvailable
        self.availableInterfaces = interface.map { [$0] } ?? []
        self.isExpensive = interface?.type == .cellular
        self.isConstrained = false
        self.supportsIPv4 = up
        self.supportsIPv6 = up
        self.supportsDNS = up
    }
}
