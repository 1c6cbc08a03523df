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
/// Nothing is lost uncounted: an epoch queued for a client either reaches it whole (handed to TCP) or
/// is counted as dropped for it, whether its queue was full, its connection failed, or ``stop(drainingFor:)``
/// gave up waiting for it.
///
/// At most ``maximumClients`` clients are served at once; a connection beyond them is closed as soon as
/// it is accepted (shed), and so is one that comes when the process has no file descriptor left
/// (EMFILE, ENFILE: a spare descriptor is given up to accept it, then taken again). Either way the
/// server keeps accepting, says so once until clients are served again, and counts every connection
/// it shed.
///
/// ```swift
/// let server = try NMEATCPServer(host: "127.0.0.1", port: 10110)
/// server.start()
/// server.broadcast(Array("$GPGGA,...\r\n".utf8))
/// server.stop()   // every client's queue written out or counted as dropped
/// ```
final class NMEATCPServer: @unchecked Sendable {
    /// Bytes a client may have waiting before its oldest epochs are dropped.
    static let maximumQueuedBytes = 256 << 10

    /// The default of ``maximumClients``.
    static let defaultMaximumClients = 64
    /// How long the accept loop pauses after running out of descriptors or memory.
    static let pauseAfterExhaustion: TimeInterval = 0.1

    let host: String
    let port: UInt16
    /// The most clients served at once.
    let maximumClients: Int
    private let listener: Int32
    private let lock = NSLock()
    private var clients: [Client] = []
    private var stopped = false
    /// Epochs dropped for each client that connected, in the order they connected.
    private var droppedByClient: [Int] = []
    /// Connections closed as soon as they were accepted (limit reached, or no descriptor left).
    private var shed = 0
    /// A descriptor held in reserve, given up to accept (and close) a connection when none is left.
    private var spare: Int32 = -1
    /// Whether the server is shedding connections now (said once until a client is served again).
    private var shedding = false

    /// Binds and listens on `host:port` (port 0: any free port, see ``port``), serving at most
    /// `maximumClients` clients at once.
    init(host: String, port: UInt16, maximumClients: Int = NMEATCPServer.defaultMaximumClients) throws {
        self.host = host
        self.maximumClients = maximumClients
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
        spare = Self.openSpare()
    }

    private static func openSpare() -> Int32 {
        open("/dev/null", O_RDONLY | O_CLOEXEC)
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
        for client in current { client.enqueue(bytes) }
    }

    /// Clients that connected so far, those still connected, the epochs dropped for slow clients (in
    /// all, and for each client in the order they connected), and the connections shed.
    var statistics: (accepted: Int, connected: Int, dropped: Int, droppedByClient: [Int], shed: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (droppedByClient.count, clients.filter(\.isOpen).count, droppedByClient.reduce(0, +), droppedByClient, shed)
    }

    /// Stops accepting clients, lets every client's queue drain (up to `timeout`), and returns when
    /// every client's connection is closed: what a client did not take by then (one that does not
    /// read) is counted as dropped for it, so ``statistics`` are final.
    func stop(drainingFor timeout: TimeInterval = 2) {
        lock.lock()
        stopped = true
        let current = clients
        lock.unlock()
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        lock.lock()
        if spare >= 0 { close(spare) }
        spare = -1
        lock.unlock()
        let deadline = Date().addingTimeInterval(timeout)
        for client in current { client.finish(by: deadline) }
        for client in current { client.waitUntilClosed(givingUpAt: deadline) }
    }

    private func countDropped(_ epochs: Int, forClient number: Int) {
        lock.lock()
        droppedByClient[number] += epochs
        lock.unlock()
    }

