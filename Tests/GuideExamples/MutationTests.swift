import DeviceSim
import DeviceSimTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import Testing

// The guide's worked examples checked by mutation: each classic bug is put into a copy of the example's
// app code (PhotoUploader of ConnectivityExample.swift, CounterViewModel of BeaconExample.swift), and the
// tests the guide recommends must fail for every mutant and pass for the correct code.

/// A classic bug, put into the examples' app code (`.none`: the code as the guide writes it).
enum Mutant: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case none
    /// Back online, the pending photos are not sent (no flush on reconnect).
    case noFlushOnReconnect
    /// The retry waits with `Task.sleep` instead of the injected clock (a real sleep).
    case realSleep
    /// The state update after the awaited upload is missing: the photo stays pending (and goes up again).
    case missingStateUpdateAfterAwait
    /// Each photo is sent twice (the "checked in twice" bug).
    case sendsTwice
    /// `stop()` does not cancel the view model's tasks (no cancel on exit).
    case noCancelOnExit
    /// A retry of the check-in is sent with a new idempotency key (the server applies it twice).
    case newKeyPerRetry

    var testDescription: String { rawValue }

    static var bugs: [Mutant] { allCases.filter { $0 != .none } }
}

// MARK: The examples' app code, with the mutations

/// ConnectivityExample.swift's `PhotoUploader`, with `mutant` put in.
actor MutantPhotoUploader {
    private(set) var pending: [String] = []
    private(set) var uploaded: [String] = []
    private let api: any PhotoAPI
    private let clock: any Clock<Duration>
    private var isOnline: Bool
    private let mutant: Mutant

    init(api: any PhotoAPI, clock: any Clock<Duration>, online: Bool, mutant: Mutant) {
        self.api = api
        self.clock = clock
        self.isOnline = online
        self.mutant = mutant
    }

    func follow(_ changes: AsyncStream<ConnectivityState>) {
        Task {
            for await state in changes {
                setOnline(state == .online)
                if state == .online && mutant != .noFlushOnReconnect { await sendPending() }
            }
        }
    }

    func add(_ photo: String) async {
        pending.append(photo)
        if isOnline { await sendPending() }
    }

    private func setOnline(_ online: Bool) { isOnline = online }

    private func sendPending() async {
        while isOnline, let photo = pending.first {
            do {
                try await api.upload(photo)
                if mutant == .sendsTwice { try await api.upload(photo) }
                if mutant != .missingStateUpdateAfterAwait { pending.removeFirst() }
                uploaded.append(photo)
            } catch {
                do {
                    if mutant == .realSleep {
                        try await Task.sleep(for: .seconds(5))
                    } else {
                        try await clock.sleep(for: .seconds(5))
                    }
                } catch { return }
            }
        }
    }
}

/// BeaconExample.swift's `CounterViewModel`, with `mutant` put in.
@MainActor final class MutantCounterViewModel {
    private(set) var offer: String?
    private(set) var inShop = false
    private let beacons: any BeaconRanging
    private let counter: BeaconIdentifier
    private var tasks: [Task<Void, Never>] = []
    private let mutant: Mutant

    init(beacons: any BeaconRanging, counter: BeaconIdentifier, mutant: Mutant) {
        self.beacons = beacons
        self.counter = counter
        self.mutant = mutant
    }

    func start() {
        tasks.append(Task {
            for await report in beacons.rangingReports() {
                let proximity = report.first { $0.beacon == counter }?.proximity ?? .unknown
                offer = proximity == .immediate ? "Pay by phone" : nil
            }
        })
        tasks.append(Task {
            for await event in beacons.fenceEvents() where event.fence == "shop" {
                inShop = event.entered
                if !event.entered { offer = nil }
            }
        })
    }

    func stop() {
        if mutant != .noCancelOnExit { tasks.forEach { $0.cancel() } }
    }
}

