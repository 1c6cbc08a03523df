import DeviceSimSimulated
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's bytes read with `open` and `read`: a scenario run reads hundreds of small files (each
/// scenario file's kind when a folder is searched, then its text), and Foundation's `Data(contentsOf:)`
/// costs several times the system calls' own time on each (building a URL, then a Data).
///
/// ```swift
/// if let bytes = FileBytes.contents(atPath: "Scenarios/dog-walk/walk-2km.yaml") { print(bytes.count) }
/// ```
package enum FileBytes {
    /// The whole content of the regular file at `path`; nil when it cannot be opened or read, or is
    /// not a regular file (a FIFO is opened without waiting for a writer, and refused; so are
    /// devices and the kernel's /proc and /sys files). At most `limit` + 1 bytes are read, so a
    /// caller that finds more than `limit` knows the file is too large without reading all of it.
    package static func contents(atPath path: String, limit: Int = Int.max - 1) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, !InputFile.isKernelFile(path) else { return nil }
        var bytes: [UInt8] = []
        // One byte more than the file's size: a read that comes back short has reached the end, so
        // a file that did not grow meanwhile takes one call.
        var capacity = min(max(Int(status.st_size), 0), limit) + 1
        while true {
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: capacity))
            let count = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + start, capacity)
            }
            if count < 0 {
                if errno == EINTR { bytes.removeLast(capacity); continue }
                return nil
            }
            bytes.removeLast(capacity - count)
            if count < capacity || bytes.count > limit { return bytes }
            capacity = min(max(capacity, 64 << 10), limit + 1 - bytes.count)
        }
    }

    /// The size and last modification of the file at `path` (links followed); nil when there is
    /// none. `stat` alone: Foundation's `attributesOfItem(atPath:)` also looks up the names of the
    /// file's owner and group on each call, reading `/etc/passwd` and `/etc/group` through NSS.
    package static func status(atPath path: String) -> FileStatus? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = status.st_mtimespec
        #else
        let modified = status.st_mtim
        #endif
        return FileStatus(size: Int(status.st_size), modifiedSeconds: Int(modified.tv_sec), modifiedNanoseconds: Int(modified.tv_nsec))
    }
}

/// A file's size and last modification, from ``FileBytes/status(atPath:)``: equal as long as the
/// file has not been written.
package struct FileStatus: Hashable, Sendable {
    package var size: Int
    package var modifiedSeconds: Int
    package var modifiedNanoseconds: Int
}
