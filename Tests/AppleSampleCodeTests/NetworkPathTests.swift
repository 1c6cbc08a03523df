import DeviceSim
import DeviceSimNetwork
import DeviceSimTesting
import Dispatch
import Synchronization
import Testing

/// Ordinary NWPathMonitor code (Samples/MonitoringTheNetworkPath.swift) on a simulated phone.
@Suite(.simulation) struct NetworkPathTests {
    /// "Starts monitoring path changes, and sets a queue on which to deliver path events": the current
    /// path, then each change at its virtual instant, every one on the queue given.
    @Test func updatesArriveOnTheGivenQueueAsWiFiGoesAndComesBack() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: cafe, gpsOn: false)
        let status = NetworkStatus()
        let onMonitorQueue = DispatchSpecificKey<Bool>()
        status.queue.setSpecific(key: onMonitorQueue, value: true)
        let updates = Mutex<[(satisfied: Bool, onQueue: Bool)]>([])
        status.onChange = { path in
            updates.withLock { $0.append((path.status == .satisfied, DispatchQueue.getSpecific(key: onMonitorQueue) == true)) }
        }
        try simulation.perform { status.startMonitoring() }
        try await simulation.runCurrent()
        #expect(status.isConnected && status.isOnWiFi && !status.isExpensive && !status.isConstrained)

        try phone.setNetwork(.cellular, at: VirtualInstant(offset: .seconds(10)))      // Wi-Fi goes
        try await simulation.advance(by: .seconds(10))
        #expect(status.isConnected && !status.isOnWiFi && status.isExpensive)           // "Cellular interfaces are considered expensive"

        try phone.setOnline(false, at: VirtualInstant(offset: .seconds(20)))
        try await simulation.advance(by: .seconds(10))
        #expect(!status.isConnected && !status.isOnWiFi)

        try phone.setNetwork(.wifi, at: VirtualInstant(offset: .seconds(30)))          // Wi-Fi comes back
        try await simulation.advance(by: .seconds(10))
        #expect(status.isConnected && status.isOnWiFi && !status.isExpensive)

        let seen = updates.withLock { $0 }
        #expect(seen.map(\.satisfied) == [true, true, false, true])
        #expect(seen.map(\.onQueue) == [true, true, true, true])
    }

    /// "Cancel the path monitor, after which point no more path updates will be delivered."
    @Test func afterCancelNoUpdatesArrive() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: cafe, gpsOn: false)
        let status = NetworkStatus()
        try simulation.perform { status.startMonitoring() }
        try await simulation.runCurrent()
        #expect(status.isConnected)
        try simulation.perform { status.stopMonitoring() }
        phone.setOnline(false)
        try await simulation.advance(by: .seconds(1))
        #expect(status.isConnected)
    }

    /// "Initializes a path monitor to observe a specific interface type": a Wi-Fi monitor is unsatisfied
    /// on cellular.
    @Test func aWiFiMonitorIsUnsatisfiedOnCellular() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: cafe, gpsOn: false)
        let uploads = WiFiOnlyUploads()
        try simulation.perform { uploads.start() }
        try await simulation.runCurrent()
        #expect(uploads.mayUpload)
        phone.setNetwork(.cellular)
        try await simulation.runCurrent()
        #expect(!uploads.mayUpload)
        phone.setNetwork(.wifi)
        try await simulation.runCurrent()
        #expect(uploads.mayUpload)
    }
}
