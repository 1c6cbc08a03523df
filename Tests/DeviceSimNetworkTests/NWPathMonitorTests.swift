import DeviceSim
import DeviceSimNetwork
import DeviceSimTesting
import Dispatch
import Synchronization
import Testing

/// What a monitor's handler received, in order.
private final class ReceivedPaths: Sendable {
    private let paths = Mutex<[NWPath]>([])
    func append(_ path: NWPath) { paths.withLock { $0.append(path) } }
    var all: [NWPath] { paths.withLock { $0 } }
    var summary: [String] {
        all.map { path in
            ([path.status == .satisfied ? "satisfied" : "unsatisfied"] + path.availableInterfaces.map(\.name) + (path.isExpensive ? ["expensive"] : []))
                .joined(separator: " ")
        }
    }
}

@Suite struct NWPathMonitorTests {
    private let cafe = GeoCoordinate(latitude: 52.5145, longitude: 13.3501)

    /// "Start the path monitor ... path updates will be delivered" (NWPathMonitor.start(queue:)): the
    /// current path at once, then each change at the virtual instant it happens.
    @Test func deliversTheCurrentPathThenEveryChange() throws {
        let simulation = TestSimulation(seed: 1)
        let phone = simulation.addDevice("phone", at: cafe)
        let received = ReceivedPaths()
        let monitor = DeviceContext.withDevice(phone.device) { NWPathMonitor() }
        monitor.pathUpdateHandler = { received.append($0) }
        monitor.start(queue: DispatchQueue(label: "paths"))
        #expect(monitor.queue != nil)
        try simulation.advance(by: .seconds(1))
        #expect(received.summary == ["satisfied en0"])
        try phone.setNetwork(.cellular, at: VirtualInstant(offset: .seconds(10)))
        try phone.setOnline(false, at: VirtualInstant(offset: .seconds(20)))
        try phone.setOnline(true, at: VirtualInstant(offset: .seconds(30)))
        try phone.setNetwork(.wifi, at: VirtualInstant(offset: .seconds(40)))
        try simulation.advance(by: .seconds(60))
        #expect(received.summary == ["satisfied en0", "satisfied pdp_ip0 expensive", "unsatisfied", "satisfied pdp_ip0 expensive", "satisfied en0"])
        #expect(received.all[1].usesInterfaceType(.cellular) && !received.all[1].usesInterfaceType(.wifi))
        #expect(received.all[2].status == .unsatisfied && !received.all[2].supportsDNS && received.all[2].availableInterfaces.isEmpty)
        #expect(monitor.currentPath == received.all.last)
    }

    /// "Initializes a path monitor to observe a specific interface type": a Wi-Fi monitor is
    /// unsatisfied on cellular; a monitor that prohibits cellular likewise.
    @Test func requiredAndProhibitedInterfaceTypesFilterThePath() throws {
        let simulation = TestSimulation(seed: 1)
        let phone = simulation.addDevice("phone", at: cafe)
        let wifiOnly = ReceivedPaths(), noCellular = ReceivedPaths(), cellularOnly = ReceivedPaths()
        let monitors = DeviceContext.withDevice(phone.device) {
            [NWPathMonitor(requiredInterfaceType: .wifi), NWPathMonitor(prohibitedInterfaceTypes: [.cellular]), NWPathMonitor(requiredInterfaceType: .cellular)]
        }
        for (monitor, received) in zip(monitors, [wifiOnly, noCellular, cellularOnly]) {
            monitor.pathUpdateHandler = { received.append($0) }
            monitor.start(queue: DispatchQueue(label: "paths"))
        }
        try simulation.advance(by: .seconds(1))
        phone.setNetwork(.cellular)
        try simulation.advance(by: .seconds(1))
        #expect(wifiOnly.summary == ["satisfied en0", "unsatisfied"])
        #expect(noCellular.summary == ["satisfied en0", "unsatisfied"])
        #expect(cellularOnly.summary == ["unsatisfied", "satisfied pdp_ip0 expensive"])
    }

    /// "Cancel the path monitor, after which point no more path updates will be delivered"; "multiple
    /// calls to start will be ignored".
    @Test func cancelStopsUpdatesAndASecondStartIsIgnored() throws {
        let simulation = TestSimulation(seed: 1)
        let phone = simulation.addDevice("phone", at: cafe)
        let received = ReceivedPaths()
        let monitor = DeviceContext.withDevice(phone.device) { NWPathMonitor() }
        monitor.pathUpdateHandler = { received.append($0) }
        let first = DispatchQueue(label: "first")
        monitor.start(queue: first)
        monitor.start(queue: DispatchQueue(label: "second"))
        #expect(monitor.queue === first)
        try simulation.advance(by: .seconds(1))
        monitor.cancel()
        phone.setOnline(false)
        try simulation.advance(by: .seconds(1))
        #expect(received.summary == ["satisfied en0"])
    }

    /// Two phones in one simulation: each monitor follows its own phone.
    @Test func eachMonitorFollowsItsOwnDevice() throws {
        let simulation = TestSimulation(seed: 1)
        let alice = simulation.addDevice("alice", at: cafe), bob = simulation.addDevice("bob", at: cafe)
        let alicePaths = ReceivedPaths(), bobPaths = ReceivedPaths()
        var monitors: [NWPathMonitor] = []
        for (phone, received) in [(alice, alicePaths), (bob, bobPaths)] {
            let monitor = DeviceContext.withDevice(phone.device) { NWPathMonitor() }
            monitor.pathUpdateHandler = { received.append($0) }
            monitor.start(queue: DispatchQueue(label: phone.device.id))
            monitors.append(monitor)
        }
        bob.setOnline(false)
        try simulation.advance(by: .seconds(1))
        #expect(alicePaths.summary == ["satisfied en0"])
        #expect(bobPaths.summary == ["unsatisfied"])
        #expect(monitors.map(\.currentPath.status) == [.satisfied, .unsatisfied])
    }

    /// The handler runs on the monitor's phone, as CoreLocation's delegate calls do: a `URLSession`
    /// request it makes (a check-in sent when the phone is back online) goes over that phone's network,
    /// also in a scenario run, where no test names a current device.
    @Test func theHandlerRunsOnTheMonitorsPhone() throws {
        let simulation = TestSimulation(seed: 1)
        _ = simulation.addDevice("first", at: cafe)                         // the test's current device
        let second = simulation.addDevice("second", at: cafe)
        let devices = Mutex<[String]>([])
        let monitor = DeviceContext.withDevice(second.device) { NWPathMonitor() }
        monitor.pathUpdateHandler = { _ in devices.withLock { $0.append(DeviceContext.current?.id ?? "none") } }
        monitor.start(queue: DispatchQueue(label: "paths"))
        try second.setOnline(false, at: VirtualInstant(offset: .seconds(10)))
        try simulation.advance(by: .seconds(20))
        #expect(devices.withLock { $0 } == ["second", "second"])
    }

}
