import CGPS
import Foundation

/// One connection to gpsd through libgps. Not thread-safe: one reader thread owns it.
///
/// The `gps_data_t` (about 24 KB) lives at a stable heap address for the session's life and is freed
/// exactly once; reads and stream requests are never made on a closed handle (libgps crashes then).
final class GPSDSession {
    let endpoint: GPSDEndpoint
    private let data: UnsafeMutablePointer<gps_data_t>
    private(set) var isOpen = false
    private let messageBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: 16_384)

    init(endpoint: GPSDEndpoint) {
        self.endpoint = endpoint
        data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        memset(data, 0, MemoryLayout<gps_data_t>.size)
    }

    deinit {
        close()
        data.deallocate()
        messageBuffer.deallocate()
    }

    /// Connects and starts the watch: JSON reports, plus raw NMEA when `nmea` is set, for `device`
    /// only when given.
    func open(nmea: Bool = false, device: String? = nil) throws(GPSDError) {
        close()
        memset(data, 0, MemoryLayout<gps_data_t>.size)
        let status = gps_open(endpoint.host, String(endpoint.port), data)
        guard status == 0 else {
            let code = devicesim_errno()
            let reason = gps_errstr(code).map { String(cString: $0) } ?? "error \(code)"
            throw .cannotConnect(endpoint, reason: reason)
        }
        isOpen = true
        var flags = UInt32(WATCH_ENABLE) | UInt32(WATCH_JSON)
        if nmea { flags |= UInt32(WATCH_NMEA) }
        let streamStatus: Int32
        if let device {
            flags |= UInt32(WATCH_DEVICE)
            streamStatus = device.withCString { gps_stream(data, flags, UnsafeMutableRawPointer(mutating: $0)) }
        } else {
            streamStatus = gps_stream(data, flags, nil)
        }
        guard streamStatus == 0 else {
            close()
            throw .watchFailed(endpoint, reason: "gps_stream returned \(streamStatus)")
        }
    }

    /// Closes the connection if open.
    func close() {
        guard isOpen else { return }
        isOpen = false
        _ = gps_close(data)
    }

    /// Whether data arrives within `microseconds`.
    func waiting(microseconds: Int32) -> Bool {
        guard isOpen else { return false }
        return gps_waiting(data, microseconds)
    }

    /// What one read brought.
    struct Read {
        /// The raw line gpsd sent (JSON or NMEA).
        var line: String
        /// The fix, when the line was a TPV.
        var fix: GPSDFix?
        /// The satellites, when the line was a SKY.
        var satellites: [GPSDSatellite]?
        /// The device that sent it.
        var device: String
    }

    /// Reads one message; throws when the connection is gone.
    func read() throws(GPSDError) -> Read {
        guard isOpen else { throw .connectionLost(endpoint, reason: "not connected") }
        data.pointee.set = 0  // libgps accumulates the mask across reads
        messageBuffer[0] = 0
        let status = gps_read(data, messageBuffer, 16_384)
        if status < 0 {
            let code = devicesim_errno()
            close()
            throw .connectionLost(endpoint, reason: code == 0 ? "gpsd closed the connection" : (gps_errstr(code).map { String(cString: $0) } ?? "error \(code)"))
        }
        let line = String(cString: messageBuffer).trimmingCharacters(in: .newlines)
        let mask = data.pointee.set
        let device = withUnsafeBytes(of: data.pointee.dev.path) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        var read = Read(line: line, fix: nil, satellites: nil, device: device)
        if line.hasPrefix("{\"class\":\"TPV\""), mask & UInt64(MODE_SET) != 0 {
            read.fix = GPSDFix(data.pointee.fix, satellitesUsed: data.pointee.satellites_used, hdop: data.pointee.dop.hdop)
        }
        if line.hasPrefix("{\"class\":\"SKY\""), mask & UInt64(SATELLITE_SET) != 0 {
            let count = Int(max(0, min(data.pointee.satellites_visible, Int32(MAXCHANNELS))))
            read.satellites = withUnsafeBytes(of: data.pointee.skyview) { raw in
                let satellites = raw.bindMemory(to: satellite_t.self)
                return (0..<count).map { GPSDSatellite(satellites[$0]) }
            }
        }
        return read
    }
}
