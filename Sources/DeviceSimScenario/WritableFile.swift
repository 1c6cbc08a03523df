import DeviceSimSimulated
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An output file (trace, results, report, JUnit XML, NMEA export), written with `open` and `write`
/// and every error reported with the path and the system's reason.
///
/// A path that names something other than a regular file is written in place, never replaced:
/// Foundation's `FileManager.createFile` and `Data.write(options: .atomic)` write a temporary file
/// and rename it over the path, which (run as root) replaces `/dev/null` or `/dev/full` with a
/// regular file, and turns a link into a file. `/dev/full` here fails at the first write with
/// "No space left on device", as it should.
///
/// ```swift
/// let file = try WritableFile(path: "out/results.jsonl")
/// try file.write("line\n")
/// try file.close()
/// try WritableFile.replace("out/junit.xml", with: xml)   // whole, atomically for a regular file
/// ```
package final class WritableFile {
    /// The path written.
    package let path: String
    private var descriptor: Int32
    /// Whether ``close()`` leaves the descriptor open (standard output).
    private let borrowed: Bool

    /// Opens `path` for writing (created, or emptied), making its folder first if needed.
    package init(path: String) throws(WriteError) {
        self.path = path
        let folder = Self.folderAndName(of: path).folder
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            // `mkdir -p` by hand, for the system's reason (Foundation's says "The file doesn't exist").
            var built = folder.hasPrefix("/") ? "" : "."
            for component in folder.split(separator: "/", omittingEmptySubsequences: true) {
                built += "/" + component
                if mkdir(built, 0o755) != 0, errno != EEXIST {
                    throw WriteError(path: path, reason: "cannot create its folder \(built): \(String(cString: strerror(errno)))")
                }
            }
        }
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        borrowed = false
        guard descriptor >= 0 else { throw WriteError(path: path, errno: errno) }
    }

    private init(borrowing descriptor: Int32, name: String) {
        self.path = name
        self.descriptor = descriptor
        borrowed = true
    }

    /// The process's standard output, written like a file (``close()`` leaves it open).
    package static func standardOutput() -> WritableFile {
        WritableFile(borrowing: STDOUT_FILENO, name: "standard output")
    }

    deinit {
        if descriptor >= 0, !borrowed { _ = Glibc_close(descriptor) }
    }

    /// Writes all of `bytes`.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(WriteError) {
        guard descriptor >= 0 else { throw WriteError(path: path, reason: "the file is closed") }
        var offset = 0
        while offset < bytes.count {
            let written = Glibc_write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw WriteError(path: path, errno: errno)
            }
            offset += written
        }
    }

    /// Writes all of `bytes`.
    package func write(_ bytes: [UInt8]) throws(WriteError) {
        try bytes.withUnsafeBytes { buffer in Result { () throws(WriteError) in try write(buffer) } }.get()
    }

    /// Writes `text` as UTF-8.
    package func write(_ text: String) throws(WriteError) {
        var text = text
        try text.withUTF8 { buffer in Result { () throws(WriteError) in try write(UnsafeRawBufferPointer(buffer)) } }.get()
    }

    /// Asks the system to put what was written on the disk (`fsync`; errors are left to ``close()``).
    package func synchronize() {
        if descriptor >= 0 { _ = fsync(descriptor) }
    }

    /// Closes the file (once); a delayed write error (a full disk on NFS) is reported here.
    package func close() throws(WriteError) {
        guard descriptor >= 0 else { return }
        defer { descriptor = -1 }
        guard !borrowed else { return }
        let result = Glibc_close(descriptor)
        if result != 0, errno != EINTR { throw WriteError(path: path, errno: errno) }
    }

    /// The folder part of `path` (empty for a bare name, "/" for a file at the root) and its last
    /// component, by plain string work: Foundation's `NSString.deletingLastPathComponent` traps on a
    /// path of one character on Linux (`--junit a`), which killed a run after its results were made.
    ///
    /// ```swift
    /// WritableFile.folderAndName(of: "out/a.xml")   // ("out", "a.xml")
    /// WritableFile.folderAndName(of: "a")           // ("", "a")
    /// ```
    package static func folderAndName(of path: String) -> (folder: String, name: String) {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return ("", String(trimmed)) }
        let name = String(trimmed[trimmed.index(after: slash)...])
        var folder = trimmed[..<slash]
        while folder.count > 1, folder.hasSuffix("/") { folder = folder.dropLast() }
        return (folder.isEmpty ? "/" : String(folder), name)
    }

    /// Writes `text` as the whole content of `path`: for a regular file (or a new one) through a
    /// temporary file renamed over it, so a reader never sees half of it; anything else (a device,
    /// a FIFO, a link) in place.
    package static func replace(_ path: String, with text: String) throws(WriteError) {
        var status = stat()
        let exists = lstat(path, &status) == 0
        guard !exists || (status.st_mode & S_IFMT) == S_IFREG else {
            let file = try WritableFile(path: path)
            try file.write(text)
            try file.close()
            return
        }
        let (folder, name) = Self.folderAndName(of: path)
        let temporary = (folder.isEmpty ? "" : folder == "/" ? "/" : folder + "/") + ".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        do {
            let file = try WritableFile(path: temporary)
            try file.write(text)
            try file.close()
        } catch {
            unlink(temporary)
            throw WriteError(path: path, reason: error.reason)
        }
        guard rename(temporary, path) == 0 else {
            let failure = WriteError(path: path, errno: errno)
            unlink(temporary)
            throw failure
        }
    }
}

/// An output could not be written: the path and the system's reason.
package struct WriteError: Error, Sendable, CustomStringConvertible {
    /// The file.
    package var path: String
    /// Why (the system's words).
    package var reason: String

    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    init(path: String, errno code: Int32) {
        self.init(path: path, reason: String(cString: strerror(code)))
    }

    /// The path's control characters (a terminal escape in a file name) are shown escaped.
    package var description: String { "cannot write \(MessageText.escapingControls(path)): \(reason)" }
}

// The C library's functions, named apart from the methods above.
@inline(__always) private func Glibc_close(_ descriptor: Int32) -> Int32 { close(descriptor) }
@inline(__always) private func Glibc_write(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(descriptor, bytes, count) }
