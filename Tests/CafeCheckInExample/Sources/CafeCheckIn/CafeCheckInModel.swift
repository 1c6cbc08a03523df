import DeviceSimHAL
import Dispatch
import Foundation
import DeviceSimScenario
import Observation

/// A check-in view model written as iOS apps write them (and as the testing guide recommends): `@MainActor`,
/// `@Observable`, a `Task {}` that waits three minutes at the café on the clock it is given. With
/// `sleepsOnTheRealClock` it waits on `ContinuousClock` instead, and with `blocksTheMainThread` it holds
/// the main thread on arrival: the mistakes scenario runs must catch.
@MainActor @Observable
public final class CafeCheckInModel {
    public enum Status: Equatable { case away, atCafe, checkedIn }

    /// Ways to hold the main thread without sleeping on a clock.
    public enum MainThreadBlocking: String, Sendable {
        /// `Thread.sleep` for an hour.
        case threadSleep = "thread-sleep"
        /// Waiting on a semaphore that nothing signals.
        case semaphore
        /// A loop that never ends.
        case busyLoop = "busy-loop"
    }

    public private(set) var status: Status = .away
    private let clock: any Clock<Duration>
    private let dwell: Duration
    private let sleepsOnTheRealClock: Bool
    private let blocksTheMainThread: MainThreadBlocking?
    private let record: @MainActor (String) -> Void
    private var dwelling: Task<Void, Never>?

    public init(
        clock: any Clock<Duration>, dwell: Duration, sleepsOnTheRealClock: Bool = false, blocksTheMainThread: MainThreadBlocking? = nil,
        record: @escaping @MainActor (String) -> Void
    ) {
        self.clock = clock
        self.dwell = dwell
        self.sleepsOnTheRealClock = sleepsOnTheRealClock
        self.blocksTheMainThread = blocksTheMainThread
        self.record = record
    }

    public func arrived() {
        guard status == .away else { return }
        status = .atCafe
        record("checkin.arrived")
        if let blocksTheMainThread { hold(blocksTheMainThread) }
        dwelling = Task {
            do {
                if sleepsOnTheRealClock {
                    try await ContinuousClock().sleep(for: dwell)
                } else {
                    try await clock.sleep(for: dwell)
                }
            } catch {
                return
            }
            status = .checkedIn
            record("checkin.checked-in")
        }
    }

    /// Holds the main thread `way`, as a mistaken app would (its scenario runs must stop).
    public func hold(_ way: MainThreadBlocking) {
        switch way {
        case .threadSleep: Thread.sleep(forTimeInterval: 3600)
        case .semaphore: DispatchSemaphore(value: 0).wait()
        case .busyLoop:
            var turns = 0
            while turns >= 0 { turns = (turns &+ 1) & 0xFFFF }
        }
    }

    public func left() {
        dwelling?.cancel()
        dwelling = nil
        status = .away
        record("checkin.left")
    }
}

/// The adapter a developer writes for ``CafeCheckInModel``: it says that the app runs on the main actor,
/// creates the view model there and hands it the café's geofence transitions.
public final class CafeCheckInScenarioApp: ScenarioApp {
    public struct Settings: Sendable {
        var cafe: GeoCoordinate
        var dwell: Duration
        var realClock: Bool
        var blocksTheMainThread: CafeCheckInModel.MainThreadBlocking?
    }

    public static let name = "cafe-check-in"
    public static let settingKeys = ["cafe", "dwell", "real-clock", "blocks-main-thread"]
    public static let actions: [String: [String]] = ["leave": [], "hold-main-thread": ["how"]]
    public static let runsOnMainActor = true

    /// What the user does: leave, or (the mistake) something that holds the main thread.
    public enum Action: Sendable {
        case leave
        case holdMainThread(CafeCheckInModel.MainThreadBlocking)
    }

    private let model: CafeCheckInModel
    private var transitions: ObservationToken?

    public static func parseSettings(_ settings: YAMLMapping?) throws(ScenarioError) -> Settings {
        Settings(
            cafe: try settings?.required("cafe").coordinate() ?? GeoCoordinate(latitude: 52.5145, longitude: 13.3501),
            dwell: try settings?.optional("dwell")?.duration() ?? .seconds(180),
            realClock: try settings?.optional("real-clock")?.bool() ?? false,
            blocksTheMainThread: try settings?.optional("blocks-main-thread").map(blocking)
        )
    }

    public static func parseAction(_ name: String, step: YAMLMapping) throws(ScenarioError) -> Action {
        name == "leave" ? .leave : .holdMainThread(try blocking(step.required("how")))
    }

    private static func blocking(_ node: YAMLNode) throws(ScenarioError) -> CafeCheckInModel.MainThreadBlocking {
        let text = try node.string()
        guard let way = CafeCheckInModel.MainThreadBlocking(rawValue: text) else {
            throw ScenarioError("it must be thread-sleep, semaphore or busy-loop, found '\(text)'", at: node.location)
        }
        return way
    }

    public init(context: ScenarioAppContext, settings: Settings) {
        model = context.onMainActor { context in
            CafeCheckInModel(clock: context.device.clock, dwell: settings.dwell, sleepsOnTheRealClock: settings.realClock, blocksTheMainThread: settings.blocksTheMainThread
            ) { context.device.record($0) }
        }
        try? context.device.geofences?.startMonitoring(GeofenceRegion(id: "cafe", center: settings.cafe, radius: 100, transitions: [.enter, .exit]))
        transitions = context.device.geofences?.observe { [model] event in
            MainActor.assumeIsolated {
                switch event.transition {
                case .enter: model.arrived()
                case .exit: model.left()
                case .dwell: break
                }
            }
        }
    }

    public func perform(_ action: Action) {
        MainActor.assumeIsolated { [model] in
            switch action {
            case .leave: model.left()
            case .holdMainThread(let way): model.hold(way)
            }
        }
    }
}

/// The same app with an adapter that does not say it runs on the main actor and reaches the view model
/// through `Task { @MainActor in ... }`: the runner drives it from a worker thread, where that task
/// would run late or never.
public final class UnmarkedCafeCheckInScenarioApp: ScenarioApp {
    public static let name = "cafe-check-in-unmarked"
    public static let settingKeys = ["cafe"]
    public static let actions: [String: [String]] = [:]

    public static func parseSettings(_ settings: YAMLMapping?) throws(ScenarioError) -> GeoCoordinate {
        try settings?.required("cafe").coordinate() ?? GeoCoordinate(latitude: 52.5145, longitude: 13.3501)
    }

    public static func parseAction(_ name: String, step: YAMLMapping) throws(ScenarioError) {}

    private var transitions: ObservationToken?

    public init(context: ScenarioAppContext, settings cafe: GeoCoordinate) {
        try? context.device.geofences?.startMonitoring(GeofenceRegion(id: "cafe", center: cafe, radius: 100, transitions: [.enter]))
        transitions = context.device.geofences?.observe { _ in
            // The model would be reached this way; the test's copy touches nothing of the device, since in a
            // test process the main actor does run this task, late, after the run has stopped.
            Task { @MainActor in
                _ = CafeCheckInModel(clock: ContinuousClock(), dwell: .seconds(180)) { _ in }
            }
        }
    }

    public func perform(_ action: Void) {}
}
