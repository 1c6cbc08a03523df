import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP connection to gpsd in which every wait has a deadline: connecting, sending the watch request
/// and receiving. Non-blocking underneath, so no call waits longer than it was told to. Not
/// thread-safe: one reader thread owns it.
final class GPSDSocket {
    /// Where it is connected.
    let endpoint: GPSDEndpoint
    private var descriptor: Int32

    private init(endpoint: GPSDEndpoint, descriptor: Int32) {
        self.endpoint = endpoint
        self.descriptor = descriptor
    }

    deinit { close() }

    /// Connects to `endpoint`, trying each of its addresses, within `timeout` in all.
    static func connect(to endpoint: GPSDEndpoint, timeout: Duration) throws(GPSDError) -> GPSDSocket {
        let deadline = ContinuousClock.now + timeout
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(endpoint.host, String(endpoint.port), &hints, &list)
        guard resolved == 0, let first = list else {
            throw .cannotConnect(endpoint, reason: "cannot resolve '\(endpoint.host)': \(String(cString: gai_strerror(resolved)))")
        }
        defer { freeaddrinfo(first) }
        var reason = "no address"
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let address = next {
            next = address.pointee.ai_next
            let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            guard descriptor >= 0 else {
                reason = String(cString: strerror(errno))
                continue
            }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            #if canImport(Darwin)
            var yes: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
            #endif
            let socket = GPSDSocket(endpoint: endpoint, descriptor: descriptor)
            if let error = socket.finishConnecting(to: address.pointee, by: deadline, timeout: timeout) {
                reason = error
                socket.close()
                if ContinuousClock.now >= deadline { break }
                continue
            }
            return socket
        }
        throw .cannotConnect(endpoint, reason: reason)
    }

    /// Connects the non-blocking descriptor; returns the reason it failed, or nil.
    private func finishConnecting(to address: addrinfo, by deadline: ContinuousClock.Instant, timeout: Duration) -> String? {
        #if canImport(Glibc)
        let started = Glibc.connect(descriptor, address.ai_addr, address.ai_addrlen)
        #else
        let started = Darwin.connect(descriptor, address.ai_addr, address.ai_addrlen)
        #endif
        if started == 0 { return nil }
        guard errno == EINPROGRESS || errno == EINTR else { return String(cString: strerror(errno)) }
        switch wait(for: Int16(POLLOUT), until: deadline) {
        case .ready:
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return String(cString: strerror(errno)) }
            return error == 0 ? nil : String(cString: strerror(error))
        case .timedOut:
            return "no answer within \(Self.seconds(timeout)) s"
        case .failed(let code):
            return String(cString: strerror(code))
        }
    }

    /// Sends all of `text` within `timeout`.
    func send(_ text: String, timeout: Duration) throws(GPSDError) {
        let deadline = ContinuousClock.now + timeout
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            guard descriptor >= 0 else { throw .connectionLost(endpoint, reason: "not connected") }
            #if canImport(Glibc)
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            #else
            let sent = bytes[offset...].withUnsafeBytes { Darwin.send(descriptor, $0.baseAddress, $0.count, 0) }
            #endif
            if sent >= 0 {
                offset += sent
                continue
            }
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
                throw .watchFailed(endpoint, reason: String(cString: strerror(errno)))
            }
            switch wait(for: Int16(POLLOUT), until: deadline) {
            case .ready: continue
            case .timedOut: throw .watchFailed(endpoint, reason: "gpsd took no request within \(Self.seconds(timeout)) s")
            case .failed(let code): throw .watchFailed(endpoint, reason: String(cString: strerror(code)))
            }
        }
    }

    /// Waits at most `timeout` for bytes and adds what arrived to `buffer`; returns how many bytes came
    /// (0: none within `timeout`). Throws when gpsd closed the connection or it broke.
    func receive(into buffer: inout GPSDLineBuffer, waitingAtMost timeout: Duration) throws(GPSDError) -> Int {
        guard descriptor >= 0 else { throw .connectionLost(endpoint, reason: "not connected") }
        switch wait(for: Int16(POLLIN), until: ContinuousClock.now + timeout) {
        case .timedOut: return 0
        case .failed(let code): throw .connectionLost(endpoint, reason: String(cString: strerror(code)))
        case .ready: break
        }
        return try withUnsafeTemporaryAllocation(byteCount: Self.chunkSize, alignment: 1) { chunk throws(GPSDError) -> Int in
            let count = recv(descriptor, chunk.baseAddress, chunk.count, 0)
            if count > 0 {
                buffer.append(UnsafeRawBufferPointer(rebasing: chunk[..<count]))
                return count
            }
            if count == 0 { throw .connectionLost(endpoint, reason: "gpsd closed the connection") }
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return 0 }
            throw .connectionLost(endpoint, reason: String(cString: strerror(errno)))
        }
    }

    /// Bytes taken from the socket in one read.
    static let chunkSize = 65_536

    /// Closes the connection if open.
    func close() {
        guard descriptor >= 0 else { return }
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
        descriptor = -1
    }

    private enum Wait {
        case ready, timedOut, failed(Int32)
    }

    /// Waits until the descriptor is ready for `events` or `deadline` passes (a hang-up or error counts
    /// as ready: the next call says what it is).
    private func wait(for events: Int16, until deadline: ContinuousClock.Instant) -> Wait {
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            let (seconds, attoseconds) = left.components
            let milliseconds = max(0, min(Int64(Int32.max), seconds * 1000 + attoseconds / 1_000_000_000_000_000))
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(milliseconds))
            if ready > 0 { return .ready }
            if ready == 0 {
                if milliseconds == 0 || ContinuousClock.now >= deadline { return .timedOut }
                continue
            }
            if errno == EINTR { continue }
            return .failed(errno)
        }
    }

    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return value == value.rounded() ? String(Int(value)) : String(format: "%.2g", value)
    }
}
