import DeviceSimHAL
import DeviceSimTime

/// A phone's Bluetooth beacon ranging and fence monitoring in a simulated world, with AltBeacon's
/// defaults: one ranging report a second, RSSI smoothed over 20 s (10% trimmed), distance from the
/// measured power, proximity classes, and a fence left after 10 s without a sighting.
///
/// ```swift
/// let ranging = SimulatedBeaconRanging(scheduler: scheduler, motion: motion, world: index, random: random.split("ble"))
/// ranging.isEnabled = true
/// let reports = ranging.observeRanging { sightings in ... }
/// ```
public final class SimulatedBeaconRanging: BeaconRanging, TickPrefetching {
    /// Ranging timing.
    public struct Configuration: Sendable, Hashable {
        /// One ranging cycle (and report) per period.
        public var cyclePeriod: Duration = .seconds(1)
        /// Advertisements received from each beacon in reach per cycle (before sensitivity).
        public var samplesPerCycle = 5
        /// How long RSSI samples are averaged.
        public var smoothingWindow: Duration = .seconds(20)
        /// A fence is left after this long without a sighting of any of its beacons.
        public var fenceExitDelay: Duration = .seconds(10)

        /// The defaults.
        public init() {}
    }

    /// A beacon in reach of the last position ranged from: its slot in the tracked beacons, its mean
    /// RSSI there.
    private struct BeaconInReach {
        let slot: Int
        let meanRSSI: Double

        /// What an unused inline place holds.
        static let unused = BeaconInReach(slot: 0, meanRSSI: 0)
    }

    /// A beacon this device has had in reach: its index in the world, its fence, and the random
    /// stream of its samples (kept for the run, so what the device sees of a beacon does not depend
    /// on when it first came into reach). All in one array, so a cycle touches one buffer.
    private struct TrackedBeacon {
        let index: Int
        let fence: Int?
        /// Whether the device is in its fence (kept on each beacon of the fence, so that a cycle that
        /// hears a beacon of a fence the device is in reads nothing of `fencesInside`).
        var isInFence = false
        /// Its shadowing stream, made when it first comes into reach (nil before, and without shadowing).
        var stream: SeededRandomGenerator?
        /// When (nanoseconds) a cycle last heard it (`Int64.min`: never).
        var lastHeard = Int64.min
    }

