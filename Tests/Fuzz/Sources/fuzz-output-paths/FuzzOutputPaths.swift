import DeviceSimCLI
import Foundation

/// `devicesim merge`'s output paths (`--junit`, `--results`, the same checks as run's `--report`,
/// `--trace`): the input's first two lines are the two paths, tried inside a sandbox folder that holds
/// the results file merged (`in.jsonl`), a link to it (`in-link`), a dangling link (`dangling`, to
/// `gone/file`), a link to the folder itself (`here`) and a folder (`sub`). Paths that leave the sandbox
/// (absolute, or with a `..` component) are skipped, except `/dev/null`, `/dev/full`, `/dev/stdout` and
/// `/dev/stderr`. Merge must end in 0, 1 or 2, never a signal, and the results file merged must be
/// unchanged whatever the outputs are (an output that is an input is refused before anything is written).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOutputPaths(_ bytes: UnsafeRawPointer, _ count: Int) -> CInt {
    guard let text = String(validating: UnsafeRawBufferPointer(start: bytes, count: count), as: UTF8.self) else { return 0 }
    let lines = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
    let devices: Set<String> = ["/dev/null", "/dev/full", "/dev/stdout", "/dev/stderr"]
    let paths = lines.prefix(2)
    for path in paths where !devices.contains(path) {
        if path.hasPrefix("/") || path.hasPrefix("~") || path.split(separator: "/").contains("..") { return 0 }
    }
    let sandbox = OutputSandbox.reset()
    var arguments = ["merge", "in.jsonl", "--quiet", "--color", "never"]
    if let junit = paths.first { arguments += ["--junit", junit] }
    if paths.count > 1 { arguments += ["--results", paths[paths.index(after: paths.startIndex)]] }
    let status = DeviceSimCommandLine.run(arguments: arguments)
    guard (0...2).contains(status) else { fatalError("merge exited \(status): only 0, 1 and 2 are documented") }
    guard FileManager.default.contents(atPath: sandbox + "/in.jsonl") == OutputSandbox.results else {
        fatalError("merge \(arguments) changed its input in.jsonl")
    }
    return 0
}

enum OutputSandbox {
    /// A one-scenario results file (`devicesim run Scenarios/dog-walk/01-starting-the-app.yaml --results`).
    static let results = Data("""
        {"format":"devicesim-results/1","planSize":1,"scenarios":"1 file, fnv1a a72204fc2b76e652"}
        {"expectations":3,"failures":[],"name":"01-starting-the-app.yaml","passed":true,"path":"Scenarios/dog-walk/01-starting-the-app.yaml","position":0,"seed":1,"swept":false,"title":"01 starting the app","virtualSeconds":10,"wallSeconds":0.01}

        """.utf8)

    static let folder: String = NSTemporaryDirectory() + "fuzz-output-paths-\(ProcessInfo.processInfo.processIdentifier)"

    /// Removes the sandbox when the fuzzer exits (libFuzzer calls `exit` at the end of its time or
    /// runs): each process's folder is its own, so none is left behind in the temporary folder.
    private static let removedAtExit: Void = {
        atexit { try? FileManager.default.removeItem(atPath: OutputSandbox.folder) }
    }()

    /// Empties the sandbox, puts back its files and links, and makes it the current folder.
    static func reset() -> String {
        _ = removedAtExit
        let files = FileManager.default
        if files.fileExists(atPath: folder) {
            // Make every folder writable again first (an input may not make one read-only, but be sure).
            try? files.removeItem(atPath: folder)
        }
        try? files.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        files.createFile(atPath: folder + "/in.jsonl", contents: results)
        try? files.createSymbolicLink(atPath: folder + "/in-link", withDestinationPath: "in.jsonl")
        try? files.createSymbolicLink(atPath: folder + "/dangling", withDestinationPath: "gone/file")
        try? files.createSymbolicLink(atPath: folder + "/here", withDestinationPath: ".")
        _ = files.changeCurrentDirectoryPath(folder)
        return folder
    }
}
