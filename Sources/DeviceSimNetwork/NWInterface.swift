/// A network interface a path can use, as Network's `NWInterface`: its type, its BSD name and its index.
///
/// The simulated phone has two: Wi-Fi (`en0`, index 1) and cellular (`pdp_ip0`, index 2), the names
/// iOS gives them.
///
/// ```swift
/// if let interface = path.availableInterfaces.first { label = "\(interface.name) (\(interface.type))" }
/// ```
public struct NWInterface: Hashable, Sendable, CustomDebugStringConvertible {
    /// The kind of an interface, as Network's `NWInterface.InterfaceType`.
    public enum InterfaceType: Hashable, Sendable {
        /// A virtual or otherwise unknown interface type.
        case other
        /// A Wi-Fi link.
        case wifi
        /// A cellular link.
        case cellular
        /// A wired Ethernet link.
        case wiredEthernet
        /// The loopback interface.
        case loopback
    }

    /// The interface type.
    public let type: InterfaceType
    /// The interface's name (`en0`).
    public let name: String
    /// The interface's system index.
    public let index: Int

    /// The simulated phone's Wi-Fi interface.
    static let wifi = NWInterface(type: .wifi, name: "en0", index: 1)
    /// The simulated phone's cellular interface.
    static let cellular = NWInterface(type: .cellular, name: "pdp_ip0", index: 2)

    init(type: InterfaceType, name: String, index: Int) {
        self.type = type
        self.name = name
        self.index = index
    }

    public var debugDescription: String { name }
}