    // What every cycle reads and writes comes first, so that it lies in the object's first 256
    // bytes, which the scheduler prefetches (240 bytes after the object's header, all used; five
    // lines when malloc's 16-byte alignment puts them across one more), instead of other heap
    // blocks; what only a cycle with beacons in reach reads comes next (its prefetch loads those
    // lines then). (The driver's state is touched by its own cycle only, one thread at a time: no
    // dynamic exclusivity checks on it.)
    private let scheduler: EventScheduler
    private let motion: DeviceMotion
    /// Ranging cycles run.
    @exclusivity(unchecked) public private(set) var cycleCount = 0
    /// How many beacons the latest cycle heard (each marked in `tracked` with the cycle's instant;
    /// at most ``maximumBeaconsInReach``). 32 bits, as `reportObservers`: the two share a word.
    @exclusivity(unchecked) private var heardCount: Int32 = 0
    /// How many observe reports (kept here: checked every cycle).
    @exclusivity(unchecked) private var reportObservers: Int32 = 0
    /// How many beacons are in reach of `inReachPosition`: the first ``inlineInReach`` of them in
    /// `inReachInline`, the rest in `moreInReach`.
    @exclusivity(unchecked) private var inReachCount = 0
    /// How many fences the device is in (the count of `fencesInside`, kept here so that a cycle
    /// outside every fence does not read that list's buffer).
    @exclusivity(unchecked) private var fenceCount = 0
    /// From when (nanoseconds) a fence may be left: the earliest `lastSeen` in `fencesInside` plus
    /// the exit delay. A cycle before it reads nothing of `fencesInside` (see `leaveFencesNotSeen`).
    @exclusivity(unchecked) private var nextFenceCheck = Int64.max
    /// The slots in `tracked` of the first four beacons in reach, each plus one in sixteen bits (0:
    /// none), the first in the lowest bits: the entries a cycle's prefetch loads (a device that
    /// walked past other beacons tracks them too, and a cycle reads only those in reach).
    @exclusivity(unchecked) private var inReachSlotsToPrefetch: UInt64 = 0
    /// Until when (nanoseconds) no beacon can be in reach, so that a cycle looks nothing up: set when a
    /// lookup finds none, from how far the nearest beacon's range is and how fast the motion goes at
    /// most (0: a cycle looks up; the motion's changes reset it). See `quietCycles(from:at:)`.
    @exclusivity(unchecked) private var quietUntil: Int64 = 0
    /// Before when (nanoseconds) a quiet spell is not looked for again (after a lookup found the
    /// device too close to a beacon's range for one).
    @exclusivity(unchecked) private var nextQuietCheck: Int64 = 0
    /// Cycles that looked up the beacons in reach (the others were in a quiet spell).
    @exclusivity(unchecked) private(set) var lookupCount = 0
    /// When the latest cycle ran.
    @exclusivity(unchecked) private var lastCycleInstant = VirtualInstant.zero
    /// ``Configuration/fenceExitDelay`` in nanoseconds, rounded up (a fence is left once the time
    /// since its last sighting, in whole nanoseconds, reaches it).
    private let fenceExitNanoseconds: Int64
    /// Whether the next cycle falls in a quiet spell (set by each cycle, read by the prefetch).
    @exclusivity(unchecked) private var nextCycleIsQuiet = false
    /// Whether cycles skip their lookups in quiet spells (tests compare a driver without them).
    @exclusivity(unchecked) var looksForQuietSpells = true
    /// How many of the next cycles were drawn ahead and change no fence (see `drawStandingCycles`):
    /// each of them, while the device stands still and no one observes reports, only counts itself
    /// as pending, reading nothing beyond the driver's first lines.
    @exclusivity(unchecked) private var standingCyclesLeft: UInt8 = 0
    /// The cycles run that way and not yet sampled into the log (see `settleStandingCycles`): the
    /// latest of them at `lastCycleInstant`, each one period after the one before.
    @exclusivity(unchecked) private var pendingStandingCycles: UInt8 = 0
    /// Whether a device standing still in reach of beacons has its cycles drawn ahead (tests compare
    /// a driver without it).
    @exclusivity(unchecked) var drawsStandingCyclesAhead = true
    /// The samples of the beacons in reach over the smoothing window.
    @exclusivity(unchecked) private var samples = BeaconSampleLog()
    /// The beacons this device has had in reach, by slot.
    @exclusivity(unchecked) private var tracked: [TrackedBeacon] = []
    /// The fences the device is in (indices into ``WorldIndex/fenceNames``, ascending) and when a
    /// beacon of each was last heard, as far as the latest fence check knows (the beacons'
    /// `lastHeard` tell since: see `leaveFencesNotSeen`).
    @exclusivity(unchecked) private var fencesInside: [(fence: Int, lastSeen: Int64)] = []
    /// The latest report, once built (it is built when someone observes reports or reads it).
    @exclusivity(unchecked) private var builtReport: (cycle: Int, sightings: [BeaconSighting])?

    /// How samples are drawn, heard and smoothed (from the world's radio environment and the configuration).
    private let sampleModel: BeaconSampleModel
    /// The position the beacons in reach were looked up from. A device standing still ranges from
    /// the same position cycle after cycle and skips the lookup.
    @exclusivity(unchecked) private var inReachPosition: GeoCoordinate?
    /// The first beacons in reach of `inReachPosition`, in the world index's order, in the driver
    /// itself (a device has a few beacons in reach, if any): see `inReachCount`.
    @exclusivity(unchecked) private var inReachInline: (BeaconInReach, BeaconInReach, BeaconInReach, BeaconInReach) = (.unused, .unused, .unused, .unused)

