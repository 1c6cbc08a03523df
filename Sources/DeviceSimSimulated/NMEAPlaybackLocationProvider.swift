import DeviceSimHAL
import DeviceSimNMEA
import DeviceSimTime
import Foundation

/// Plays an NMEA log as a device's GPS: each epoch of the log becomes a fix at the virtual time its
/// own timestamp says (relative to the first), or at a fixed rate when the log has no times.
///
/// The file is read in chunks as playback goes, so memory stays flat whatever the log's size.
/// Epochs without a position make the location unavailable (once per outage), as a receiver that
/// lost its fix would.
///
/// ```swift
/// var configuration = NMEAPlaybackLocationProvider.Configuration()
/// configuration.speedFactor = 10        // ten times faster than recorded
/// let gps = try NMEAPlaybackLocationProvider(scheduler: scheduler, file: url, configuration: configuration)
/// gps.start()
/// ```
public final class NMEAPlaybackLocationProvider: LocationProvider {
    /// How the log is played.
    public struct Configuration: Sendable, Hashable {
        /// Playback rate: 2 plays twice as fast as recorded.
        public var speedFactor: Double = 1
        /// Log time skipped at the start (measured from the log's first fix).
        public var startOffset: Duration = .zero
        /// Start again from the beginning at the end of the log.
        public var loop = false
        /// Time between fixes when the log carries no timestamps (and between loops).
        public var interval: Duration = .seconds(1)
        /// Bytes read at a time.
        public var chunkSize = 64 * 1024

        /// The defaults.
        public init() {}
    }

    /// The most fixes played in a row at one virtual instant: a log whose time does not advance (every
    /// fix at one timestamp, or times running backwards) stops the run here with a message, instead of
    /// flooding one instant with events. A real receiver's log has at most a few fixes per timestamp.
    public static let maximumFixesAtOneInstant = 10_000
    /// The most sentences one epoch (one report of the log) may take: a receiver sends a few dozen per
    /// epoch; a log whose sentences all carry one time is one endless epoch, and stops the run here.
    public static let maximumSentencesPerReport = 10_000
    /// The longest a log plays (saturated there): no scenario runs that long, and the virtual times of
    /// fixes stay far from overflowing.
    static let longestPlayback: Duration = .seconds(100 * 365 * 86_400)

    /// The settings.
    public let configuration: Configuration
    /// The log being played.
    public let file: URL
    public private(set) var currentFix: LocationFix?
    /// Fixes delivered so far.
    public private(set) var fixesPlayed = 0
    /// How many times playback has started the log from its beginning (counted at each pass's first fix).
    public private(set) var passes = 0
    private var openedPasses = 0
    private var passStarted = false
    /// Whether playback reached the end of the log (without looping).
    public private(set) var finished = false
    /// Counts of decoded and skipped input, over all passes.
    public var statistics: NMEAStatistics { accumulated.merging(decoder.statistics) }

    private let scheduler: EventScheduler
    private let observers = ObserverList<LocationUpdate>()
    private var handle: FileHandle?
    private var decoder = NMEADecoder()
    private var accumulated = NMEAStatistics()
    private var queue: [NMEAFixAssembler.Report] = []
    private var queueHead = 0
    private var endOfFile = false
    private var logOrigin: Int64?
    private var lastLogTime: Int64?
    private var dayOffset: Int64 = 0
    private var passOrigin = VirtualInstant.zero
    private var lastInstant = VirtualInstant.zero
    private var untimedIndex: Int64 = 0
    private var reportedUnavailable = false
    private var fixesAtLastInstant = 0
    private var sentencesAtLastReport = 0
    /// Why the log could not be read on, once a read failed.
    private var readFailure: String?
    private var pending: ScheduledEvent?
    private var running = false

    /// Opens `file` for playback on `scheduler`.
    public init(scheduler: EventScheduler, file: URL, configuration: Configuration = Configuration()) throws(PlaybackError) {
        guard configuration.speedFactor > 0, configuration.speedFactor.isFinite else { throw PlaybackError(file: file.path, message: "the speed factor must be greater than zero") }
        if let refusal = InputFile.refusal(atPath: file.path) { throw PlaybackError(file: file.path, message: refusal) }
        guard FileManager.default.isReadableFile(atPath: file.path) else { throw PlaybackError(file: file.path, message: "no such file, or it is not readable") }
        self.scheduler = scheduler
        self.file = file
        self.configuration = configuration
    }

