import DeviceSimNMEA
import Testing

@Suite struct NMEAFramerTests {
    static let gga = "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n"
    static let rmc = "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\r\n"

    /// Frames `text` fed in chunks of `chunk` bytes; returns the sentence bodies and the statistics.
    func frame(_ bytes: [UInt8], chunk: Int = .max) -> ([String], NMEAStatistics) {
        var framer = NMEAFramer()
        var bodies: [String] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + max(1, min(chunk, bytes.count)))
            bytes[start..<end].withUnsafeBytes { framer.feed($0) { bodies.append(String(decoding: $0, as: UTF8.self)) } }
            start = end
        }
        framer.finish()
        return (bodies, framer.statistics)
    }

    @Test func sentencesSplitAcrossReadsOfAnySizeStillFrame() {
        let bytes = Array((Self.gga + "noise\r\n" + Self.rmc + Self.gga).utf8)
        let (whole, wholeStatistics) = frame(bytes)
        #expect(whole.count == 3)
        for chunk in 1...bytes.count {
            let (bodies, statistics) = frame(bytes, chunk: chunk)
            #expect(bodies == whole, "chunk size \(chunk)")
            #expect(statistics == wholeStatistics, "chunk size \(chunk)")
        }
    }

    @Test func theChecksumIsVerifiedAndTheBodyExcludesIt() {
        let (bodies, statistics) = frame(Array(Self.gga.utf8))
        #expect(bodies == ["$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"])
        #expect(statistics.badChecksumSentences == 0)
        let corrupted = Self.gga.replacingOccurrences(of: "4807", with: "4808")
        let (none, bad) = frame(Array(corrupted.utf8))
        #expect(none.isEmpty)
        #expect(bad.badChecksumSentences == 1)
        #expect(bad.badChecksumBytes == corrupted.utf8.count)
    }

    /// The checksum is the XOR of the bytes between `$` and the first `*`: a sentence with another
    /// `*` before its `*hh` has a bad checksum even when `hh` is the XOR up to the last one, wherever
    /// the first `*` is (in a sixteen-byte block, an eight-byte word or the bytes after the last one);
    /// the same sentences with a `+` there frame, their checksum the XOR of every byte.
    @Test func aStarBeforeTheChecksumMakesItBad() {
        func line(_ body: String) -> String {
            let sum = body.utf8.dropFirst().reduce(UInt8(0), ^)
            let hex = Array("0123456789ABCDEF".utf8)
            return body + "*" + String(decoding: [hex[Int(sum >> 4)], hex[Int(sum & 15)]], as: UTF8.self) + "\r\n"
        }
        for length in 0..<48 {
            let filler = String(repeating: "1", count: length)
            for position in 0...length {
                var marked = Array(filler.utf8)
                marked.insert(0x2A, at: position)
                let withStar = line("$GPTXT," + String(decoding: marked, as: UTF8.self))
                let (none, bad) = frame(Array(withStar.utf8))
                #expect(none.isEmpty, "\(withStar)")
                #expect(bad.badChecksumSentences == 1, "\(withStar)")
                marked[position] = 0x2B  // '+'
                let (bodies, good) = frame(Array(line("$GPTXT," + String(decoding: marked, as: UTF8.self)).utf8))
                #expect(bodies.count == 1 && good.badChecksumSentences == 0, "\(withStar)")
            }
        }
    }

    @Test func lineFeedAloneAndDoubleCarriageReturnsEndALine() {
        let text = Self.gga.replacingOccurrences(of: "\r\n", with: "\n") + Self.rmc.replacingOccurrences(of: "\r\n", with: "\r\r\n")
        #expect(frame(Array(text.utf8)).0.count == 2)
    }

    @Test func aSentenceWithoutChecksumIsAcceptedAndCounted() {
        let (bodies, statistics) = frame(Array("$GPGLL,4916.45,N,12311.12,W,225444,A\r\n".utf8))
        #expect(bodies.count == 1)
        #expect(statistics.sentencesWithoutChecksum == 1)
    }

    @Test func everyByteIsDecodedOrCountedAsSkipped() {
        var bytes = Array(Self.gga.utf8)
        bytes += [0xB5, 0x62, 0x01, 0x07, 0x24, 0x00, 0xFF, 0x0A]  // a binary packet holding a '$' and a LF
        bytes += Array("$GPGGA,123519,4807.03".utf8)  // truncated by the next sentence
        bytes += Array(Self.rmc.utf8)
        bytes += Array(("$GPGSV," + String(repeating: "9,", count: 200) + "*00\r\n").utf8)  // overlong
        bytes += Array(Self.gga.utf8)
        bytes += Array("$GPRMC,123519,A,48".utf8)  // cut off by the end of input
        let (bodies, statistics) = frame(bytes)
        #expect(bodies.count == 3)
        #expect(statistics.truncatedSentences == 2)
        #expect(statistics.overlongSentences == 1)
        #expect(statistics.bytesRead == bytes.count)
        #expect(statistics.sentenceBytes + statistics.skippedBytes == bytes.count)
    }

    @Test func aBinaryByteEndsAWouldBeSentenceAndWhatFollowsIsNoise() {
        var bytes = Array("$GPGGA,1235".utf8) + [0xB5, 0x62, 0x01]  // a '$' in binary data
        bytes += Array("xyz\r\n".utf8) + Array(Self.gga.utf8)
        for chunk in [1, 3, bytes.count] {
            let (bodies, statistics) = frame(bytes, chunk: chunk)
            #expect(bodies.count == 1, "chunk size \(chunk)")
            #expect(statistics.invalidSentences == 1)
            #expect(statistics.invalidBytes == 11)  // "$GPGGA,1235"
            #expect(statistics.noiseBytes == 8)  // the three binary bytes and "xyz\r\n"
            #expect(statistics.sentenceBytes == Self.gga.utf8.count)
        }
    }

    /// The framer looks for the end of a sentence eight bytes at a time, flagging every byte below
    /// `%`: of those, a space, `"` and `#` belong in a sentence and a control byte, `$` or `!` does
    /// not, wherever it falls in the word.
    @Test func printableBytesBelowPercentStayInASentenceAtEveryOffset() {
        let plain = "$GPTXT,01,01,02,ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        for offset in 7..<plain.utf8.count {
            for byte: UInt8 in [0x20, 0x22, 0x23] {
                var body = Array(plain.utf8)
                body[offset] = byte
                let line = Array(NMEASentenceWriter.sentence(String(String(decoding: body, as: UTF8.self).dropFirst())).utf8)
                let (bodies, statistics) = frame(line)
                #expect(bodies == [String(decoding: body, as: UTF8.self)], "byte \(byte) at \(offset)")
                #expect(statistics.sentenceBytes == line.count)
            }
            for byte: UInt8 in [0x01, 0x09, 0x7F, 0xC3] {
                var body = Array(plain.utf8)
                body[offset] = byte
                let (bodies, statistics) = frame(body + Array("\r\n".utf8))
                #expect(bodies.isEmpty, "byte \(byte) at \(offset)")
                #expect(statistics.invalidSentences == 1 && statistics.invalidBytes == offset, "byte \(byte) at \(offset)")
            }
            for byte: UInt8 in [0x21, 0x24] {
                // Another sentence starts there.
                var body = Array(plain.utf8)
                body[offset] = byte
                let (bodies, statistics) = frame(body + Array("\r\n".utf8))
                #expect(bodies.allSatisfy { $0.utf8.first == byte }, "byte \(byte) at \(offset)")
                #expect(statistics.truncatedSentences == 1 && statistics.truncatedBytes == offset, "byte \(byte) at \(offset)")
            }
        }
    }

    @Test func aCarriageReturnInsideASentenceMakesItInvalid() {
        let broken = Self.gga.replacingOccurrences(of: ",E,", with: ",E\r,")
        for chunk in [1, 5, broken.utf8.count] {
            let (bodies, statistics) = frame(Array((broken + Self.rmc).utf8), chunk: chunk)
            #expect(bodies.count == 1, "chunk size \(chunk)")
            #expect(statistics.invalidSentences == 1)
            #expect(statistics.invalidBytes == broken.utf8.count)
        }
    }

    @Test func pendingBytesAreAccountedBetweenReads() {
        var framer = NMEAFramer()
        let head = Array(Self.gga.utf8.prefix(20))
        head.withUnsafeBytes { framer.feed($0) { _ in } }
        #expect(framer.statistics.pendingBytes == 20)
        #expect(framer.statistics.sentenceBytes + framer.statistics.skippedBytes + framer.statistics.pendingBytes == 20)
    }
}
