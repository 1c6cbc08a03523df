import DeviceSim
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrace(_ bytes: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    // The report's reader of a trace (JSON Lines, cut short or not).
    _ = TraceFileReader.reading(data, file: "fuzz.jsonl")
    // merge's records: one JSON object a line.
    for line in data.split(separator: UInt8(ascii: "\n")) {
        _ = try? JSONDecoder().decode(RunRecord.self, from: Data(line))
    }
    return 0
}