    deinit { try? handle?.close() }

    public func observe(_ observer: @escaping (LocationUpdate) -> Void) -> ObservationToken {
        observers.add(observer)
    }

    /// Starts playback now.
    public func start() {
        guard !running else { return }
        running = true
        beginPass(at: scheduler.now)
        scheduleNext()
    }

    /// Whether the receiver is on. Switched off, playback keeps its own timeline: the log's epochs pass
    /// undelivered, and fixes resume with the epoch that is due when it is switched on again.
    public private(set) var isReceiverOn = true
    /// Whether the sky is hidden (a tunnel): like the receiver off, the log's epochs pass undelivered.
    public private(set) var isSkyHidden = false

    /// Switches the receiver off (location becomes unavailable) or on (fixes resume at the next epoch).
    public func switchReceiver(on: Bool) {
        guard on != isReceiverOn else { return }
        isReceiverOn = on
        if !on { suspend(reason: "receiver off") }
    }

    /// Hides the sky (location becomes unavailable) or gives it back (fixes resume at the next epoch).
    public func hideSky(_ hidden: Bool) {
        guard hidden != isSkyHidden else { return }
        isSkyHidden = hidden
        if hidden { suspend(reason: "no satellites in view") }
    }

    private func suspend(reason: String) {
        guard currentFix != nil || !reportedUnavailable else { return }
        currentFix = nil
        reportedUnavailable = true
        observers.send(.unavailable(reason: reason))
    }

    /// Stops playback; location becomes unavailable.
    public func stop() {
        guard running else { return }
        running = false
        pending?.cancel()
        pending = nil
        currentFix = nil
        observers.send(.unavailable(reason: "playback stopped"))
    }

    private func beginPass(at instant: VirtualInstant) {
        try? handle?.close()
        handle = FileHandle(forReadingAtPath: file.path)
        accumulated = accumulated.merging(decoder.statistics)
        decoder = NMEADecoder()
        sentencesAtLastReport = 0
        queue.removeAll(keepingCapacity: true)
        queueHead = 0
        endOfFile = handle == nil
        logOrigin = nil
        lastLogTime = nil
        dayOffset = 0
        untimedIndex = 0
        passOrigin = instant
        openedPasses += 1
        passStarted = false
    }

    /// The next report of the log, reading more of the file when needed.
    private func nextReport() -> NMEAFixAssembler.Report? {
        while queueHead >= queue.count {
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
            if endOfFile { return nil }
            let chunk: Data
            do {
                chunk = try handle?.read(upToCount: configuration.chunkSize) ?? Data()
            } catch {
                // A read error (the file went away, an I/O error) ends the log where it happened.
                readFailure = readFailure ?? "cannot read on in \(file.path): \(error.localizedDescription)"
                chunk = Data()
            }
            if chunk.isEmpty {
                endOfFile = true
                decoder.finish { queue.append($0) }
            } else {
                chunk.withUnsafeBytes { bytes in decoder.feed(bytes) { queue.append($0) } }
                if queue.isEmpty, decoder.statistics.decodedSentences - sentencesAtLastReport > Self.maximumSentencesPerReport {
                    // One epoch that never ends: every sentence at one time. Reading on would read the
                    // whole file for one fix (and again on every pass of a looping log).
                    scheduler.stop(because: "the NMEA log \(file.path) has more than \(Self.maximumSentencesPerReport) sentences in a row without a new fix time (a receiver sends a few dozen per epoch): its time does not advance, so it cannot be played")
                    endOfFile = true
                    return nil
                }
            }
        }
        sentencesAtLastReport = decoder.statistics.decodedSentences
        defer { queueHead += 1 }
        return queue[queueHead]
    }

