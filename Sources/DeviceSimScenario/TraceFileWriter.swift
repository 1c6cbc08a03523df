import DeviceSimHAL
import Foundation

/// Streams a trace to a JSON Lines file as events happen (one line per event, the bytes of
/// ``TraceEvent/jsonLines(_:)``), so a run's memory does not grow with its trace, and a run cut short
/// leaves every line written so far, each one whole. Virtual-time runs write through a buffer of about
/// 1 MiB (``Flushing/buffered(bytes:)``); live runs write each event as it happens
/// (``Flushing/everyEvent``).
///
/// ```swift
/// let writer = try TraceFileWriter(path: "out/walk.jsonl")   // or flushing: .everyEvent
/// recorder.forward(to: writer)
/// ... run ...
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

    /// The file's path.
    public let path: String
    /// When lines reach the file.
    public let flushing: Flushing
    /// Events recorded so far.
    public private(set) var eventCount = 0
    /// The first write error, if one happened (later events are dropped; ``close()`` reports it).
    public private(set) var failure: String?
    private let file: WritableFile
    private var buffer: [UInt8] = []
    private var isClosed = false
    private let flushSize: Int

    /// Creates (or empties) the file, and its folder if needed.
    public init(path: String, flushing: Flushing = .buffered(bytes: 1 << 20)) throws(ScenarioError) {
        self.path = path
        self.flushing = flushing
        switch flushing {
        case .everyEvent: flushSize = 1
        case .buffered(let bytes): flushSize = max(1, bytes)
        }
        do {
            file = try WritableFile(path: path)
        } catch {
            throw ScenarioError("cannot create the trace file \(path): \(error.reason)", at: nil)
        }
        buffer.reserveCapacity(min(flushSize, 1 << 20) + 4096)
    }

    public func record(_ event: TraceEvent) {
        guard failure == nil, !isClosed else { return }
        eventCount += 1
        if event.fields.contains(where: { if case .double(let number) = $0.value { Self.isUnwritable(number) } else { false } }) {
            // JSON has no infinity or NaN: such a value is written as null (a trace stays JSON).
            let fields = event.fields.map { field in
                if case .double(let number) = field.value, Self.isUnwritable(number) { (key: field.key, value: TraceValue.null) } else { field }
            }
            TraceEvent(time: event.time, device: event.device, name: event.name, fields: fields).appendJSONLine(to: &buffer)
        } else {
            event.appendJSONLine(to: &buffer)
        }
        if buffer.count >= flushSize { flush() }
    }

    /// Whether `number` would come out of ``TraceValue/format(_:)`` as `inf` or `nan`, which JSON does
    /// not have: not finite, or so large (past about 1e301) that its rounding to 7 decimals overflows.
    static func isUnwritable(_ number: Double) -> Bool {
        !(number * 1e7).isFinite
    }

    /// Writes what is buffered and closes the file (once); throws the first write error.
    public func close() throws(ScenarioError) {
        if !isClosed {
            flush()
            file.synchronize()
            isClosed = true
            do { try file.close() } catch { failure = failure ?? "cannot write the trace file \(path): \(error.reason)" }
        }
        if let failure { throw ScenarioError(failure, at: nil) }
    }

    private func flush() {
        guard failure == nil, !buffer.isEmpty else { return }
        do {
            try file.write(buffer)
        } catch {
            failure = "cannot write the trace file \(path): \(error.reason)"
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
        if records(eventsNamed: event.name) { events.append(event) }
    }

    func records(eventsNamed name: String) -> Bool {
        names?.contains(name) ?? true
    }
}

extension Expectation {
    /// The names of the events this expectation looks at (nil: it may look at any event).
    var relevantEventNames: Set<String>? {
        switch self {
        case .event(let expected): [expected.name]
        case .position(let expected): Set(expected.events)
        case .order(let expected): Set(expected.items.map(\.name))
        case .anyOf(let expected):
            expected.alternatives.reduce(Set<String>?.some([])) { names, alternative in
                guard let names, let more = alternative.relevantEventNames else { return nil }
                return names.union(more)
            }
        }
    }
}