    // Read when the device moves, a beacon comes into reach or a fence is entered.
    private let world: WorldIndex
    /// The beacons in reach after the first ``inlineInReach`` (see `inReachCount`).
    @exclusivity(unchecked) private var moreInReach: [BeaconInReach] = []
    @exclusivity(unchecked) private var candidates: BeaconCandidates?
    /// The beacons the latest lookup found: its first `count` entries (kept for its capacity).
    @exclusivity(unchecked) private var nearby: [(index: Int, distance: Double)] = []
    /// The fences a cycle entered and the slot of the beacon that let it in (kept for its capacity).
    @exclusivity(unchecked) private var entered: [(fence: Int, slot: Int)] = []
    /// The world's radio environment.
    private let environment: RadioEnvironment

    // Read rarely (not every cycle).
    private let fenceEvents = ObserverList<BeaconFenceEvent>()
    private let powerEvents = ObserverList<Bool>()
    /// The driver's settings.
    public let configuration: Configuration
    private let shadowingRoot: SeededRandomGenerator
    private let reports = ObserverList<[BeaconSighting]>()
    private var timer: RepeatingEvent?
    /// The slot of each tracked beacon by its world index, once more than a few are tracked (a
    /// device usually tracks a handful: those are found by a scan of `tracked`).
    private var slotOfBeacon: [Int: Int] = [:]

    deinit {
        timer?.cancel()
    }

    /// Creates the ranging driver, Bluetooth off.
    public init(scheduler: EventScheduler, motion: DeviceMotion, world: WorldIndex, configuration: Configuration = Configuration(), random: SeededRandomGenerator) {
        self.scheduler = scheduler
        self.motion = motion
        self.world = world
        self.configuration = configuration
        self.shadowingRoot = random
        let exitDelay = configuration.fenceExitDelay
        fenceExitNanoseconds = exitDelay.wholeNanoseconds + (Duration.nanoseconds(exitDelay.wholeNanoseconds) < exitDelay ? 1 : 0)
        let environment = world.world.radio
        self.environment = environment
        sampleModel = BeaconSampleModel(
            sigma: environment.beaconFading, sensitivity: environment.beaconSensitivity, samplesPerCycle: configuration.samplesPerCycle,
            period: configuration.cyclePeriod.wholeNanoseconds, window: configuration.smoothingWindow.wholeNanoseconds, trim: 0.1)
        // A quiet spell holds for the motion it was worked out from.
        // So do cycles drawn ahead for a device standing still (those that ran stay pending: they
        // are sampled at the next cycle, from the beacons in reach before the change).
        motion.beforeChange { [weak self] in
            guard let self else { return }
            quietUntil = 0
            nextQuietCheck = 0
            nextCycleIsQuiet = false
            standingCyclesLeft = 0
        }
    }

    /// Whether Bluetooth is on. Ranging cycles run while it is; switching it off leaves every fence.
    @exclusivity(unchecked) public var isEnabled = false {
        didSet {
            guard isEnabled != oldValue else { return }
            timer?.cancel()
            timer = nil
            settleStandingCycles()
            standingCyclesLeft = 0
            if isEnabled {
                // Unretained: the driver cancels the timer when it goes (deinit).
                timer = scheduler.repeating(every: configuration.cyclePeriod, calling: self) { driver, _ in driver.cycle() }
            } else {
                samples.clear()
                heardCount = 0
                builtReport = nil
                let left = fencesInside
                fencesInside = []
                fenceCount = 0
                nextFenceCheck = .max
                for slot in tracked.indices { tracked[slot].isInFence = false }
                for (fence, _) in left { fenceEvents.send(BeaconFenceEvent(fence: world.fenceNames[fence], entered: false)) }
            }
            powerEvents.send(isEnabled)
        }
    }

    /// The fences the device is in now.
    public var fences: [String] { fencesInside.map { world.fenceNames[$0.fence] } }

