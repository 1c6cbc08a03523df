import DeviceSimNMEA
import Foundation

/// `nmea decode` on every core. The input is read in pieces cut where decoding can start afresh
/// (`NMEAFramer.cutPoint(in:)`); any thread frames and parses the next piece, and whichever thread is
/// free assembles the parsed pieces in input order and writes their JSON. The output is exactly what
/// one `NMEADecoder` over the whole input gives; at most `maximumPiecesInFlight` pieces are in memory.
///
/// ```swift
/// let pipeline = NMEADecodePipeline(input: descriptor, inputName: "capture.log", maximumSentenceLength: 256, skipSky: false)
/// pipeline.run(threads: 2)
/// pipeline.statistics
/// ```
final class NMEADecodePipeline: @unchecked Sendable {
    /// A piece of input read and waiting to be parsed, or parsed and waiting to be assembled.
    private struct Piece {
        var bytes: UnsafeMutableRawBufferPointer
        var count = 0
        var sentences: [NMEASentence] = []
        var statistics = NMEAStatistics()
    }

    private let input: Int32
    private let inputName: String
    private let maximumSentenceLength: Int
    private let pieceCapacity: Int
    private let maximumPiecesInFlight = 4

    /// Guards everything below except what only the thread holding `reading` or `assembling` touches.
    private let condition = NSCondition()
    private var reading = false
    private var assembling = false
    private var endOfInput = false
    private var nextPieceToRead = 0
    private var nextPieceToAssemble = 0
    private var piecesInFlight = 0
    private var parsed: [Int: Piece] = [:]
    private var spare: [Piece] = []
    private var failure: String?

    // Only the thread holding `reading`:
    private let carry: UnsafeMutableRawBufferPointer
    private var carryCount = 0
    // Only the thread holding `assembling`:
    private var assembly: Assembly

    /// Decodes from the file descriptor `input` (closed by the caller); `inputName` names it in errors.
    init(input: Int32, inputName: String, maximumSentenceLength: Int, skipSky: Bool) {
        self.input = input
        self.inputName = inputName
        self.maximumSentenceLength = maximumSentenceLength
        // A piece longer than any sentence: one with no cut point in it then holds no sentence to lose.
        pieceCapacity = max(1 << 18, 2 * (maximumSentenceLength + 2))
        carry = .allocate(byteCount: pieceCapacity, alignment: 64)
        var status = stat()
        let fromPipe = fstat(input, &status) != 0 || (status.st_mode & S_IFMT) != S_IFREG
        // From a pipe or a terminal, output goes out as it comes.
        assembly = Assembly(output: OutputBuffer(capacity: 1 << 21), skipSky: skipSky, flushEveryPiece: fromPipe)
    }

    deinit {
        carry.deallocate()
        for piece in spare { piece.bytes.deallocate() }
    }

    /// Decodes everything on the calling thread and `threads - 1` more; returns when all is written.
    func run(threads: Int) {
        guard threads > 1 else {
            runOnThisThread()
            return
        }
        for _ in 1..<threads {
            Thread { [self] in work() }.start()
        }
        work()
        // `work` returns (on every thread) only once every piece is assembled: no helper touches
        // `assembly` any more, and the helpers are on their way out.
        assembly.finish()
    }

    /// One thread: one decoder over the input as it is mapped or read, each report written as it completes (no
    /// pieces, no parsed sentences kept in between). The same output and counts as any number of
    /// threads: that is what cutting at ``NMEAFramer/cutPoint(in:)`` guarantees.
    private func runOnThisThread() {
        var decoder = NMEADecoder(maximumSentenceLength: maximumSentenceLength)
        // The assembly in a local for the loop: a class property would be checked for exclusive
        // access (a runtime call) at every report.
        var assembly = Assembly(output: OutputBuffer(capacity: 0), skipSky: false, flushEveryPiece: false)
        swap(&assembly, &self.assembly)
        defer { swap(&assembly, &self.assembly) }
        decodeMapped(with: &decoder, into: &assembly)
        // Anything else (a pipe, or the rest of a file that could not be mapped) is read.
        let buffer = carry.baseAddress!
        while true {
            let count = Foundation.read(input, buffer, pieceCapacity)
            if count < 0, errno == EINTR { continue }
            if count < 0 {
                let reason = "cannot read \(inputName): \(String(cString: strerror(errno)))"
                condition.withLock { failure = reason }
            }
            if count <= 0 { break }
            decoder.feed(UnsafeRawBufferPointer(start: buffer, count: count)) { report in assembly.write(report) }
            assembly.endOfPiece()
        }
        decoder.finish { report in assembly.write(report) }
        assembly.totals = decoder.statistics
        assembly.finish()
    }

    /// How much of a file ``decodeMapped(with:into:)`` maps at a time.
    private static let mappedWindow = 1 << 23
    #if os(Linux)
    /// A window's pages read in by `mmap` itself (Linux), not one fault at a time.
    private static let mappingFlags = MAP_PRIVATE | MAP_POPULATE
    #else
    private static let mappingFlags = MAP_PRIVATE
    #endif

