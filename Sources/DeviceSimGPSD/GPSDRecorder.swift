import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Records what gpsd sends to a file: the receiver's NMEA sentences (which the NMEA playback driver
/// plays back) or gpsd's JSON reports. Each line is written as it arrives, so a recording cut short by
/// Ctrl-C or by gpsd dying keeps everything received until then. Lines are written with `write(2)`,
/// so the first error (``writeError``) names its cause ("File too large", "No space left on device"),
/// and nothing is written after it.
///
/// ```swift
/// let recorder = try GPSDRecorder(endpoint: .default, output: URL(fileURLWithPath: "walk.nmea"), format: .nmea)
/// recorder.start()
/// ...
/// recorder.stop()
/// ```
public final class GPSDRecorder: Sendable {
    /// What to record.
    public enum Format: String, Sendable, CaseIterable {
        /// NMEA 0183 sentences, as the receiver sent them (through gpsd's watch).
        case nmea
        /// gpsd's JSON reports (TPV, SKY, ...), as `gpspipe -w` prints them.
        case json
    }

    /// Counts so far.
    public struct Progress: Sendable, Hashable {
        public var lines = 0
        public var bytes = 0
        public var fixes = 0
        public var connected = false
    }

    /// Where the recording goes.
    public let output: URL
    /// What is recorded.
    public let format: Format
    /// gpsd's and the receiver's state, and the problems that start and end while recording.
    public let status: GPSDStatusMonitor
    /// The recording's file descriptor (-1 once closed).
    private let descriptor: Mutex<Int32>
    private let counts = Mutex(Progress())
    private let failure = Mutex<GPSDError?>(nil)
    private let reader: Mutex<GPSDReader?> = Mutex(nil)
    private let statisticsWhenStopped = Mutex(GPSDStatistics())
    private let endpoint: GPSDEndpoint
    private let device: String?

    /// Creates (or truncates) `output` and prepares to record from gpsd at `endpoint`.
    public init(endpoint: GPSDEndpoint, device: String? = nil, output: URL, format: Format) throws(GPSDError) {
        let descriptor = open(output.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .recordingFailed(path: output.path, reason: "cannot create the file: \(String(cString: strerror(errno)))")
        }
        self.output = output
        self.format = format
        self.endpoint = endpoint
        self.device = device
        self.descriptor = Mutex(descriptor)
        status = GPSDStatusMonitor(GPSDStatus(endpoint: endpoint, device: device))
    }

    /// What has been recorded so far.
    public var progress: Progress { counts.withLock { $0 } }

    /// The first write error, if any (recording stops at it).
    public var writeError: GPSDError? { failure.withLock { $0 } }

    /// What the reader took in and could not use (fixes used, dropped and why), so far.
    public var statistics: GPSDStatistics { reader.withLock { $0?.statistics } ?? statisticsWhenStopped.withLock { $0 } }

    /// Starts recording in the background.
    public func start() {
        let newReader = GPSDReader(endpoint: endpoint, device: device, nmea: format == .nmea) { [self] event in handle(event) }
        reader.withLock { $0 = newReader }
        newReader.start()
    }

    /// Stops recording and closes the file.
    public func stop() {
        let current = reader.withLock { reader -> GPSDReader? in
            defer { reader = nil }
            return reader
        }
        current?.stop()
        if let current { statisticsWhenStopped.withLock { $0 = current.statistics } }
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            // A recording on a disk must reach it; devices and pipes cannot be synchronised (EINVAL).
            if fsync(descriptor) != 0, errno != EINVAL, errno != EROFS {
                keepFirstFailure(String(cString: strerror(errno)))
            }
            if close(descriptor) != 0 { keepFirstFailure(String(cString: strerror(errno))) }
            descriptor = -1
        }
    }

    private func keepFirstFailure(_ reason: String) {
        failure.withLock { $0 = $0 ?? .recordingFailed(path: output.path, reason: reason) }
    }

    private func handle(_ event: GPSDReader.Event) {
        status.observe(event)
        switch event {
        case .line(let line):
            let keep = format == .nmea ? (line.hasPrefix("$") || line.hasPrefix("!")) : line.hasPrefix("{")
            guard keep else { return }
            let bytes = Array((line + (format == .nmea ? "\r\n" : "\n")).utf8)
            let written: Bool = descriptor.withLock { descriptor in
                guard descriptor >= 0, failure.withLock({ $0 == nil }) else { return false }
                var offset = 0
                while offset < bytes.count {
                    let count = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                    if count < 0 {
                        if errno == EINTR { continue }
                        keepFirstFailure(String(cString: strerror(errno)))
                        return false
                    }
                    offset += count
                }
                return true
            }
            if written { counts.withLock { $0.lines += 1; $0.bytes += bytes.count } }
        case .fix(let fix, _, _):
            if fix.hasPosition { counts.withLock { $0.fixes += 1 } }
        case .connected:
            counts.withLock { $0.connected = true }
        case .connectFailed, .disconnected:
            counts.withLock { $0.connected = false }
        case .satellites, .unusable:
            break
        }
    }
}
