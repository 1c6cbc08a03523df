import Foundation
import Synchronization

/// Records what gpsd sends to a file: the receiver's NMEA sentences (which the NMEA playback driver
/// plays back) or gpsd's JSON reports. Each line is written as it arrives, so a recording cut short by
/// Ctrl-C or by gpsd dying keeps everything received until then.
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
    private let handle: Mutex<FileHandle?>
    private let counts = Mutex(Progress())
    private let failure = Mutex<GPSDError?>(nil)
    private let reader: Mutex<GPSDReader?> = Mutex(nil)
    private let statisticsWhenStopped = Mutex(GPSDStatistics())
    private let endpoint: GPSDEndpoint
    private let device: String?

    /// Creates (or truncates) `output` and prepares to record from gpsd at `endpoint`.
    public init(endpoint: GPSDEndpoint, device: String? = nil, output: URL, format: Format) throws(GPSDError) {
        guard FileManager.default.createFile(atPath: output.path, contents: nil), let handle = try? FileHandle(forWritingTo: output) else {
            throw .recordingFailed(path: output.path, reason: "cannot create the file (does its folder exist, is it writable?)")
        }
        self.output = output
        self.format = format
        self.endpoint = endpoint
        self.device = device
        self.handle = Mutex(handle)
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
        handle.withLock { handle in
            try? handle?.synchronize()
            try? handle?.close()
            handle = nil
        }
    }

    private func handle(_ event: GPSDReader.Event) {
        status.observe(event)
        switch event {
        case .line(let line):
            let keep = format == .nmea ? (line.hasPrefix("$") || line.hasPrefix("!")) : line.hasPrefix("{")
            guard keep else { return }
            let data = Data((line + (format == .nmea ? "\r\n" : "\n")).utf8)
            let written: Bool = handle.withLock { handle in
                guard let handle else { return false }
                do {
                    try handle.write(contentsOf: data)
                    return true
                } catch {
                    failure.withLock { $0 = $0 ?? .recordingFailed(path: output.path, reason: error.localizedDescription) }
                    return false
                }
            }
            if written { counts.withLock { $0.lines += 1; $0.bytes += data.count } }
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
