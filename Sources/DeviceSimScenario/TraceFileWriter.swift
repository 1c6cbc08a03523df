import DeviceSimHAL
import Foundation

/// Streams a trace to a JSON Lines file as the events happen, instead of holding it in memory: a run
/// of any length keeps flat memory, and a run cut short leaves every line written so far, each one
/// whole.
///
/// Live runs write every event at once (``Flushing/everyEvent``); long virtual-time runs can gather
/// events in a buffer first (``Flushing/buffered(bytes:)``).
///
/// ```swift
/// let recorder = TraceRecorder(keepsEvents: false)
/// let writer = try TraceFileWriter(path: "trace.jsonl")
/// recorder.forward(to: writer)
/// ...
/// try writer.close()
/// ```
public final class TraceFileWriter: EventSink {
    /// When lines reach the file.
    public enum Flushing: Sendable, Hashable {
        /// Each event is written as it is recorded.
        case everyEvent
        /// Events are written when this many bytes have gathered, and at ``TraceFileWriter/close()``.
        case buffered(bytes: Int)
    }

    /// The file written.
    public let path: String
    /// When lines reach the file.
    public let flushing: Flushing
    /// Events recorded so far.
    public private(set) var eventCount = 0
    /// The first write error (later events are dropped after it); ``close()`` throws it.
    public private(set) var writeError: TraceFileError?

    private var handle: FileHandle?
    private var buffer: [UInt8] = []

    /// Creates (or truncates) the file at `path`.
    public init(path: String, flushing: Flushing = .everyEvent) throws(TraceFileError) {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw .cannotCreate(path: path)
        }
        self.path = path
        self.flushing = flushing
        self.handle = handle
        if case .buffered(let bytes) = flushing { buffer.reserveCapacity(bytes) }
    }

    deinit { try? close() }

    public func record(_ event: TraceEvent) {
        guard handle != nil, writeError == nil else { return }
        eventCount += 1
        buffer.append(contentsOf: event.jsonLine.utf8)
        buffer.append(0x0A)
        switch flushing {
        case .everyEvent: flush()
        case .buffered(let bytes): if buffer.count >= bytes { flush() }
        }
    }

    /// Writes what is buffered.
    public func flush() {
        guard let handle, !buffer.isEmpty, writeError == nil else { return }
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            writeError = .writeFailed(path: path, reason: error.localizedDescription)
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered, makes it durable and closes the file; throws the first write error.
    public func close() throws(TraceFileError) {
        guard let handle else {
            if let writeError { throw writeError }
            return
        }
        flush()
        try? handle.synchronize()
        try? handle.close()
        self.handle = nil
        if let writeError { throw writeError }
    }
}

/// Why a trace file could not be written.
public enum TraceFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file cannot be created.
    case cannotCreate(path: String)
    /// Writing failed part-way (disk full, removed medium).
    case writeFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotCreate(let path): "cannot write the trace \(path): cannot create the file (does its folder exist, is it writable?)"
        case .writeFailed(let path, let reason): "writing the trace \(path) failed: \(reason)"
        }
    }
}