    private func acceptLoop() {
        // Non-blocking, and accepted only once poll says a connection waits: running out of
        // descriptors then always means a connection to shed, and accepting never blocks.
        _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK)
        while true {
            var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, 500)
            if ready <= 0 {
                lock.lock()
                let done = stopped
                lock.unlock()
                if done { return }
                continue
            }
            let descriptor = accept(listener, nil, nil)
            let failure = errno
            lock.lock()
            if stopped {
                lock.unlock()
                if descriptor >= 0 { close(descriptor) }
                return
            }
            guard descriptor >= 0 else {
                lock.unlock()
                switch failure {
                case EINTR, ECONNABORTED, EPROTO, EAGAIN, EWOULDBLOCK:
                    continue
                case EMFILE, ENFILE:
                    shedWithoutDescriptors(failure)
                case ENOBUFS, ENOMEM:
                    say("cannot accept a client on port \(port): \(String(cString: strerror(failure))); retrying")
                    Thread.sleep(forTimeInterval: Self.pauseAfterExhaustion)
                case EBADF, EINVAL, ENOTSOCK:
                    Terminal.standardError.write("error: the listening socket on port \(port) failed: \(String(cString: strerror(failure))); no more clients are accepted\n")
                    return
                default:
                    say("cannot accept a client on port \(port): \(String(cString: strerror(failure))); retrying")
                    Thread.sleep(forTimeInterval: Self.pauseAfterExhaustion)
                }
                continue
            }
            clients.removeAll { !$0.isOpen }
            guard clients.count < maximumClients else {
                shed += 1
                lock.unlock()
                close(descriptor)
                say("port \(port) serves its limit of \(maximumClients) clients (--max-clients): closing new connections until one leaves")
                continue
            }
            shedding = false
            // Blocking writes (on BSD and macOS an accepted socket inherits the listener's O_NONBLOCK).
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
            var noDelay: Int32 = 1
            setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
            let number = droppedByClient.count
            let client = Client(descriptor: descriptor) { [unowned self] epochs in countDropped(epochs, forClient: number) }
            clients.append(client)
            droppedByClient.append(0)
            lock.unlock()
            client.start()
        }
    }

    /// Out of descriptors: gives up the spare one to accept the waiting connection and close it at once
    /// (so it is told, rather than left waiting in the backlog), takes the spare again, and pauses.
    private func shedWithoutDescriptors(_ failure: Int32) {
        let limit = failure == EMFILE ? "the limit is 'ulimit -n'" : "the system's limit"
        say("port \(port) cannot accept a client: \(String(cString: strerror(failure))) (\(limit)); closing new connections until descriptors are free")
        lock.lock()
        if spare < 0 { spare = Self.openSpare() }  // lost when another process took the last one
        if spare >= 0 {
            close(spare)
            spare = -1
            let descriptor = accept(listener, nil, nil)
            if descriptor >= 0 {
                close(descriptor)
                shed += 1
            }
            spare = Self.openSpare()
        }
        lock.unlock()
        Thread.sleep(forTimeInterval: Self.pauseAfterExhaustion)
    }

    /// Says `message` on standard error (status for the user, not a diagnostic: whatever
    /// `DEVICESIM_LOG_LEVEL` is), once until a client is served again.
    private func say(_ message: String) {
        lock.lock()
        let first = !shedding
        shedding = true
        lock.unlock()
        if first { Terminal.standardError.write("serve: \(message)\n") }
    }

    /// One connected client: a bounded queue of epochs and a thread that writes them. Every epoch
    /// queued is either written whole or reported to `countDropped`.
    private final class Client: @unchecked Sendable {
        private let descriptor: Int32
        private let countDropped: @Sendable (Int) -> Void
        private let condition = NSCondition()
        private var queue: [[UInt8]] = []
        private var head = 0
        private var queuedBytes = 0
        /// Whether the writer still takes epochs (false once it has written its last).
        private var open = true
        private var closeBy: Date?
        /// The writer has ended and closed the descriptor.
        private var closed = false
        /// The connection was shut down to wake a writer blocked on a client that does not read.
        private var abandoned = false

        init(descriptor: Int32, countDropped: @escaping @Sendable (Int) -> Void) {
            self.descriptor = descriptor
            self.countDropped = countDropped
        }

        var isOpen: Bool {
            condition.lock()
            defer { condition.unlock() }
            return open
        }

        func start() {
            Thread.detachNewThread { [self] in writeLoop() }
        }

        /// Queues an epoch, dropping (and counting) the oldest ones to make room.
        func enqueue(_ bytes: [UInt8]) {
            condition.lock()
            guard open else {
                condition.unlock()
                return
            }
            var dropped = 0
            while queuedBytes + bytes.count > NMEATCPServer.maximumQueuedBytes, head < queue.count {
                queuedBytes -= queue[head].count
                head += 1
                dropped += 1
            }
            queue.append(bytes)
            queuedBytes += bytes.count
            condition.signal()
            condition.unlock()
            if dropped > 0 { countDropped(dropped) }
        }

        /// Asks the writer to write what is queued and end; what is still queued at `deadline` is dropped.
        func finish(by deadline: Date) {
            condition.lock()
            closeBy = deadline
            condition.broadcast()
            condition.unlock()
        }

        /// Waits until the writer has ended; at `deadline` shuts the connection down, so a write
        /// blocked on a client that does not read fails (and its epochs are counted as dropped).
        func waitUntilClosed(givingUpAt deadline: Date) {
            condition.lock()
            defer { condition.unlock() }
            while !closed {
                if abandoned {
                    condition.wait()
                } else if !condition.wait(until: deadline), !closed {
                    abandoned = true
                    shutdown(descriptor, Int32(SHUT_RDWR))
                }
            }
        }

        private func writeLoop() {
            while true {
                condition.lock()
                while head >= queue.count && closeBy == nil { condition.wait() }
                if head >= queue.count || (closeBy.map { Date() >= $0 } ?? false) {
                    endWriting(undelivered: 0)   // unlocks
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
                    endWriting(undelivered: 1)   // the epoch only partly written, if at all
                    break
                }
            }
            condition.lock()
            closed = true
            #if canImport(Glibc)
            Glibc.close(descriptor)
            #else
            Darwin.close(descriptor)
            #endif
            condition.broadcast()
            condition.unlock()
        }

        /// With the lock held: takes no more epochs, counts `undelivered` and those still queued as
        /// dropped, and unlocks.
        private func endWriting(undelivered: Int) {
            open = false
            let dropped = undelivered + queue.count - head
            queue = []
            head = 0
            queuedBytes = 0
            condition.unlock()
            if dropped > 0 { countDropped(dropped) }
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