    /// The latest ranging report: the beacons heard in the latest cycle, nearest first (empty while
    /// Bluetooth is off).
    public var lastReport: [BeaconSighting] {
        guard isEnabled else { return [] }
        settleStandingCycles()
        guard heardCount > 0 else { return [] }
        if let builtReport, builtReport.cycle == cycleCount { return builtReport.sightings }
        let sightings = buildReport()
        builtReport = (cycleCount, sightings)
        return sightings
    }

    /// Hears each cycle's report while some observer ranges (``observeRanging(_:)``), before they do:
    /// the scenario runner traces ranging through it without making a device that no app ranges on
    /// build reports.
    @exclusivity(unchecked) public var rangingTracer: (([BeaconSighting]) -> Void)?

    public func observeRanging(_ observer: @escaping ([BeaconSighting]) -> Void) -> ObservationToken {
        let subscription = reports.add(observer)
        reportObservers += 1
        return ObservationToken { [weak self] in
            subscription.cancel()
            self?.reportObservers -= 1
        }
    }

    public func observeFences(_ observer: @escaping (BeaconFenceEvent) -> Void) -> ObservationToken {
        fenceEvents.add(observer)
    }

    /// Observes Bluetooth being switched on (true) and off (false).
    public func observePower(_ observer: @escaping (Bool) -> Void) -> ObservationToken {
        powerEvents.add(observer)
    }

    /// The slot of the beacon at `index` in `tracked`, added on first sight.
    private func slot(ofBeacon index: Int) -> Int {
        if tracked.count <= Self.trackedScanLimit {
            for slot in tracked.indices where tracked[slot].index == index { return slot }
        } else if let slot = slotOfBeacon[index] {
            return slot
        }
        let fence = world.beaconFences[index]
        tracked.append(TrackedBeacon(index: index, fence: fence, isInFence: fence.map { isInside(fence: $0) } ?? false))
        if tracked.count > Self.trackedScanLimit {
            if slotOfBeacon.isEmpty { for (slot, beacon) in tracked.enumerated() { slotOfBeacon[beacon.index] = slot } }
            slotOfBeacon[index] = tracked.count - 1
        }
        return tracked.count - 1
    }

    /// Whether the device is in `fence`.
    private func isInside(fence: Int) -> Bool {
        fenceCount > 0 && fencesInside.contains { $0.fence == fence }
    }

    /// The most beacons in reach of one device at once: more (a wall of beacons at one spot, each
    /// sampled every cycle) stops the run with a message (``EventScheduler/stop(because:)``).
    public static let maximumBeaconsInReach = 1_000

    /// Up to this many tracked beacons, a beacon's slot is found by a scan.
    private static let trackedScanLimit = 16

