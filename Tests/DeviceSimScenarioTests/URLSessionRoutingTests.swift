import DeviceSimHAL
@testable import DeviceSimScenario
import Synchronization
import Testing

/// The runner does not link the URL loading system: it installs DeviceSimNetwork's transport when the
/// process has `URLSession`, and refuses to run when the process has `URLSession` without that
/// transport, since an app's request would then reach the real network (`SimulatedNetworkInstallation`).
@Suite struct URLSessionRoutingTests {
    /// A transport that counts its installs (one type per test: the count is the type's).
    final class CountingRouting: URLSessionRouting {
        static let installs = Mutex(0)
        static func install() { installs.withLock { $0 += 1 } }
    }

    final class UnusedRouting: URLSessionRouting {
        static let installs = Mutex(0)
        static func install() { installs.withLock { $0 += 1 } }
    }

    @Test func aProcessWithURLSessionButNotTheSimulatedTransportCannotRunAndIsToldWhatToAdd() throws {
        let outcome = SimulatedNetworkInstallation.install(urlSessionLinked: true, routing: nil)
        #expect(outcome == .transportMissing)
        let error = try #require(outcome.setupError)
        #expect(error.contains("real network"))
        #expect(error.contains(#".product(name: "DeviceSimNetwork", package: "DeviceSim")"#))
    }

    @Test func withURLSessionTheTransportIsInstalledBeforeAnyRun() {
        let outcome = SimulatedNetworkInstallation.install(urlSessionLinked: true, routing: CountingRouting.self)
        #expect(outcome == .installed)
        #expect(outcome.setupError == nil)
        #expect(CountingRouting.installs.withLock { $0 } == 1)
    }

    @Test func withoutURLSessionNothingIsInstalledAndRunsGoOn() {
        let outcome = SimulatedNetworkInstallation.install(urlSessionLinked: false, routing: UnusedRouting.self)
        #expect(outcome == .urlSessionNotLinked)
        #expect(outcome.setupError == nil)
        #expect(UnusedRouting.installs.withLock { $0 } == 0)
    }

    /// This test process links FoundationNetworking (the URLSession tests) and DeviceSimNetwork
    /// (DeviceSimTesting): the runner sees both, finds the transport by its name and installs it.
    @Test func theRunnerFindsDeviceSimNetworksTransportByName() throws {
        #expect(SimulatedNetworkInstallation.urlSessionIsLinked())
        let routing = try #require(SimulatedNetworkInstallation.linkedRouting())
        #expect(String(reflecting: routing) == "DeviceSimNetwork.SimulatedURLProtocol")
        #expect(SimulatedNetworkInstallation.processOutcome == .installed)
    }
}
