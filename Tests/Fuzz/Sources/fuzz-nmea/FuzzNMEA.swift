import DeviceSim

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNMEA(_ bytes: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: bytes, count: count)
    // The first byte picks the sentence limit and the size of the pieces the bytes arrive in.
    let first = Int(input.first ?? 0)
    var decoder = NMEADecoder(maximumSentenceLength: 16 + first * 2)
    let piece = 1 + first % 97
    var offset = 0
    while offset < count {
        let end = min(count, offset + piece)
        decoder.feed(UnsafeRawBufferPointer(rebasing: input[offset..<end])) { _ in }
        offset = end
    }
    let statistics = decoder.statistics
    // Every byte is accounted for: in a sentence, skipped, or still pending.
    precondition(statistics.sentenceBytes + statistics.skippedBytes + statistics.pendingBytes == statistics.bytesRead)
    return 0
}