/// The guide's check-in over `URLSession` (docs/testing-your-flows.md, "URLSession and a fake HTTP
/// server", and Examples/CheckIn): posts one check-in with an `Idempotency-Key`, retrying 30 s after a
/// failure, with the same key until the server answers; `mutant` put in.
actor MutantCheckInSender {
    private(set) var confirmed = 0
    private let clock: any Clock<Duration>
    private let mutant: Mutant
    private var keys = 0

    init(clock: any Clock<Duration>, mutant: Mutant) {
        self.clock = clock
        self.mutant = mutant
    }

    private func makeKey() -> String {
        keys += 1
        return "key-\(keys)"
    }

    func checkIn() async {
        var key = makeKey()
        while !Task.isCancelled {
            var request = URLRequest(url: URL(string: "https://api.cafe.example/check-ins")!, timeoutInterval: 15)
            request.httpMethod = "POST"
            request.setValue(key, forHTTPHeaderField: "Idempotency-Key")
            if let (_, response) = try? await URLSession.shared.data(for: request), (response as? HTTPURLResponse)?.statusCode == 201 {
                confirmed += 1
                return
            }
            if mutant == .newKeyPerRetry { key = makeKey() }
            do { try await clock.sleep(for: .seconds(30)) } catch { return }
        }
    }
}

// MARK: The tests the guide recommends, run against each mutant

/// The guide's recommended tests, as functions of the mutant they run against: each ends the way the
/// `.simulation` trait ends a test (`expectNoPendingWork`).
enum RecommendedTests {
    static let home = GeoCoordinate(latitude: 52.52, longitude: 13.405)

    /// ConnectivityExampleTests.photosTakenOfflineGoUpWhenTheDeviceIsBack.
    static func photosTakenOfflineGoUpWhenTheDeviceIsBack(_ mutant: Mutant) async throws {
        let simulation = TestSimulation()
        let phone = simulation.addDevice("phone", at: home)
        let api = FakePhotoAPI(phone)
        let uploader = MutantPhotoUploader(api: api, clock: simulation.clock, online: true, mutant: mutant)
        let changes = phone.connectivity.changes()
        try await simulation.run { await uploader.follow(changes) }
        phone.setOnline(false)
        simulation.spawn { await uploader.add("beach.jpg") }
        try await simulation.advance(by: .seconds(60))
        #expect(await uploader.pending == ["beach.jpg"])
        #expect(api.service.calls.isEmpty)
        try phone.setOnline(true, at: VirtualInstant(offset: .seconds(90)))
        try await simulation.advance(to: VirtualInstant(offset: .milliseconds(90_300)))
        #expect(await uploader.uploaded == ["beach.jpg"])
        #expect(await uploader.pending.isEmpty)
        try simulation.expectNoPendingWork()
    }

    /// ConnectivityExampleTests.aDroppedConnectionAndAServerErrorAreRetried.
    static func aDroppedConnectionAndAServerErrorAreRetried(_ mutant: Mutant) async throws {
        let simulation = TestSimulation()
        let phone = simulation.addDevice("phone", at: home)
        let api = FakePhotoAPI(phone)
        let uploader = MutantPhotoUploader(api: api, clock: simulation.clock, online: true, mutant: mutant)
        let changes = phone.connectivity.changes()
        try await simulation.run { await uploader.follow(changes) }
        api.service.failNext(1)
        simulation.spawn { await uploader.add("cat.jpg") }
        try await simulation.advance(by: .seconds(5))
        try phone.setOnline(false, at: VirtualInstant(offset: .milliseconds(5_400)))
        try phone.setOnline(true, at: VirtualInstant(offset: .seconds(20)))
        try await simulation.advance(by: .seconds(16))
        #expect(await uploader.uploaded == ["cat.jpg"])
        #expect(api.service.calls.map(\.receivedAt.description) == ["0.000s", "5.300s", "20.000s"])
        try simulation.expectNoPendingWork()
    }

    /// BeaconExampleTests.thePaymentOfferShowsAtTheCounterOnly, and what the guide adds for `stop()`:
    /// once stopped, the view model no longer reacts (its tasks ended).
    @MainActor static func theOfferStopsWithTheScreen(_ mutant: Mutant) async throws {
        let simulation = TestSimulation(world: Shop.world)
        let phone = simulation.addDevice("phone", at: Shop.corner)
        let model = MutantCounterViewModel(beacons: phone.beacons!, counter: Shop.counter, mutant: mutant)
        model.start()
        phone.walk(to: [Shop.counterPosition.offsetBy(east: -0.3, north: 0)], speed: 1)
        try await simulation.advance(by: .seconds(60))
        #expect(model.offer == "Pay by phone")
        model.stop()
        phone.walk(to: [Shop.corner], speed: 1)
        try await simulation.advance(by: .seconds(60))
        #expect(model.offer == "Pay by phone" && model.inShop)    // out of the shop, and nothing reacted
        phone.walk(to: [Shop.counterPosition.offsetBy(east: -0.3, north: 0)], speed: 1)
        try await simulation.advance(by: .seconds(60))
        #expect(model.offer == "Pay by phone" && model.inShop)    // as stop() left them: nothing reacted since
        try simulation.expectNoPendingWork()
    }