    private func scheduleNext() {
        guard running else { return }
        while let report = nextReport() {
            guard case .fix(let fix) = report else {
                if case .sky(let sky) = report, !observers.isEmpty {
                    let satellites = sky.satellites.map { SatelliteInfo(prn: $0.prn, elevation: $0.elevation, azimuth: $0.azimuth, snr: $0.snr, used: $0.used) }
                    observers.send(.satellites(satellites))
                }
                continue
            }
            guard let instant = playbackInstant(of: fix) else { continue }  // before the start offset
            fixesAtLastInstant = instant == lastInstant ? fixesAtLastInstant + 1 : 1
            if fixesAtLastInstant > Self.maximumFixesAtOneInstant {
                scheduler.stop(because: "the NMEA log \(file.path) has more than \(Self.maximumFixesAtOneInstant) fixes in a row at one instant (virtual time \(instant)): its time does not advance, so it cannot be played")
                return
            }
            lastInstant = instant
            pending = scheduler.schedule(at: instant) { [unowned self] in
                deliver(fix)
                scheduleNext()
            }
            return
        }
        // End of the log: loop, or go silent one interval after the last fix.
        if configuration.loop, fixesPlayed > 0, readFailure == nil {
            beginPass(at: lastInstant.advanced(by: configuration.interval))
            scheduleNext()
        } else {
            pending = scheduler.schedule(at: max(lastInstant.advanced(by: configuration.interval), scheduler.now)) { [unowned self] in
                finished = true
                currentFix = nil
                observers.send(.unavailable(reason: readFailure ?? "end of NMEA log"))
            }
        }
    }

    /// When `fix` plays, or nil if it falls before the start offset.
    private func playbackInstant(of fix: NMEAFix) -> VirtualInstant? {
        let offsetNanos = openedPasses == 1 ? configuration.startOffset.wholeNanoseconds : 0
        var logTime = fix.unixNanoseconds ?? fix.timeOfDay.map { $0.nanoseconds }
        if fix.unixNanoseconds == nil, let time = logTime {
            // Time of day only: roll over at midnight.
            // (At most about 30 years of rollovers: a log alternating around midnight must not overflow.)
            if let last = lastLogTime, time + dayOffset < last - 43_200_000_000_000, dayOffset < 1_000_000_000_000_000_000 { dayOffset += 86_400_000_000_000 }
            logTime = time + dayOffset
        }
        let elapsed: Int64
        if let logTime {
            if logOrigin == nil { logOrigin = logTime }
            lastLogTime = max(lastLogTime ?? logTime, logTime)
            elapsed = max(0, logTime - logOrigin!)
        } else {
            let (product, overflow) = untimedIndex.multipliedReportingOverflow(by: configuration.interval.wholeNanoseconds)
            elapsed = overflow ? Int64.max / 2 : product
            untimedIndex += 1
        }
        guard elapsed >= offsetNanos else { return nil }
        // Saturated: a log spanning decades played slowly must not overflow (no scenario runs that long).
        let scaled = min(Double(elapsed - offsetNanos) / configuration.speedFactor, Double(Self.longestPlayback.wholeNanoseconds))
        let instant = passOrigin.advanced(by: .nanoseconds(Int64(scaled.rounded())))
        return max(instant, lastInstant, scheduler.now)
    }

    private func deliver(_ fix: NMEAFix) {
        fixesPlayed += 1
        if !passStarted {
            passStarted = true
            passes += 1
        }
        guard isReceiverOn, !isSkyHidden else { return }
        guard fix.hasPosition, let lat = fix.latitude, let lon = fix.longitude else {
            currentFix = nil
            if !reportedUnavailable {
                reportedUnavailable = true
                observers.send(.unavailable(reason: "no fix in the NMEA log"))
            }
            return
        }
        reportedUnavailable = false
        let location = LocationFix(
            receivedAt: scheduler.now,
            time: fix.unixNanoseconds.map { Date(timeIntervalSince1970: Double($0) / 1e9) },
            coordinate: GeoCoordinate(latitude: lat, longitude: lon),
            altitude: fix.mode >= 3 ? fix.altitudeMSL : nil,
            speed: fix.speed,
            course: fix.track,
            horizontalAccuracy: fix.hdop.map { $0 * 5 },
            verticalAccuracy: fix.vdop.map { $0 * 8 },
            mode: fix.mode >= 3 ? .threeDimensional : .twoDimensional,
            satellitesUsed: fix.satellitesUsed)
        currentFix = location
        observers.send(.fix(location))
    }
}

/// A log or track that cannot be played.
public struct PlaybackError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file.
    public var file: String
    /// What is wrong.
    public var message: String

    public var description: String { "\(file): \(message)" }
}
