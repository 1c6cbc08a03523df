import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `devicesim serve` when clients open more connections than it may have descriptors (`ulimit -n 64`
/// in a shell wrapper) or than --max-clients: it sheds the newest connections, says so, and keeps
/// serving the clients that come after. Every wait is bounded.
@Suite struct ServeOutOfDescriptorsTests {
    static let scenario = "Scenarios/dog-walk/walk-2km.yaml"

    /// `devicesim serve` on a free port under `ulimit -n limit`, listening when it returns.
    static func serve(descriptorLimit limit: Int, _ options: [String] = []) throws -> (TimedRun, Int) {
        let port = try LiveGPSD.freePort()
        let run = try TimedRun([
            "-c", "ulimit -n \(limit) && exec \"$0\" \"$@\"", CLI.binary.path,
            "serve", scenario, "--nmea-tcp", "127.0.0.1:\(port)", "--duration", "90s", "-q",
        ] + options, executable: URL(fileURLWithPath: "/bin/sh"))
        try ServeThroughGPSDTests.waitUntilListening(port)
        return (run, port)
    }

    /// A connection to `port`, or nil when none is made within `timeout` seconds (non-blocking
    /// connect: a full backlog must not hang the test).
    static func connect(to port: Int, timeout: Int32 = 2_000) -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var address = LiveGPSD.loopback(port: port)
        let started = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        if started != 0 {
            var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard errno == EINPROGRESS, poll(&entry, 1, timeout) == 1, getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 else {
                close(descriptor)
                return nil
            }
        }
        return descriptor
    }

    /// What arrives on `descriptor` (non-blocking) until `count` bytes came, the peer closed the
    /// connection, or `timeout` seconds passed.
    static func read(_ descriptor: Int32, atLeast count: Int, timeout: TimeInterval) -> (bytes: [UInt8], closed: Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while bytes.count < count {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { break }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, Int32(left * 1000) + 1) > 0 else { continue }
            let received = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if received == 0 { return (bytes, true) }
            if received < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                return (bytes, true)
            }
            bytes += buffer[0..<received]
        }
        return (bytes, false)
    }

    /// Whether a new client of `port` is served NMEA within `timeout` seconds (a connection closed at
    /// once, while descriptors are still being freed, is retried).
    static func aNewClientIsServed(port: Int, timeout: TimeInterval = 20) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            guard let client = connect(to: port) else { continue }
            let (bytes, _) = read(client, atLeast: 3, timeout: min(3, max(0, deadline.timeIntervalSinceNow)))
            close(client)
            if bytes.starts(with: Array("$GP".utf8)) { return true }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return false
    }

    @Test func afterAClientTookMoreConnectionsThanDescriptorsAndLeftNewClientsAreServed() throws {
        // The default --max-clients (64) is more than the descriptors left under the limit.
        let (run, port) = try Self.serve(descriptorLimit: 64)
        defer { run.interrupt() }
        // 100 connections where about 50 descriptors are left: the rest are closed as they come.
        let connections = (0..<100).compactMap { _ in Self.connect(to: port) }
        #expect(connections.count == 100, "every connection is accepted or closed, none left hanging")
        connections.forEach { close($0) }
        #expect(Self.aNewClientIsServed(port: port), "the accept loop goes on after EMFILE")
        run.interrupt()
        let output = try run.finish(timeout: 30)
        let said = output.standardError.map(\.text)
        #expect(said.contains { $0.contains("port \(port) cannot accept a client: Too many open files (the limit is 'ulimit -n'); closing new connections until descriptors are free") }, "\(said)")
        #expect(output.standardOutput.contains(" closed at once: --max-clients or no descriptor left)"), "\(output.standardOutput)")
    }

    @Test func beyondMaxClientsTheNewestConnectionIsClosedUntilAClientLeaves() throws {
        let (run, port) = try Self.serve(descriptorLimit: 1024, ["--max-clients", "2"])
        defer { run.interrupt() }
        let first = try #require(Self.connect(to: port)), second = try #require(Self.connect(to: port))
        defer { close(second) }
        #expect(!Self.read(first, atLeast: 3, timeout: 20).bytes.isEmpty)
        #expect(!Self.read(second, atLeast: 3, timeout: 20).bytes.isEmpty)
        let third = try #require(Self.connect(to: port))
        let (bytes, closed) = Self.read(third, atLeast: 1, timeout: 20)
        close(third)
        #expect(bytes.isEmpty && closed, "closed at once, nothing sent")
        close(first)
        #expect(Self.aNewClientIsServed(port: port), "a place is free again")
        run.interrupt()
        let output = try run.finish(timeout: 30)
        let said = output.standardError.map(\.text)
        #expect(said.contains { $0.contains("port \(port) serves its limit of 2 clients (--max-clients): closing new connections until one leaves") }, "\(said)")
    }

    @Test func maxClientsIsInTheHelpAndChecked() throws {
        let help = try CLI.run(["serve", "--help"])
        #expect(help.standardOutput.contains("--max-clients <n>"))
        #expect(help.standardOutput.contains("(default: 64)"))
        #expect(help.standardOutput.contains("Exit status: 0"))
        let refused = try CLI.run(["serve", Self.scenario, "--nmea-tcp", "0", "--max-clients", "0"])
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("--max-clients must be 1 to 10000, found 0."), "\(refused.standardError)")
    }
}
