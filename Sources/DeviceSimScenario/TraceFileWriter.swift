import DeviceSimHAL
import Foundation

/// Streams a trace to a JSON Lines file as events happen (one line per event, the bytes of
/// ``TraceEvent/jsonLines(_:)``), through a buffer of about 1 MiB, so a run's memory does not grow with
/// its trace.
///
/// ```swift
/// let writer = try TraceFileWriter(path: "out/walk.jsonl")
/// recorder.forward(to: writer)
/// ... run ...
/// try writer.close()
/// ```
public final class TraceFileWriter: EventSink {
    /// The file's path.
    public let path: String
    /// The first write error, if one happened (later events are dropped; ``close()`` reports it).
    public private(set) var failure: String?
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private static let flushSize = 1 << 20

    /// Creates (or empties) the file, and its folder if needed.
    public init(path: String) throws(ScenarioError) {
        self.path = path
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw ScenarioError("cannot create the trace file \(path): check that its folder is writable", at: nil)
            }
            handle = try FileHandle(forWritingTo: url)
        } catch let error as ScenarioError {
            throw error
        } catch {
            throw ScenarioError("cannot create the trace file \(path): \((error as NSError).localizedDescription)", at: nil)
        }
        buffer.reserveCapacity(Self.flushSize + 4096)
    }

    public func record(_ event: TraceEvent) {
        guard failure == nil else { return }
        event.appendJSONLine(to: &buffer)
        if buffer.count >= Self.flushSize { flush() }
    }

    /// Writes what is buffered and closes the file; throws the first write error.
    public func close() throws(ScenarioError) {
        flush()
        try? handle.close()
        if let failure { throw ScenarioError(failure, at: nil) }
    }

    private func flush() {
        guard failure == nil, !buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            failure = "cannot write the trace file \(path): \((error as NSError).localizedDescription)"
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Keeps only the events that a scenario's expectations look at (all of them when one expectation
/// could look at any event).
final class ExpectedEventsRecorder: EventSink {
    private let names: Set<String>?
    private(set) var events: [TraceEvent] = []

    init(expectations: [Expectation]) {
        var names = Set<String>()
        var everything = false
        for expectation in expectations {
            if let relevant = expectation.relevantEventNames { names.formUnion(relevant) } else { everything = true }
        }
        self.names = everything ? nil : names
    }

    func record(_ event: TraceEvent) {
        if names?.contains(event.name) ?? true { events.append(event) }
    }
}

extension Expectation {
    /// The names of the events this expectation looks at (nil: it may look at any event).
    var relevantEventNames: Set<String>? {
        switch self {
        case .event(let expected): [expected.name]
        case .position(let expected): Set(expected.events)
        }
    }
}
