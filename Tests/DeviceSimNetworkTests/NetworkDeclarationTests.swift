#if canImport(Network) && !DEVICESIM
import Network
#else
import DeviceSimNetwork
#endif
import Dispatch
import Testing

/// Every mirrored declaration of docs/apple-apis/Network.md, used as Apple's documentation shows it:
/// this file compiles against Apple's Network as well (on an Apple platform without `DEVICESIM`).
@Suite struct NetworkDeclarationTests {
    @Test func everyMirroredDeclarationCompiles() {
        let monitors = [NWPathMonitor(), NWPathMonitor(requiredInterfaceType: .cellular), NWPathMonitor(prohibitedInterfaceTypes: [.wiredEthernet, .loopback, .other])]
        let monitor = monitors[0]
        let handler: (@Sendable (NWPath) -> Void)? = { _ in }
        monitor.pathUpdateHandler = handler
        let queue: DispatchQueue? = monitor.queue
        #expect(queue == nil)
        let path: NWPath = monitor.currentPath
        let status: NWPath.Status = path.status
        #expect([NWPath.Status.satisfied, .unsatisfied, .requiresConnection].contains(status))
        let reason: NWPath.UnsatisfiedReason = path.unsatisfiedReason
        #expect([NWPath.UnsatisfiedReason.notAvailable, .cellularDenied, .wifiDenied, .localNetworkDenied, .vpnInactive].contains(reason))
        let types: [NWInterface.InterfaceType] = [.wifi, .cellular, .wiredEthernet, .loopback, .other]
        _ = types.map(path.usesInterfaceType)
        let flags: [Bool] = [path.isExpensive, path.isConstrained, path.supportsIPv4, path.supportsIPv6, path.supportsDNS]
        #expect(flags.count == 5)
        for interface: NWInterface in path.availableInterfaces {
            let (type, name, index): (NWInterface.InterfaceType, String, Int) = (interface.type, interface.name, interface.index)
            #expect(types.contains(type) && !name.isEmpty && index >= 0)
        }
        #expect(path == monitor.currentPath)
        monitor.start(queue: DispatchQueue(label: "declarations"))
        monitor.cancel()
    }
}
