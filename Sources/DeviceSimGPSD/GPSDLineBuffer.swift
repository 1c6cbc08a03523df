/// Cuts what gpsd sends into lines, holding at most ``maximumLineLength`` bytes of a line that has not
/// ended yet: a peer that never sends a newline cannot make it grow without bound.
///
/// ```swift
/// var buffer = GPSDLineBuffer(maximumLineLength: 65_536)
/// buffer.append(bytes)
/// while let line = try buffer.nextLine() { ... }   // throws GPSDLineBuffer.LineTooLong
/// ```
struct GPSDLineBuffer {
    /// A line (or the unended rest of one) is longer than the limit.
    struct LineTooLong: Error, Equatable {
        /// The limit it went past.
        var limit: Int
    }

    /// The longest line accepted, in bytes, without its line ending.
    let maximumLineLength: Int
    private var storage: [UInt8] = []
    /// Where the first byte not yet handed out lies in `storage`.
    private var start = 0
    /// How many bytes from `start` on are known to hold no newline.
    private var scanned = 0

    /// Creates an empty buffer.
    init(maximumLineLength: Int) {
        self.maximumLineLength = maximumLineLength
    }

    /// Bytes received that belong to no complete line yet.
    var pendingCount: Int { storage.count - start }

    /// Adds received bytes.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start > 0, start >= storage.count / 2 {
            storage.removeFirst(start)
            start = 0
        }
        storage.append(contentsOf: bytes)
    }

    /// The next complete line without its line ending (LF or CR LF); nil when no line is complete.
    /// Throws when the line being assembled is already longer than ``maximumLineLength``; the buffer is
    /// then emptied.
    mutating func nextLine() throws(LineTooLong) -> [UInt8]? {
        let searchFrom = start + scanned
        guard let newline = storage[searchFrom...].firstIndex(of: UInt8(ascii: "\n")) else {
            scanned = storage.count - start
            if scanned > maximumLineLength {
                clear()
                throw LineTooLong(limit: maximumLineLength)
            }
            return nil
        }
        var end = newline
        if end > start, storage[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        guard end - start <= maximumLineLength else {
            start = newline + 1
            scanned = 0
            throw LineTooLong(limit: maximumLineLength)
        }
        let line = Array(storage[start..<end])
        start = newline + 1
        scanned = 0
        return line
    }

    /// Forgets everything received.
    mutating func clear() {
        storage.removeAll(keepingCapacity: true)
        start = 0
        scanned = 0
    }
}
