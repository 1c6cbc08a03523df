import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A gpsd that misbehaves on purpose, in the test's own process (for the gpsd and end-to-end tests): it listens on a free loopback port
/// and runs `script` for every connection, on a thread of its own. It counts connections, and
/// ``stop()`` closes the listener and every connection and waits (bounded) for their threads.
public final class FakeGPSD: Sendable {
    /// What a script can do with its connection.
    public final class Connection: Sendable {
        public let descriptor: Int32
        private let server: FakeGPSD

        fileprivate init(descriptor: Int32, server: FakeGPSD) {
            self.descriptor = descriptor
            self.server = server
        }

        /// Sends all of `bytes`; false once the client is gone or the server stops.
        @discardableResult
        public func send(_ bytes: [UInt8]) -> Bool {
            var offset = 0
            while offset < bytes.count, !server.isStopped {
                let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if sent < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += sent
            }
            return offset == bytes.count
        }

        @discardableResult
        public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

        /// Waits `seconds`, or less if the server stops; false if it stopped.
        @discardableResult
        public func pause(_ seconds: Double) -> Bool {
            return !server.waitForStop(seconds)
        }
    }

    public static let version = "{\"class\":\"VERSION\",\"release\":\"3.22\",\"rev\":\"3.22\",\"proto_major\":3,\"proto_minor\":14}\r\n"
    public static let devices = "{\"class\":\"DEVICES\",\"devices\":[{\"class\":\"DEVICE\",\"path\":\"/dev/fake\",\"activated\":\"2024-01-01T00:00:00.000Z\"}]}\r\n"

    /// A TPV report with this position.
    public static func tpv(latitude: String, longitude: String, speed: String = "1.0") -> String {
        "{\"class\":\"TPV\",\"device\":\"/dev/fake\",\"mode\":3,\"time\":\"2024-01-01T00:00:00.000Z\",\"lat\":\(latitude),\"lon\":\(longitude),\"altMSL\":30.0,\"speed\":\(speed),\"track\":90.0}\r\n"
    }

    public let port: Int
    private let listener: Int32
    private let script: @Sendable (Connection) -> Void
    private let stopSignal = Mutex(false)
    private let stopCondition = NSCondition()
    private let state = Mutex<(connections: Int, descriptors: [Int32], running: Int)>((0, [], 0))

    /// Listens on 127.0.0.1 at a free port and starts accepting.
    public init(script: @escaping @Sendable (Connection) -> Void) throws {
        self.script = script
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw FakeGPSDError.socket(errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        guard bound == 0, listen(descriptor, 64) == 0 else {
            close(descriptor)
            throw FakeGPSDError.socket(errno)
        }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = descriptor
        state.withLock { $0.running += 1 }
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Connections accepted so far.
    public var connections: Int { state.withLock { $0.connections } }

    public var isStopped: Bool { stopSignal.withLock { $0 } }

    /// Stops accepting, closes every connection, and waits (at most 5 s) for the scripts to end.
    public func stop() {
        stopSignal.withLock { $0 = true }
        stopCondition.lock()
        stopCondition.broadcast()
        stopCondition.unlock()
        shutdown(listener, Int32(SHUT_RDWR))
        state.withLock { state in
            for descriptor in state.descriptors { shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
        let deadline = Date().addingTimeInterval(5)
        while state.withLock({ $0.running }) > 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        close(listener)
    }

    deinit { if !isStopped { stop() } }

    /// Waits up to `seconds` for ``stop()``; true if it came.
    fileprivate func waitForStop(_ seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        stopCondition.lock()
        defer { stopCondition.unlock() }
        while !isStopped {
            if !stopCondition.wait(until: deadline) { return isStopped }
        }
        return true
    }

    private func acceptLoop() {
        defer { state.withLock { $0.running -= 1 } }
        while !isStopped {
            var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 100) > 0, !isStopped else { continue }
            let descriptor = accept(listener, nil, nil)
            guard descriptor >= 0 else { continue }
            state.withLock { $0.connections += 1; $0.descriptors.append(descriptor); $0.running += 1 }
            let connection = Connection(descriptor: descriptor, server: self)
            Thread.detachNewThread { [self] in
                script(connection)
                state.withLock { state in
                    state.descriptors.removeAll { $0 == descriptor }
                    state.running -= 1
                    close(descriptor)
                }
            }
        }
    }

    public enum FakeGPSDError: Error {
        case socket(Int32)
    }
}

extension FakeGPSD {
    /// A gpsd whose receiver stands still at one place, sending a fix every 0.25 s until the client goes.
    ///
    /// ```swift
    /// let gpsd = try FakeGPSD.standingStill(latitude: "52.5145", longitude: "13.3501")
    /// defer { gpsd.stop() }
    /// ```
    public static func standingStill(latitude: String, longitude: String) throws -> FakeGPSD {
        try FakeGPSD { connection in
            connection.send(FakeGPSD.version + FakeGPSD.devices)
            repeat {
                guard connection.send(FakeGPSD.tpv(latitude: latitude, longitude: longitude)) else { return }
            } while connection.pause(0.25)
        }
    }
}