    /// The guide's "URLSession and a fake HTTP server" test (aLostReplyIsAppliedOnce): the server applies
    /// the check-in and the reply is lost; the app times out, retries, and the server must have applied
    /// it once.
    static func aLostReplyIsAppliedOnce(_ mutant: Mutant) async throws {
        let simulation = TestSimulation()
        let phone = simulation.addDevice("phone", at: home)
        let server = FakeHTTPServer(simulation, host: "api.cafe.example") { server in
            server.route("POST", "/check-ins") { _ in .json(["id": "c1"], status: 201) }
        }
        server.failNext(1, with: .replyLost)               // applied; the reply never comes back
        let sender = MutantCheckInSender(clock: simulation.clock, mutant: mutant)
        // The phone whose URLSession this is (under the `.simulation` trait, the first device added is).
        DeviceContext.withDevice(phone.device) { _ = simulation.spawn { await sender.checkIn() } }
        try await simulation.advance(by: .seconds(60))     // timed out at 15 s, retried at 45 s
        #expect(await sender.confirmed == 1)
        #expect(server.applied("POST", "/check-ins").count == 1)
        try simulation.expectNoPendingWork()
    }

    /// Every recommended test, by name.
    @MainActor static let all: [(name: String, run: (Mutant) async throws -> Void)] = [
        ("photosTakenOfflineGoUpWhenTheDeviceIsBack", photosTakenOfflineGoUpWhenTheDeviceIsBack),
        ("aDroppedConnectionAndAServerErrorAreRetried", aDroppedConnectionAndAServerErrorAreRetried),
        ("theOfferStopsWithTheScreen", theOfferStopsWithTheScreen),
        ("aLostReplyIsAppliedOnce", aLostReplyIsAppliedOnce),
    ]
}

/// Runs `body` and says whether it failed: an expectation that failed or an error it threw (recorded as
/// a known issue, so the failure of a test against a mutant is what this test expects).
@MainActor func fails(_ body: () async throws -> Void) async -> Bool {
    let failed = FailureFlag()
    do {
        // `rethrows`: an error not matched would come out here; every issue matches.
        try await withKnownIssue(isIntermittent: true, { try await body() }, when: { true }, matching: { _ in
            failed.raise()
            return true
        })
    } catch {
        failed.raise()
    }
    return failed.isRaised
}

/// Whether an issue was seen (set from Swift Testing's issue matcher, on any thread).
final class FailureFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    func raise() { raised.store(true, ordering: .relaxed) }
    var isRaised: Bool { raised.load(ordering: .relaxed) }
}

@MainActor @Suite struct MutationTests {
    @Test func theRecommendedTestsPassForTheGuidesCode() async throws {
        for test in RecommendedTests.all { try await test.run(.none) }
    }

    /// Each bug is caught by at least one recommended test (the mutant is "killed").
    @Test(arguments: Mutant.bugs) func theRecommendedTestsCatch(_ mutant: Mutant) async {
        var caughtBy: [String] = []
        for test in RecommendedTests.all where await fails({ try await test.run(mutant) }) { caughtBy.append(test.name) }
        #expect(!caughtBy.isEmpty, "no recommended test fails with the bug \(mutant)")
        #expect(caughtBy.contains(Self.catcher[mutant] ?? ""), "\(mutant) is caught by \(caughtBy), not by the test the guide names")
    }

    /// The test the guide names for each bug (docs/testing-your-flows.md, "The test that catches each bug").
    static let catcher: [Mutant: String] = [
        .noFlushOnReconnect: "photosTakenOfflineGoUpWhenTheDeviceIsBack",
        .realSleep: "aDroppedConnectionAndAServerErrorAreRetried",
        .missingStateUpdateAfterAwait: "photosTakenOfflineGoUpWhenTheDeviceIsBack",
        .sendsTwice: "aDroppedConnectionAndAServerErrorAreRetried",
        .noCancelOnExit: "theOfferStopsWithTheScreen",
        .newKeyPerRetry: "aLostReplyIsAppliedOnce",
    ]
}
