import Foundation

/// Runs the built `devicesim` binary and captures what it prints.
struct CLI {
    struct Output {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// The repository's root folder.
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `devicesim` binary that `swift test` built next to the test bundle.
    static let binary = builtExecutable(named: "devicesim")

    /// The executable `name` that `swift test` built next to the test bundle (`cafe-devicesim`, a
    /// developer's own devicesim).
    static func builtExecutable(named name: String) -> URL {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for folder in [besideTests, besideTests.deletingLastPathComponent(), repositoryRoot.appendingPathComponent(".build/debug")] {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return repositoryRoot.appendingPathComponent(".build/debug/\(name)")
    }

    /// Runs `devicesim arguments…` in the repository root, with at most `timeout` seconds; `input`, if
    /// given, is written to its standard input in pieces of `inputPieceSize` bytes. `environment` adds
    /// to (or replaces) the test's own variables.
    static func run(_ arguments: [String], input: Data? = nil, inputPieceSize: Int = 4_096, environment: [String: String] = [:], timeout: TimeInterval = 120, executable: URL = binary, in folder: URL = repositoryRoot) throws -> Output {
        try start(arguments, input: input, inputPieceSize: inputPieceSize, environment: environment, executable: executable, in: folder).finish(timeout: timeout)
    }

    /// The job engines' shard variables, which `devicesim run` obeys: never passed on from the
    /// environment the tests run in (a CI job of its own may set them).
    static let shardVariables = [
        "TEST_SHARD_INDEX", "TEST_TOTAL_SHARDS", "TEST_SHARD_STATUS_FILE", "JOB_COMPLETION_INDEX", "DEVICESIM_SHARD_COUNT",
        "CI_NODE_INDEX", "CI_NODE_TOTAL", "BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT",
    ]

    /// A `devicesim` process that is running; ``finish(timeout:)`` waits for it and collects its output.
    final class Running: @unchecked Sendable {
        let arguments: [String]
        let process: Process
        private let group = DispatchGroup()
        private var outData = Data()   // written by one reader thread, read after group.wait
        private var errData = Data()

        init(arguments: [String], process: Process, out: Pipe, err: Pipe) {
            self.arguments = arguments
            self.process = process
            // Threads of their own, not Dispatch's global queue: while tests side by side hold every thread of
            // that pool, a reader would not start, and the process would block on a full pipe.
            group.enter()
            Thread.detachNewThread { self.outData = out.fileHandleForReading.readDataToEndOfFile(); self.group.leave() }
            group.enter()
            Thread.detachNewThread { self.errData = err.fileHandleForReading.readDataToEndOfFile(); self.group.leave() }
        }

        func finish(timeout: TimeInterval = 120) throws -> Output {
            if group.wait(timeout: .now() + timeout) == .timedOut {
                process.terminate()
                throw CLIError.timedOut(arguments)
            }
            process.waitUntilExit()
            return Output(status: process.terminationStatus, standardOutput: String(decoding: outData, as: UTF8.self), standardError: String(decoding: errData, as: UTF8.self))
        }
    }

    /// Starts `devicesim arguments…` in `folder` (the repository's root unless given) without waiting for it.
    static func start(_ arguments: [String], input: Data? = nil, inputPieceSize: Int = 4_096, environment extra: [String: String] = [:], executable: URL = binary, in folder: URL = repositoryRoot) throws -> Running {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        for name in shardVariables { environment[name] = nil }
        environment["NO_COLOR"] = "1"
        environment.merge(extra) { _, new in new }
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let inputPipe = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
        try process.run()
        if let input {
            Thread.detachNewThread {
                var offset = 0
                while offset < input.count {
                    let end = min(input.count, offset + inputPieceSize)
                    inputPipe.fileHandleForWriting.write(input[offset..<end])
                    offset = end
                }
                try? inputPipe.fileHandleForWriting.close()
            }
        }
        return Running(arguments: arguments, process: process, out: out, err: err)
    }

    enum CLIError: Error {
        case timedOut([String])
    }

    /// A fresh temporary folder.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("devicesim-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
