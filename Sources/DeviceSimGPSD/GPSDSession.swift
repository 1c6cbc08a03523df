import CGPS
import DeviceSimHAL
import Foundation

/// One connection to gpsd: the socket and its line framing are ours (``GPSDSocket``,
/// ``GPSDLineBuffer``), every report is decoded by libgps (`gps_unpack`, loaded at the first ``open(nmea:device:timeout:)``). libgps's own reader is not
/// used: `gps_waiting` says data is there while half a line sits in its buffer, so a gpsd that stops
/// mid-line made its callers spin, and a line longer than its buffer ends the connection.
///
/// Every wait has a deadline; a line may be at most ``maximumLineLength`` bytes, and a line begun must
/// end within ``lineDeadline``. Not thread-safe: one reader thread owns it. The `gps_data_t` (about
/// 24 KB) lives at a stable heap address for the session's life and is freed exactly once.
final class GPSDSession {
    /// The longest line taken in, far above what gpsd sends (a SKY report of 140 satellites, as many as
    /// libgps holds, is under 16 KB).
    static let maximumLineLength = 65_536
    /// How long a line may stay unfinished before the connection is dropped.
    static let lineDeadline: Duration = .seconds(5)

    let endpoint: GPSDEndpoint
    private var socket: GPSDSocket?
    private var buffer = GPSDLineBuffer(maximumLineLength: GPSDSession.maximumLineLength)
    /// Since when part of a line has waited for its end.
    private var unfinishedSince: ContinuousClock.Instant?
    private let data: UnsafeMutablePointer<gps_data_t>
    private let lineCopy: UnsafeMutablePointer<CChar>

    init(endpoint: GPSDEndpoint) {
        self.endpoint = endpoint
        data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        memset(data, 0, MemoryLayout<gps_data_t>.size)
        lineCopy = UnsafeMutablePointer<CChar>.allocate(capacity: Self.maximumLineLength + 1)
    }

    deinit {
        close()
        data.deallocate()
        lineCopy.deallocate()
    }

    /// Whether a connection is open.
    var isOpen: Bool { socket != nil }

    /// Connects and starts the watch: JSON reports, plus raw NMEA when `nmea` is set, for `device`
    /// only when given; at most `timeout` for each step.
    func open(nmea: Bool = false, device: String? = nil, timeout: Duration = .seconds(1)) throws(GPSDError) {
        close()
        try Self.loadLibgps()
        let socket = try GPSDSocket.connect(to: endpoint, timeout: timeout)
        try socket.send(Self.watchRequest(nmea: nmea, device: device), timeout: timeout)
        memset(data, 0, MemoryLayout<gps_data_t>.size)
        buffer.clear()
        unfinishedSince = nil
        self.socket = socket
    }

    /// Loads libgps's decoder (once per process: a start that never connects to gpsd does not load it).
    static func loadLibgps() throws(GPSDError) {
        var message = [CChar](repeating: 0, count: 512)
        guard devicesim_libgps_load(&message, message.count) != 0 else { return }
        throw .libgpsUnavailable(reason: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// The watch request libgps's `gps_stream` sends, with the device name quoted as JSON.
    static func watchRequest(nmea: Bool, device: String?) -> String {
        var request = "?WATCH={\"enable\":true,\"json\":true"
        if nmea { request += ",\"nmea\":true" }
        if let device { request += ",\"device\":" + JSONString.quote(device) }
        return request + "};\n"
    }

    /// Closes the connection if open.
    func close() {
        socket?.close()
        socket = nil
    }

    /// What one line brought.
    struct Read {
        /// The line gpsd sent (JSON or NMEA), without its line ending.
        var line: String
        /// The fix, when the line was a TPV report libgps decoded.
        var fix: GPSDFix?
        /// The satellites, when the line was a SKY report libgps decoded.
        var satellites: [GPSDSatellite]?
        /// The device that sent it.
        var device: String
        /// What could not be used in it, if anything.
        var unusable: GPSDUnusableInput?
    }

    /// The next line, waiting at most `timeout` for it to be complete; nil when none is by then.
    /// Throws when the connection is gone, or dropped for a line too long or left unfinished
    /// (``GPSDError/unusableInput(_:_:)``); the session is closed then.
    func next(waitingAtMost timeout: Duration) throws(GPSDError) -> Read? {
        guard let socket else { throw .connectionLost(endpoint, reason: "not connected") }
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            let line: [UInt8]?
            do {
                line = try buffer.nextLine()
            } catch {
                close()
                throw .unusableInput(endpoint, .lineTooLong(limit: error.limit))
            }
            let now = clock.now
            if let line {
                unfinishedSince = nil
                if line.isEmpty { continue }
                return decode(line)
            }
            if buffer.pendingCount == 0 {
                unfinishedSince = nil
            } else if let since = unfinishedSince {
                if since.duration(to: now) >= Self.lineDeadline {
                    close()
                    throw .unusableInput(endpoint, .lineUnfinished(after: Self.lineDeadline))
                }
            } else {
                unfinishedSince = now
            }
            guard now < deadline else { return nil }
            var wait = now.duration(to: deadline)
            if let since = unfinishedSince { wait = min(wait, now.duration(to: since + Self.lineDeadline)) }
            do {
                _ = try socket.receive(into: &buffer, waitingAtMost: max(wait, .zero))
            } catch {
                close()
                throw error
            }
        }
    }

    /// Decodes one line with libgps.
    private func decode(_ bytes: [UInt8]) -> Read {
        var read = Read(line: String(decoding: bytes, as: UTF8.self), device: "")
        switch bytes.first {
        case UInt8(ascii: "$"), UInt8(ascii: "!"):
            return read  // an NMEA sentence, passed on as it came
        case UInt8(ascii: "{") where !bytes.contains(0):
            break
        default:
            read.unusable = .notAReport(excerpt: GPSDUnusableInput.excerpt(bytes))
            return read
        }
        bytes.withUnsafeBytes { line in
            UnsafeMutableRawPointer(lineCopy).copyMemory(from: line.baseAddress!, byteCount: line.count)
        }
        lineCopy[bytes.count] = 0
        data.pointee.set = 0  // libgps accumulates the mask across reads
        _ = devicesim_gps_unpack(lineCopy, data)
        let mask = data.pointee.set
        read.device = withUnsafeBytes(of: data.pointee.dev.path) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if read.line.hasPrefix("{\"class\":\"TPV\"") {
            if mask & UInt64(MODE_SET) != 0 {
                read.fix = GPSDFix(data.pointee.fix, satellitesUsed: data.pointee.satellites_used, hdop: data.pointee.dop.hdop)
            } else {
                read.unusable = .undecodableReport(reportClass: "TPV", excerpt: GPSDUnusableInput.excerpt(bytes))
            }
        } else if read.line.hasPrefix("{\"class\":\"SKY\"") {
            if mask & UInt64(SATELLITE_SET) != 0 {
                let count = Int(max(0, min(data.pointee.satellites_visible, Int32(MAXCHANNELS))))
                read.satellites = withUnsafeBytes(of: data.pointee.skyview) { raw in
                    let satellites = raw.bindMemory(to: satellite_t.self)
                    return (0..<count).map { GPSDSatellite(satellites[$0]) }
                }
            } else if mask == 0 {
                read.unusable = .undecodableReport(reportClass: "SKY", excerpt: GPSDUnusableInput.excerpt(bytes))
            }
        }
        return read
    }
}
