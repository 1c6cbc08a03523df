@testable import DeviceSimGPSD
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real gpsd served from an NMEA log by gpsd's own `gpsfake`, on a free loopback port.
///
/// Started under `timeout` as a hard cap, ready when libgps can connect (no fixed sleeps), stopped by
/// signalling its process group (gpsfake and the gpsd it started), never by name.
final class GPSFake {
    let port: Int
    let process: Process
    let folder: URL

    static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/gpsfake") && FileManager.default.isExecutableFile(atPath: "/usr/sbin/gpsd")
    }

    /// Whether the gpsd suites run: where gpsd is installed, and always on CI (the `CI` variable set),
    /// where a missing gpsd is a failure, not a reason to skip.
    static var shouldRun: Bool {
        isInstalled || ProcessInfo.processInfo.environment["CI"] != nil
    }

    /// Starts gpsfake on `log` (looping), `cycle` seconds between sentences, on `port` (default: a free one).
    init(log: URL, cycle: Double = 0.02, port: Int? = nil) throws {
        guard Self.isInstalled else { throw HarnessError.notInstalled }
        self.port = try port ?? Self.freePort()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("gpsfake-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["-k", "5", "120", "/usr/bin/gpsfake", "-q", "-P", String(self.port), "-c", String(cycle), log.path]
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = folder.path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Waits until gpsd accepts connections, retrying with short backoff up to `timeout`.
    func waitUntilReady(timeout: TimeInterval = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var delay = 0.05
        let session = GPSDSession(endpoint: GPSDEndpoint(host: "127.0.0.1", port: port))
        while Date() < deadline {
            guard process.isRunning else { throw HarnessError.exited(process.terminationStatus) }
            if (try? session.open()) != nil {
                session.close()
                return
            }
            Thread.sleep(forTimeInterval: delay)
            delay = min(delay * 2, 0.5)
        }
        throw HarnessError.notReady(port)
    }

    /// Stops gpsfake and its gpsd: SIGTERM to the process group, SIGKILL if it lingers, then waits.
    func stop() {
        if process.isRunning {
            kill(-process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(3)
            while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(-process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { if process.isRunning { stop() } }

    /// A TCP port nothing listens on right now.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError.noPort }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0 else { throw HarnessError.noPort }
        let named = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        guard named == 0 else { throw HarnessError.noPort }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    enum HarnessError: Error {
        case notInstalled
        case noPort
        case notReady(Int)
        case exited(Int32)
    }
}
