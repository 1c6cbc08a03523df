/// The whole NMEA pipeline: bytes in (any chunk sizes), fixes and satellite views out, every byte
/// accounted for in ``statistics``.
///
/// ```swift
/// var decoder = NMEADecoder()
/// data.withUnsafeBytes { bytes in
///     decoder.feed(bytes) { report in print(report) }
/// }
/// decoder.finish { report in print(report) }
/// decoder.statistics.skippedBytes
/// ```
public struct NMEADecoder: Sendable {
    private var framer: NMEAFramer
    private var parser = NMEASentenceParser()
    private var assembler = NMEAFixAssembler()
    private var decoded = 0

    /// Creates a decoder; sentences longer than `maximumSentenceLength` bytes are skipped.
    public init(maximumSentenceLength: Int = 256) {
        framer = NMEAFramer(maximumLength: maximumSentenceLength)
    }

    /// Feeds bytes; `emit` receives each completed fix or satellite view.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, emit: (NMEAFixAssembler.Report) -> Void) {
        framer.feed(bytes) { body in
            if parser.parse(body, into: &assembler, emit: emit) { decoded &+= 1 }
        }
    }

    /// Feeds bytes and calls `sentence` with every decoded sentence and the assembler's state after it.
    public mutating func feedSentences(_ bytes: UnsafeRawBufferPointer, _ sentence: (NMEASentence, NMEAFix) -> Void) {
        framer.feed(bytes) { body in
            parser.parse(body) { decodedSentence in
                decoded += 1
                assembler.add(decodedSentence) { _ in }
                sentence(decodedSentence, assembler.current)
            }
        }
    }

    /// Ends the input: emits the last epoch.
    public mutating func finish(emit: (NMEAFixAssembler.Report) -> Void) {
        framer.finish()
        assembler.finish(emit: emit)
    }

    /// The counts so far.
    public var statistics: NMEAStatistics {
        Self.statistics(framer, parser, decoded: decoded)
    }

    private static func statistics(_ framer: NMEAFramer, _ parser: NMEASentenceParser, decoded: Int) -> NMEAStatistics {
        var statistics = framer.statistics
        statistics.decodedSentences = decoded
        statistics.unsupportedSentences = parser.unsupportedSentences
        statistics.shortSentences = parser.shortSentences
        statistics.malformedFields = parser.malformedFields
        return statistics
    }

    /// Frames and parses one piece of an input on its own, appending its sentences to `sentences`
    /// (fixes are not assembled), and returns its counts.
    ///
    /// Cut the input at ``NMEAFramer/cutPoint(in:)``s: then the pieces can be parsed on any threads,
    /// and adding their sentences to one ``NMEAFixAssembler`` in input order, summing their counts
    /// with ``NMEAStatistics/merging(_:)``, gives what one decoder over the whole input gives.
    ///
    /// ```swift
    /// var sentences: [NMEASentence] = []
    /// let counts = NMEADecoder.parseSentences(in: piece, into: &sentences)   // on a worker thread
    /// for sentence in sentences { assembler.add(sentence) { report in ... } }  // in order
    /// ```
    public static func parseSentences(
        in bytes: UnsafeRawBufferPointer, maximumSentenceLength: Int = 256, into sentences: inout [NMEASentence]
    ) -> NMEAStatistics {
        var framer = NMEAFramer(maximumLength: maximumSentenceLength)
        var parser = NMEASentenceParser()
        let before = sentences.count
        framer.feed(bytes) { body in
            parser.parse(body) { sentences.append($0) }
        }
        framer.finish()
        return statistics(framer, parser, decoded: sentences.count - before)
    }
}
