@testable import DeviceSimGPSD
import Testing

/// Lines cut from what gpsd sends, in pieces of any size, never more than the limit held.
@Suite struct GPSDLineBufferTests {
    func append(_ text: String, to buffer: inout GPSDLineBuffer) {
        Array(text.utf8).withUnsafeBytes { buffer.append($0) }
    }

    func lines(_ buffer: inout GPSDLineBuffer) throws -> [String] {
        var lines: [String] = []
        while let line = try buffer.nextLine() { lines.append(String(decoding: line, as: UTF8.self)) }
        return lines
    }

    @Test func linesArrivingInPiecesComeOutWholeWithoutTheirLineEndings() throws {
        var buffer = GPSDLineBuffer(maximumLineLength: 100)
        append("{\"class\":\"VER", to: &buffer)
        #expect(try lines(&buffer).isEmpty)
        append("SION\"}\r\n$GPGGA,1*00\n", to: &buffer)
        append("\r\n{\"cl", to: &buffer)
        #expect(try lines(&buffer) == ["{\"class\":\"VERSION\"}", "$GPGGA,1*00", ""])
        #expect(buffer.pendingCount == 4)
    }

    @Test func bytesWithoutANewlineBeyondTheLimitThrowAndAreLetGo() throws {
        var buffer = GPSDLineBuffer(maximumLineLength: 100)
        append(String(repeating: "x", count: 100), to: &buffer)
        #expect(try buffer.nextLine() == nil)
        append("x", to: &buffer)
        #expect(throws: GPSDLineBuffer.LineTooLong(limit: 100)) { try buffer.nextLine() }
        #expect(buffer.pendingCount == 0)
    }

    @Test func aCompleteLineOverTheLimitThrowsAndTheNextLineStillComes() throws {
        var buffer = GPSDLineBuffer(maximumLineLength: 10)
        append("0123456789A\nshort\n", to: &buffer)
        #expect(throws: GPSDLineBuffer.LineTooLong(limit: 10)) { try buffer.nextLine() }
        #expect(try lines(&buffer) == ["short"])
        append("0123456789\r\n", to: &buffer)
        #expect(try lines(&buffer) == ["0123456789"], "the limit counts the line without its CR LF")
    }
}