    /// What a cycle reads beyond the driver itself: the motion, the beacons in reach and tracked,
    /// the fences and the sample log; then the motion's route.
    public func prefetchTickState(level: Int) {
        // A cycle drawn ahead reads the driver's first lines only (see `cycle()`).
        if standingCyclesLeft > 0, reportObservers == 0 { return }
        // In a quiet spell a cycle reads neither the motion nor the beacons.
        guard level == 0 else { return nextCycleIsQuiet ? () : motion.prefetchRoute() }
        if !nextCycleIsQuiet {
            motion.prefetch()
            // The beacons in reach and the position they were looked up from (the object's fifth
            // and sixth lines).
            Prefetch.memory(at: UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()) + 256, lines: 2)
        }
        if inReachCount > Self.inlineInReach { Prefetch.elements(of: moreInReach) }
        if inReachSlotsToPrefetch != 0 {
            Prefetch.elements(of: &tracked, first: 0)
            var slots = inReachSlotsToPrefetch
            while slots != 0 {
                Prefetch.element(Int(slots & 0xffff) - 1, of: &tracked)
                slots >>= 16
            }
        }
        // The fences are read only by a cycle that may leave one (`nextFenceCheck` is `.max` outside every fence).
        if lastCycleInstant.nanoseconds &+ sampleModel.period >= nextFenceCheck { Prefetch.elements(of: fencesInside) }
        samples.prefetch()
    }

    /// How many beacons in reach the driver keeps in itself (`inReachInline`).
    private static let inlineInReach = 4

    /// The beacon in reach at `position` (below `inReachCount`).
    @inline(__always)
    private func beaconInReach(_ position: Int) -> BeaconInReach {
        guard position < Self.inlineInReach else { return moreInReach[position - Self.inlineInReach] }
        return withUnsafeBytes(of: &inReachInline) { $0.load(fromByteOffset: position * MemoryLayout<BeaconInReach>.stride, as: BeaconInReach.self) }
    }

    /// Puts `beacon` in reach at `position` (at most `inReachCount`, which the caller then counts).
    private func setBeaconInReach(_ beacon: BeaconInReach, at position: Int) {
        guard position < Self.inlineInReach else {
            let more = position - Self.inlineInReach
            if more < moreInReach.count { moreInReach[more] = beacon } else { moreInReach.append(beacon) }
            return
        }
        withUnsafeMutableBytes(of: &inReachInline) { $0.storeBytes(of: beacon, toByteOffset: position * MemoryLayout<BeaconInReach>.stride, as: BeaconInReach.self) }
    }

    private func updateBeaconsInReach(of position: GeoCoordinate) {
        guard position != inReachPosition else { return }
        inReachPosition = position
        // Into a list, not through a closure: one capturing the driver would retain it, an atomic
        // write to a side table (the driver is held weakly by its subscriptions) every cycle of a
        // moving device.
        var found = world.beacons(near: position, candidates: &candidates, overwriting: &nearby)
        if found > Self.maximumBeaconsInReach {
            scheduler.stop(because: "\(found) beacons of the world '\(world.world.name)' are in reach of one device at \(position): a phone ranges at most \(Self.maximumBeaconsInReach) beacons at once; spread the world's beacons out")
            found = Self.maximumBeaconsInReach
        }
        for position in 0..<found {
            let (index, distance) = nearby[position]
            setBeaconInReach(BeaconInReach(
                slot: slot(ofBeacon: index),
                meanRSSI: RadioModel.beaconRSSI(measuredPower: world.beaconMeasuredPowers[index], distance: distance, environment: environment)), at: position)
        }
        inReachCount = found
        var slotsToPrefetch: UInt64 = 0
        for position in (0..<min(found, 4)).reversed() {
            let slot = beaconInReach(position).slot
            if slot < 0xffff { slotsToPrefetch = slotsToPrefetch << 16 | UInt64(slot + 1) }
        }
        inReachSlotsToPrefetch = slotsToPrefetch
    }

    /// The longest quiet spell worked out at once, seconds.
    private static let longestQuietSpell = 600.0

    /// Works out how long no beacon can come into reach of a device now at `position` with none in
    /// reach (`quietUntil`): the distance it can go before the nearest beacon's range, at the
    /// motion's highest speed, with a margin for rounding. The lookups of those cycles would find
    /// nothing, so skipping them changes nothing a cycle reports or draws.
    @inline(never)
    private func quietCycles(from position: GeoCoordinate, at now: VirtualInstant) {
        let speed = motion.maximumSpeed
        guard speed > 0 else {
            // Standing still: nothing comes into reach until the motion changes.
            quietUntil = .max
            return
        }
        let horizon = min(max(speed * 60, 50), 2_000)
        let clearance = world.beaconClearance(from: position, horizon: horizon) - 1
        let seconds = min(clearance / (speed * 1.01), Self.longestQuietSpell)
        if seconds >= 3 {
            quietUntil = now.nanoseconds.addingOrNever(Int64(seconds * 1e9))
        } else {
            // Close to a beacon's range: look up every cycle for a while before trying again.
            let (wait, waitOverflows) = sampleModel.period.multipliedReportingOverflow(by: 5)
            nextQuietCheck = waitOverflows ? .max : now.nanoseconds.addingOrNever(wait)
        }
    }

    private func cycle() {
        cycleCount += 1
        let now = scheduler.now
        if standingCyclesLeft > 0, reportObservers == 0, now.nanoseconds == lastCycleInstant.nanoseconds &+ sampleModel.period {
            // Drawn ahead: the device stands where it stood, hears what the draws said and enters
            // or leaves no fence (a fence check that falls due now finds every fence seen at this
            // cycle, and checking later leaves each fence at the cycle it would have left it).
            // What the cycle draws and hears is sampled into the log when something reads it.
            standingCyclesLeft &-= 1
            pendingStandingCycles &+= 1
            if builtReport != nil { builtReport = nil }
            lastCycleInstant = now
            return
        }
        settleStandingCycles()
        standingCyclesLeft = 0
        var standsStill = false
        if inReachCount > 0 || now.nanoseconds >= quietUntil {
            let state = motion.state(at: now)
            standsStill = state.finished
            lookupCount += 1
            updateBeaconsInReach(of: state.coordinate)
            if inReachCount == 0, now.nanoseconds >= nextQuietCheck, looksForQuietSpells { quietCycles(from: state.coordinate, at: now) }
        }
        // The state is mutated in place (no exclusivity checks on it: see its declarations).
        heardCount = 0
        var anyEntered = false
        if inReachCount > 0 { tracked.withUnsafeMutableBufferPointer { slots in
            let model = sampleModel
            for position in 0..<inReachCount {
                let beacon = beaconInReach(position)
                if model.sigma > 0, slots[beacon.slot].stream == nil {
                    // One stream per beacon, split from the device's generator by the beacon's identity.
                    slots[beacon.slot].stream = shadowingRoot.split(world.world.beacons[slots[beacon.slot].index].id.description)
                }
                guard samples.sampleCycle(slot: beacon.slot, stream: &slots[beacon.slot].stream, meanRSSI: beacon.meanRSSI, at: now.nanoseconds, model: model) else { continue }
                slots[beacon.slot].lastHeard = now.nanoseconds
                heardCount += 1
                if !slots[beacon.slot].isInFence, let fence = slots[beacon.slot].fence {
                    fencesInside.insert((fence, now.nanoseconds), at: fencesInside.firstIndex { $0.fence > fence } ?? fencesInside.count)
                    fenceCount += 1
                    for slot in slots.indices where slots[slot].fence == fence { slots[slot].isInFence = true }
                    nextFenceCheck = min(nextFenceCheck, exitInstant(lastSeen: now.nanoseconds))
                    entered.append((fence, beacon.slot))
                    anyEntered = true
                }
            }
        } } else if !samples.isEmpty {
            // (Checked here: a quiet cycle then reads no more of the model than its period.)
            samples.releaseIfPast(now.nanoseconds, model: sampleModel)
        }
        if builtReport != nil { builtReport = nil }
        lastCycleInstant = now
        if anyEntered {
            for (fence, slot) in entered {
                // The RSSI that let the device in: this cycle's heard samples (the window's, smoothed).
                let rssi = samples.smoothedRSSI(slot: slot, at: now.nanoseconds, model: sampleModel).map { ($0 * 10).rounded() / 10 }
                fenceEvents.send(BeaconFenceEvent(
                    fence: world.fenceNames[fence], entered: true, beacon: world.world.beacons[tracked[slot].index].id, rssi: rssi))
            }
            entered.removeAll(keepingCapacity: true)
        }
        if now.nanoseconds >= nextFenceCheck { leaveFencesNotSeen(at: now.nanoseconds) }
        if reportObservers > 0 {
            sendReport()
        } else if standsStill, inReachCount > 0, inReachCount <= Self.inlineInReach, drawsStandingCyclesAhead {
            drawStandingCycles()
        }
        nextCycleIsQuiet = inReachCount == 0 && now.nanoseconds &+ sampleModel.period < quietUntil
    }

    /// The most cycles drawn ahead at once (what `pendingStandingCycles` counts to).
    private static let longestStandingSpell = 30

    /// Draws the next cycles of a device standing still in reach of at most ``inlineInReach``
    /// beacons, on copies of the beacons' streams, and counts how many of them in a row change no
    /// fence (`standingCyclesLeft`): each beacon heard is of no fence or of one the device is in,
    /// and each fence the device is in has a beacon heard. Those cycles then run on their count
    /// alone (see `cycle()`), and are sampled into the log, drawing again from the streams, only
    /// when something reads it (`settleStandingCycles`): a fleet's standing devices touch their
    /// beacons and their logs once every few tens of cycles instead of every cycle.
    @inline(never)
    private func drawStandingCycles() {
        guard fenceCount <= 4 else { return }
        // On the stack: at most four beacons are drawn.
        withUnsafeTemporaryAllocation(of: UndecidedBeacon.self, capacity: Self.inlineInReach) { drawn in
            let model = sampleModel
            // Which beacons in reach (by position) would let the device into a fence, and which
            // keep each fence it is in; which are heard in every cycle, and which the draws decide
            // (those are drawn, on copies of their streams).
            var entering: UInt8 = 0
            var keeping: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
            var alwaysHeard: UInt8 = 0
            var drawnCount = 0
            withUnsafeMutableBytes(of: &keeping) { keeping in
                for position in 0..<inReachCount {
                    let inReach = beaconInReach(position)
                    let beacon = tracked[inReach.slot]
                    if let stream = beacon.stream, model.drawsDecide(meanRSSI: inReach.meanRSSI) {
                        drawn.initializeElement(at: drawnCount, to: UndecidedBeacon(
                            bit: 1 << position, stream: stream, meanRSSI: inReach.meanRSSI, threshold: model.magnitudeThreshold(meanRSSI: inReach.meanRSSI)))
                        drawnCount += 1
                    } else if model.samplesPerCycle > 0, inReach.meanRSSI >= model.sensitivity {
                        alwaysHeard |= 1 << position
                    }
                    guard let fence = beacon.fence else { continue }
                    if let inside = fencesInside.firstIndex(where: { $0.fence == fence }) {
                        keeping[inside] |= 1 << position
                    } else {
                        entering |= 1 << position
                    }
                }
            }
            var cycles = 0
            drawing: while cycles < Self.longestStandingSpell {
                var heard = alwaysHeard
                for index in 0..<drawnCount where BeaconSampleLog.drawUndecidedCycle(
                    stream: &drawn[index].stream, meanRSSI: drawn[index].meanRSSI, magnitudeThreshold: drawn[index].threshold, model: model) {
                    heard |= drawn[index].bit
                }
                guard heard & entering == 0 else { break }
                for inside in 0..<fenceCount where withUnsafeBytes(of: keeping, { $0[inside] }) & heard == 0 { break drawing }
                cycles += 1
            }
            drawn.baseAddress!.deinitialize(count: drawnCount)
            standingCyclesLeft = UInt8(cycles)
        }
    }

    /// A beacon in reach whose samples the draws decide (see `drawStandingCycles`): its bit among
    /// the beacons in reach, a copy of its stream, its mean RSSI and that mean's magnitude threshold.
    private struct UndecidedBeacon {
        let bit: UInt8
        var stream: SeededRandomGenerator
        let meanRSSI: Double
        let threshold: Double
    }

    /// Samples the cycles that ran drawn ahead into the log, in order, as they would have been at
    /// their instants, each beacon from its own stream: the log, each beacon's last sighting and
    /// the latest cycle's count of beacons heard are then what the cycles would have left.
    @inline(__always)
    private func settleStandingCycles() {
        if pendingStandingCycles > 0 { samplePendingStandingCycles() }
    }

    /// See `settleStandingCycles`.
    @inline(never)
    private func samplePendingStandingCycles() {
        let cycles = Int(pendingStandingCycles)
        pendingStandingCycles = 0
        let model = sampleModel
        var instant = lastCycleInstant.nanoseconds &- Int64(cycles - 1) &* model.period
        tracked.withUnsafeMutableBufferPointer { slots in
            for _ in 0..<cycles {
                heardCount = 0
                for position in 0..<inReachCount {
                    let beacon = beaconInReach(position)
                    guard samples.sampleCycle(slot: beacon.slot, stream: &slots[beacon.slot].stream, meanRSSI: beacon.meanRSSI, at: instant, model: model) else { continue }
                    assert(slots[beacon.slot].fence == nil || slots[beacon.slot].isInFence, "a cycle drawn ahead enters a fence")
                    slots[beacon.slot].lastHeard = instant
                    heardCount += 1
                }
                instant &+= model.period
            }
        }
    }

    /// Leaves, in ascending order, each fence none of whose beacons was heard for the exit delay
    /// before `now`, and tells the observers; works out when to check again. A cycle hears a
    /// beacon of a fence the device is in without reading `fencesInside` (only the beacon's
    /// `lastHeard`): this brings each fence's `lastSeen` up to date from its beacons first, so a
    /// fence is left at the very cycle it would be if every cycle kept `lastSeen`. Out of line, and
    /// called only from ``nextFenceCheck`` on (every exit delay while the device stays in a fence).
    @inline(never)
    private func leaveFencesNotSeen(at now: Int64) {
        for beacon in tracked where beacon.isInFence {
            guard let fence = beacon.fence, let position = fencesInside.firstIndex(where: { $0.fence == fence }) else { continue }
            fencesInside[position].lastSeen = max(fencesInside[position].lastSeen, beacon.lastHeard)
        }
        var earliestSeen = Int64.max
        var position = 0
        while position < fenceCount {
            let (fence, lastSeen) = fencesInside[position]
            if now &- lastSeen >= fenceExitNanoseconds {
                fencesInside.remove(at: position)
                fenceCount -= 1
                for slot in tracked.indices where tracked[slot].fence == fence { tracked[slot].isInFence = false }
                fenceEvents.send(BeaconFenceEvent(fence: world.fenceNames[fence], entered: false))
            } else {
                earliestSeen = min(earliestSeen, lastSeen)
                position += 1
            }
        }
        nextFenceCheck = fenceCount == 0 ? .max : exitInstant(lastSeen: earliestSeen)
    }

    /// When a fence last seen at `lastSeen` is left unless it is seen again (`Int64.max` past the
    /// end of time).
    private func exitInstant(lastSeen: Int64) -> Int64 {
        lastSeen.addingOrNever(fenceExitNanoseconds)
    }

    /// Gives the latest report to the tracer and the observers (out of line, as ``leaveFencesNotSeen(at:)``).
    @inline(never)
    private func sendReport() {
        let report = lastReport
        rangingTracer?(report)
        reports.send(report)
    }

    /// The report of the latest cycle: each beacon heard, with its smoothed RSSI and the distance and
    /// proximity estimated from it, nearest first (ties: the world's order).
    private func buildReport() -> [BeaconSighting] {
        let environment = world.world.radio
        var report: [(index: Int, sighting: BeaconSighting)] = []
        for slot in tracked.indices where tracked[slot].lastHeard == lastCycleInstant.nanoseconds {
            let index = tracked[slot].index
            guard let smoothed = samples.smoothedRSSI(slot: slot, at: lastCycleInstant.nanoseconds, model: sampleModel) else { continue }
            let beacon = world.world.beacons[index]
            let estimate = RadioModel.estimatedDistance(rssi: smoothed, measuredPower: beacon.measuredPower, exponent: environment.beaconExponent)
            report.append((index, BeaconSighting(
                beacon: beacon.id, rssi: (smoothed * 10).rounded() / 10, estimatedDistance: (estimate * 100).rounded() / 100,
                proximity: RadioModel.proximity(distance: estimate))))
        }
        report.sort { ($0.sighting.estimatedDistance, $0.index) < ($1.sighting.estimatedDistance, $1.index) }
        return report.map(\.sighting)
    }
}