    /// Decodes a regular file from where it is mapped in memory, ``mappedWindow`` bytes at a time: no
    /// copy into a buffer (reading a file costs the kernel's copy of every byte, about a tenth of a
    /// one-thread run's CPU time), and at most one window mapped, so memory stays bounded for a file of
    /// any size. Starts at the descriptor's position and leaves it where decoding stopped: at the end,
    /// or where a window could not be mapped (the caller reads the rest). Does nothing for other
    /// inputs. A file truncated while it is decoded ends the process with SIGBUS, as for any reader of
    /// mapped files.
    private func decodeMapped(with decoder: inout NMEADecoder, into assembly: inout Assembly) {
        var status = stat()
        guard fstat(input, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return }
        var offset = Int(lseek(input, 0, SEEK_CUR))
        guard offset >= 0 else { return }
        let end = Int(status.st_size)
        let pageMask = Int(sysconf(Int32(_SC_PAGESIZE))) - 1
        let failed = UnsafeMutableRawPointer(bitPattern: -1)
        while offset < end {
            let windowStart = offset & ~pageMask  // mappings start on a page
            let length = min(end, windowStart + Self.mappedWindow) - windowStart
            guard let window = mmap(nil, length, PROT_READ, Self.mappingFlags, input, off_t(windowStart)), window != failed
            else { break }
            let bytes = UnsafeRawBufferPointer(start: window + (offset - windowStart), count: windowStart + length - offset)
            decoder.feed(bytes) { report in assembly.write(report) }
            munmap(window, length)
            assembly.endOfPiece()
            offset = windowStart + length
        }
        lseek(input, off_t(offset), SEEK_SET)
    }

    /// Why reading stopped early, if it did.
    var readFailure: String? { condition.withLock { failure } }

    /// The decoder's counts over the whole input.
    var statistics: NMEAStatistics { assembly.totals }

    private func work() {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if !assembling, var piece = parsed.removeValue(forKey: nextPieceToAssemble) {
                assembling = true
                condition.unlock()
                assembly.add(piece.sentences, counts: piece.statistics)
                piece.sentences.removeAll(keepingCapacity: true)
                condition.lock()
                spare.append(piece)
                assembling = false
                nextPieceToAssemble += 1
                piecesInFlight -= 1
                condition.broadcast()
            } else if !reading, !endOfInput, piecesInFlight < maximumPiecesInFlight {
                reading = true
                let index = nextPieceToRead
                var piece = spare.popLast() ?? Piece(bytes: .allocate(byteCount: pieceCapacity, alignment: 64))
                condition.unlock()
                let (atEnd, readFailure) = read(into: &piece)
                condition.lock()
                reading = false
                if atEnd {
                    endOfInput = true
                    failure = readFailure
                }
                if piece.count > 0 {
                    nextPieceToRead += 1
                    piecesInFlight += 1
                    condition.broadcast()
                    condition.unlock()
                    piece.statistics = NMEADecoder.parseSentences(
                        in: UnsafeRawBufferPointer(rebasing: piece.bytes[0..<piece.count]),
                        maximumSentenceLength: maximumSentenceLength, into: &piece.sentences)
                    condition.lock()
                    parsed[index] = piece
                } else {
                    spare.append(piece)
                }
                condition.broadcast()
            } else if endOfInput, piecesInFlight == 0, !reading {
                return
            } else {
                condition.wait()
            }
        }
    }

    /// Fills `piece` with the carried-over bytes and new input up to a cut point (all of it at the end
    /// of the input); from a pipe, a piece ends at the first cut point after what one read brought.
    /// Returns whether the input ended, and why if it was an error.
    private func read(into piece: inout Piece) -> (atEnd: Bool, failure: String?) {
        let base = piece.bytes.baseAddress!
        base.copyMemory(from: carry.baseAddress!, byteCount: carryCount)
        var filled = carryCount
        var atEnd = false
        var failure: String?
        while filled < pieceCapacity {
            let count = Foundation.read(input, base + filled, pieceCapacity - filled)
            if count < 0, errno == EINTR { continue }
            if count < 0 { failure = "cannot read \(inputName): \(String(cString: strerror(errno)))" }
            if count <= 0 {
                atEnd = true
                break
            }
            filled += count
            if filled < pieceCapacity, NMEAFramer.cutPoint(in: UnsafeRawBufferPointer(start: base, count: filled)) != nil { break }
        }
        var cut = filled
        if !atEnd, let point = NMEAFramer.cutPoint(in: UnsafeRawBufferPointer(start: base, count: filled)) { cut = point }
        carryCount = filled - cut
        carry.baseAddress!.copyMemory(from: base + cut, byteCount: carryCount)
        piece.count = cut
        return (atEnd, failure)
    }
}

/// The in-order part of decoding: fix assembly, the counts, and JSON out.
private struct Assembly: ~Copyable {
    var assembler = NMEAFixAssembler()
    var totals = NMEAStatistics()
    var output: OutputBuffer
    let skipSky: Bool
    let flushEveryPiece: Bool

    init(output: consuming OutputBuffer, skipSky: Bool, flushEveryPiece: Bool) {
        self.output = output
        self.skipSky = skipSky
        self.flushEveryPiece = flushEveryPiece
    }

    /// Writes one report (unless it is a SKY report and those are left out).
    mutating func write(_ report: NMEAFixAssembler.Report) {
        if skipSky, case .sky = report { return }
        output.write(report)
    }

    /// A piece of input is done: from a pipe, what it gave goes out now.
    mutating func endOfPiece() {
        if flushEveryPiece { output.flush() }
    }

    /// Adds the next piece's sentences and counts.
    mutating func add(_ sentences: [NMEASentence], counts: NMEAStatistics) {
        totals = totals.merging(counts)
        var assembler = NMEAFixAssembler()
        swap(&assembler, &self.assembler)
        let skipSky = skipSky
        for index in sentences.indices {
            assembler.add(sentences[index]) { report in
                if skipSky, case .sky = report { return }
                output.write(report)
            }
        }
        swap(&assembler, &self.assembler)
        if flushEveryPiece { output.flush() }
    }

    /// Writes the last epoch and everything still buffered.
    mutating func finish() {
        let skipSky = skipSky
        var assembler = NMEAFixAssembler()
        swap(&assembler, &self.assembler)
        assembler.finish { report in
            if skipSky, case .sky = report { return }
            output.write(report)
        }
        output.flush()
    }
}
