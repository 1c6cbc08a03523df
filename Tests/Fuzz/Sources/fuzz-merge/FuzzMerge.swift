import DeviceSimCLI
import Foundation

/// `devicesim merge` of an arbitrary results file (seeded with real ones): the bytes are the one shard
/// merged, its merged JUnit and results written beside it. Merge must end in an exit code (0 merged and
/// passed, 1 a run failed or is missing, 2 refused with a message), never in a signal.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMerge(_ bytes: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = MergeSandbox.folder + "/shard.jsonl"
    FileManager.default.createFile(atPath: input, contents: Data(bytes: bytes, count: count))
    let status = DeviceSimCommandLine.run(arguments: [
        "merge", input, "--junit", MergeSandbox.folder + "/out/junit.xml", "--results", MergeSandbox.folder + "/out/merged.jsonl",
        "--quiet", "--color", "never",
    ])
    guard (0...2).contains(status) else { fatalError("merge exited \(status): only 0, 1 and 2 are documented") }
    return 0
}

/// A folder of this process's own for the shard and the outputs.
enum MergeSandbox {
    static let folder: String = {
        let path = NSTemporaryDirectory() + "fuzz-merge-\(ProcessInfo.processInfo.processIdentifier)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        // Removed when the fuzzer exits (libFuzzer calls `exit` at the end of its time or runs).
        atexit { try? FileManager.default.removeItem(atPath: MergeSandbox.folder) }
        return path
    }()
}
