import DeviceSim
import Foundation

/// Option values as `devicesim` reads them from its command line: durations (`--duration`), shards
/// (`--shard`), seed lists (`--seeds`), one per line of the input's first three lines.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOptions(_ bytes: UnsafeRawPointer, _ count: Int) -> CInt {
    guard let text = String(validating: UnsafeRawBufferPointer(start: bytes, count: count), as: UTF8.self) else { return 0 }
    let lines = text.split(separator: "\n", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
    if let duration = DurationText.parse(lines[0]) { _ = DurationText.format(duration) }
    if lines.count > 1 { _ = try? Shard(parsing: lines[1]) }
    if lines.count > 2 { _ = try? SeedSelection(parsing: lines[2]) }
    return 0
}
