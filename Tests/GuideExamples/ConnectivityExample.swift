import DeviceSim
import DeviceSimTesting
import Testing

// MARK: App code

/// The app's photo server; the real one calls its HTTP API.
protocol PhotoAPI: Sendable {
    func upload(_ photo: String) async throws
}

/// Uploads photos, keeping them while the device is offline and sending them when it comes back:
/// an actor with a `Task {}`, connectivity changes as an async sequence, and a retry on an injected clock.
actor PhotoUploader {
    private(set) var pending: [String] = []
    private(set) var uploaded: [String] = []
    private let api: any PhotoAPI
    private let clock: any Clock<Duration>
    private var isOnline: Bool

    init(api: any PhotoAPI, clock: any Clock<Duration>, online: Bool) {
        self.api = api
        self.clock = clock
        self.isOnline = online
    }

    /// Follows connectivity until cancelled: back online, the pending photos go up.
    func follow(_ changes: AsyncStream<ConnectivityState>) {
        Task {
            for await state in changes {
                setOnline(state == .online)
                if state == .online { await sendPending() }
            }
        }
    }

    func add(_ photo: String) async {
        pending.append(photo)
        if isOnline { await sendPending() }
    }

    private func setOnline(_ online: Bool) { isOnline = online }

    /// Sends the pending photos in order; a failed upload is retried after 5 s while online.
    private func sendPending() async {
        while isOnline, let photo = pending.first {
            do {
                try await api.upload(photo)
                pending.removeFirst()
                uploaded.append(photo)
            } catch {
                do { try await clock.sleep(for: .seconds(5)) } catch { return }
            }
        }
    }
}

// MARK: Tests

/// The server in virtual time, reached over the device's network: 300 ms per upload, failing while
/// the device is offline, and as scripted.
struct FakePhotoAPI: PhotoAPI {
    let service: FakeService<String, Void>

    init(_ phone: TestDevice) {
        service = phone.network.service("photos", latency: .milliseconds(300)) { _ in }
    }

    func upload(_ photo: String) async throws { try await service.call(photo) }
}

@Suite struct ConnectivityExampleTests {
    let home = GeoCoordinate(latitude: 52.52, longitude: 13.405)

    @Test(.simulation) func photosTakenOfflineGoUpWhenTheDeviceIsBack() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: home)
        let api = FakePhotoAPI(phone)
        let uploader = PhotoUploader(api: api, clock: simulation.clock, online: true)
        let changes = phone.connectivity.changes()
        try await simulation.run { await uploader.follow(changes) }
        phone.setOnline(false)
        simulation.spawn { await uploader.add("beach.jpg") }
        try await simulation.advance(by: .seconds(60))
        #expect(await uploader.pending == ["beach.jpg"])
        #expect(api.service.calls.isEmpty)                            // nothing was sent offline
        try phone.setOnline(true, at: VirtualInstant(offset: .seconds(90)))
        try await simulation.advance(to: VirtualInstant(offset: .milliseconds(90_300)))
        #expect(await uploader.uploaded == ["beach.jpg"])
    }

    @Test(.simulation) func aDroppedConnectionAndAServerErrorAreRetried() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: home)
        let api = FakePhotoAPI(phone)
        let uploader = PhotoUploader(api: api, clock: simulation.clock, online: true)
        let changes = phone.connectivity.changes()
        try await simulation.run { await uploader.follow(changes) }
        api.service.failNext(1)                                      // the server fails once
        simulation.spawn { await uploader.add("cat.jpg") }
        try await simulation.advance(by: .seconds(5))                 // failed at 0.3 s, retry at 5.3 s
        try phone.setOnline(false, at: VirtualInstant(offset: .milliseconds(5_400)))   // mid-upload
        try phone.setOnline(true, at: VirtualInstant(offset: .seconds(20)))
        try await simulation.advance(by: .seconds(16))
        #expect(await uploader.uploaded == ["cat.jpg"])
        // 0.0 s (a server error), 5.3 s (the connection lost at 5.4 s, noticed when the answer was due at
        // 5.6 s), nothing while offline, then 20.0 s when the device is back.
        #expect(api.service.calls.map(\.receivedAt.description) == ["0.000s", "5.300s", "20.000s"])
        #expect(simulation.events(named: "network.lost").map(\.time) == [VirtualInstant(offset: .milliseconds(5_600))])
    }
}
