import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real gpsd for `devicesim live` end-to-end tests: gpsd's own `gpsfake` playing an NMEA log, or a
/// bare gpsd with no receiver, on a loopback port. Started under `timeout` as a hard cap, with a private
/// TMPDIR, ready when its port accepts a connection (no fixed sleeps), stopped by signalling its
/// process group (never by name). The same port can be served again after ``stop()``, as when gpsd
/// restarts.
final class LiveGPSD {
    let port: Int
    let folder: URL
    private var process: Process?

    static var gpsdInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/gpsfake") && FileManager.default.isExecutableFile(atPath: "/usr/sbin/gpsd")
    }

    static var tmuxInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") }

    /// Whether these suites run: where gpsd and tmux are installed, and always on CI (the `CI`
    /// variable set), where a missing one is a failure, not a reason to skip.
    static var shouldRun: Bool {
        (gpsdInstalled && tmuxInstalled) || ProcessInfo.processInfo.environment["CI"] != nil
    }

    /// Picks a free port; nothing serves it until ``play(_:cycle:)`` or ``serveWithoutReceiver()``.
    init() throws {
        guard Self.gpsdInstalled, Self.tmuxInstalled else { throw LiveTestError.notInstalled("gpsd, gpsd-clients and tmux (Debian packages)") }
        port = try Self.freePort()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("devicesim-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// gpsfake plays `log` (looping), `cycle` seconds between sentences.
    func play(_ log: URL, cycle: Double = 0.02) throws {
        try launch(["/usr/bin/gpsfake", "-q", "-P", String(port), "-c", String(cycle), log.path])
    }

    /// A gpsd with no receiver at all.
    func serveWithoutReceiver() throws {
        try launch(["/usr/sbin/gpsd", "-N", "-n", "-S", String(port), "-F", folder.appendingPathComponent("control-\(UUID().uuidString.prefix(8)).sock").path])
    }

    /// A gpsd reading NMEA from `source` (such as `tcp://127.0.0.1:10110`), which it opens only when a
    /// client asks for reports (no `-n`).
    func readNMEA(from source: String) throws {
        try launch(["/usr/sbin/gpsd", "-N", "-S", String(port), "-F", folder.appendingPathComponent("control-\(UUID().uuidString.prefix(8)).sock").path, source])
    }

    private func launch(_ command: [String]) throws {
        stop()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["-k", "5", "120"] + command
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = folder.path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
        try waitUntilListening()
    }

    /// Waits until the port accepts a TCP connection, retrying with short backoff.
    private func waitUntilListening(timeout: TimeInterval = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var delay = 0.05
        while Date() < deadline {
            guard let process, process.isRunning else { throw LiveTestError.exited("gpsd on port \(port)") }
            if Self.accepts(port: port) { return }
            Thread.sleep(forTimeInterval: delay)
            delay = min(delay * 2, 0.5)
        }
        throw LiveTestError.timedOut("gpsd listening on port \(port)")
    }

    /// Stops gpsd (and gpsfake): SIGTERM to the process group, SIGKILL if it lingers, then waits.
    func stop() {
        guard let process else { return }
        self.process = nil
        if process.isRunning {
            kill(-process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(3)
            while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(-process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
    }

    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } } == 0
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }

    /// A TCP port nothing listens on right now.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw LiveTestError.noPort }
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0 else { throw LiveTestError.noPort }
        let named = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        guard named == 0 else { throw LiveTestError.noPort }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Why a live end-to-end test could not set up or see what it waited for.
enum LiveTestError: Error, CustomStringConvertible {
    case notInstalled(String)
    case noPort
    case exited(String)
    case timedOut(String)

    var description: String {
        switch self {
        case .notInstalled(let what): "not installed: \(what)"
        case .noPort: "no free port"
        case .exited(let what): "\(what) exited early"
        case .timedOut(let what): "timed out waiting for \(what)"
        }
    }
}
