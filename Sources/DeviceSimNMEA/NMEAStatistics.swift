/// What a decoder saw, counted by kind. Every input byte is either in a decoded sentence
/// (``sentenceBytes``) or in one of the skipped counts, or still waiting for its line to end
/// (``pendingBytes``): `bytesRead == sentenceBytes + skippedBytes + pendingBytes`.
public struct NMEAStatistics: Sendable, Hashable {
    /// Every byte fed to the decoder.
    public var bytesRead = 0
    /// Bytes of sentences that framed correctly (valid or missing checksum), terminators included.
    public var sentenceBytes = 0
    /// Bytes held back: the start of a sentence whose line has not ended yet.
    public var pendingBytes = 0

    /// Sentences decoded into values.
    public var decodedSentences = 0
    /// Well-formed sentences of a type or talker this decoder does not interpret (AIS, proprietary...).
    public var unsupportedSentences = 0
    /// Well-formed sentences without a `*hh` checksum (decoded anyway, as gpsd does).
    public var sentencesWithoutChecksum = 0
    /// Numeric or enumerated fields that could not be read (treated as absent).
    public var malformedFields = 0
    /// Known sentences with too few fields to decode.
    public var shortSentences = 0

    /// Sentences whose checksum did not match.
    public var badChecksumSentences = 0
    /// Bytes in sentences whose checksum did not match.
    public var badChecksumBytes = 0
    /// Sentences cut off by the start of another one (or by the end of input).
    public var truncatedSentences = 0
    /// Bytes of truncated sentences.
    public var truncatedBytes = 0
    /// Sentences longer than the length bound.
    public var overlongSentences = 0
    /// Bytes of overlong sentences.
    public var overlongBytes = 0
    /// Would-be sentences cut short by a byte that cannot be in one (a control or non-ASCII byte, a
    /// carriage return before the end), or without a sentence type. What follows such a byte, up to
    /// the next `$` or `!`, is noise.
    public var invalidSentences = 0
    /// Bytes of invalid sentences.
    public var invalidBytes = 0
    /// Bytes outside any sentence: binary protocols, comments, blank lines, noise.
    public var noiseBytes = 0

    /// Creates empty statistics.
    public init() {}

    /// Every byte counted as skipped.
    public var skippedBytes: Int {
        badChecksumBytes + truncatedBytes + overlongBytes + invalidBytes + noiseBytes
    }

    /// The counts as (name, value) pairs in a fixed order, for reports.
    public var counts: [(name: String, value: Int)] {
        [
            ("bytes read", bytesRead), ("bytes in sentences", sentenceBytes), ("bytes skipped", skippedBytes),
            ("sentences decoded", decodedSentences), ("sentences unsupported", unsupportedSentences),
            ("sentences without checksum", sentencesWithoutChecksum), ("malformed fields", malformedFields),
            ("short sentences", shortSentences), ("bad checksums", badChecksumSentences),
            ("truncated sentences", truncatedSentences), ("overlong sentences", overlongSentences),
            ("invalid sentences", invalidSentences), ("noise bytes", noiseBytes),
        ]
    }
}

extension NMEAStatistics {
    /// The sum of two sets of counts: `other` counts input that came after this one's (its pending
    /// bytes are the ones still waiting).
    public func merging(_ other: NMEAStatistics) -> NMEAStatistics {
        var sum = self
        sum.bytesRead += other.bytesRead
        sum.sentenceBytes += other.sentenceBytes
        sum.pendingBytes = other.pendingBytes
        sum.decodedSentences += other.decodedSentences
        sum.unsupportedSentences += other.unsupportedSentences
        sum.sentencesWithoutChecksum += other.sentencesWithoutChecksum
        sum.malformedFields += other.malformedFields
        sum.shortSentences += other.shortSentences
        sum.badChecksumSentences += other.badChecksumSentences
        sum.badChecksumBytes += other.badChecksumBytes
        sum.truncatedSentences += other.truncatedSentences
        sum.truncatedBytes += other.truncatedBytes
        sum.overlongSentences += other.overlongSentences
        sum.overlongBytes += other.overlongBytes
        sum.invalidSentences += other.invalidSentences
        sum.invalidBytes += other.invalidBytes
        sum.noiseBytes += other.noiseBytes
        return sum
    }
}
