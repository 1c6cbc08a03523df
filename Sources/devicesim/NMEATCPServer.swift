import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Serves an NMEA stream over TCP to any number of clients (gpsd with `tcp://HOST:PORT`, `nc`, an app).
///
/// The simulation hands each epoch to ``broadcast(_:)``, which only queues it: every client has its own
/// writer thread and a bounded queue (``maximumQueuedBytes``), so a slow or vanished client never
/// stalls the simulation; when a queue is full its oldest epochs are dropped and counted.
///
/// ```swift
/// let server = try NMEATCPServer(host: "127.0.0.1", port: 10110)
/// server.start()
/// server.broadcast(Array("$GPGGA,...\r\n".utf8))
/// ```
final class NMEATCPServer: @unchecked Sendable {
    /// Bytes a client may have waiting before its oldest epochs are dropped.
    static let maximumQueuedBytes = 256 << 10

    let host: String
    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var clients: [Client] = []
    private var stopped = false
    /// Epochs dropped for each client that connected, in the order they connected.
    private var droppedByClient: [Int] = []

    /// Binds and listens on `host:port` (port 0: any free port, see ``port``).
    init(host: String, port: UInt16) throws {
        self.host = host
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host, &address.sin_addr) == 1 else {
            throw ServeError("'\(host)' is not an IPv4 address; give one such as 127.0.0.1 or 0.0.0.0")
        }
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw ServeError("cannot open a socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw ServeError("cannot listen on \(host):\(port): \(reason)\(errno == EADDRINUSE ? " (another program uses the port; pick another with --nmea-tcp)" : "")")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.port = UInt16(bigEndian: actual.sin_port)
        self.listener = descriptor
    }

    /// Starts accepting clients on a thread of its own.
    func start() {
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Queues `bytes` for every connected client.
    func broadcast(_ bytes: [UInt8]) {
        lock.lock()
        let current = clients
        lock.unlock()
        for client in current {
            let dropped = client.enqueue(bytes)
            guard dropped > 0 else { continue }
            lock.lock()
            droppedByClient[client.number] += dropped
            lock.unlock()
        }
    }

    /// Clients that connected so far, those still connected, and the epochs dropped for slow
    /// clients: in all, and for each client in the order they connected.
    var statistics: (accepted: Int, connected: Int, dropped: Int, droppedByClient: [Int]) {
        lock.lock()
        defer { lock.unlock() }
        return (droppedByClient.count, clients.filter(\.isOpen).count, droppedByClient.reduce(0, +), droppedByClient)
    }

    /// Lets every client's queue drain (up to `timeout`), then closes everything.
    func stop(drainingFor timeout: TimeInterval = 2) {
        lock.lock()
        stopped = true
        let current = clients
        lock.unlock()
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        let deadline = Date().addingTimeInterval(timeout)
        for client in current { client.close(after: deadline) }
    }

    private func acceptLoop() {
        while true {
            let descriptor = accept(listener, nil, nil)
            lock.lock()
            if stopped {
                lock.unlock()
                if descriptor >= 0 { close(descriptor) }
                return
            }
            guard descriptor >= 0 else {
                lock.unlock()
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            var noDelay: Int32 = 1
            setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
            let client = Client(descriptor: descriptor, number: droppedByClient.count)
            clients.removeAll { !$0.isOpen }
            clients.append(client)
            droppedByClient.append(0)
            lock.unlock()
            client.start()
        }
    }

    /// One connected client: a bounded queue of epochs and a thread that writes them.
    private final class Client: @unchecked Sendable {
        private let descriptor: Int32
        /// Its place in the order clients connected.
        let number: Int
        private let condition = NSCondition()
        private var queue: [[UInt8]] = []
        private var head = 0
        private var queuedBytes = 0
        private var open = true
        private var closeBy: Date?

        init(descriptor: Int32, number: Int) {
            self.descriptor = descriptor
            self.number = number
        }

        var isOpen: Bool {
            condition.lock()
            defer { condition.unlock() }
            return open
        }

        func start() {
            Thread.detachNewThread { [self] in writeLoop() }
        }

        /// Queues an epoch; returns how many old epochs were dropped to make room.
        func enqueue(_ bytes: [UInt8]) -> Int {
            condition.lock()
            defer { condition.unlock() }
            guard open else { return 0 }
            var dropped = 0
            while queuedBytes + bytes.count > NMEATCPServer.maximumQueuedBytes, head < queue.count {
                queuedBytes -= queue[head].count
                head += 1
                dropped += 1
            }
            queue.append(bytes)
            queuedBytes += bytes.count
            condition.signal()
            return dropped
        }

        func close(after deadline: Date) {
            condition.lock()
            closeBy = deadline
            condition.broadcast()
            condition.unlock()
        }

        private func writeLoop() {
            while true {
                condition.lock()
                while head >= queue.count && open && closeBy == nil { condition.wait() }
                if head >= queue.count || !open || (closeBy.map { Date() > $0 } ?? false) {
                    open = false
                    condition.unlock()
                    break
                }
                let bytes = queue[head]
                head += 1
                queuedBytes -= bytes.count
                if head > 1024 {
                    queue.removeFirst(head)
                    head = 0
                }
                condition.unlock()
                if !writeAll(bytes) {
                    condition.lock()
                    open = false
                    condition.unlock()
                    break
                }
            }
            #if canImport(Glibc)
            Glibc.close(descriptor)
            #else
            Darwin.close(descriptor)
            #endif
        }

        private func writeAll(_ bytes: [UInt8]) -> Bool {
            var offset = 0
            while offset < bytes.count {
                #if canImport(Glibc)
                let written = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                #else
                let written = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
                #endif
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }
}

/// A problem serving the stream, in words a user can act on.
struct ServeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
