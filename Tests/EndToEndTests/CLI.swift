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
    static let binary: URL = {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for folder in [besideTests, besideTests.deletingLastPathComponent(), repositoryRoot.appendingPathComponent(".build/debug")] {
            let candidate = folder.appendingPathComponent("devicesim")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return repositoryRoot.appendingPathComponent(".build/debug/devicesim")
    }()

    /// Runs `devicesim arguments…` in the repository root, with at most `timeout` seconds; `input`, if
    /// given, is written to its standard input in pieces of `inputPieceSize` bytes.
    static func run(_ arguments: [String], input: Data? = nil, inputPieceSize: Int = 4_096, timeout: TimeInterval = 120) throws -> Output {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = repositoryRoot
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let inputPipe = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
        try process.run()
        let group = DispatchGroup()
        if let input {
            group.enter()
            DispatchQueue.global().async {
                var offset = 0
                while offset < input.count {
                    let end = min(input.count, offset + inputPieceSize)
                    inputPipe.fileHandleForWriting.write(input[offset..<end])
                    offset = end
                }
                try? inputPipe.fileHandleForWriting.close()
                group.leave()
            }
        }
        nonisolated(unsafe) var outData = Data(), errData = Data()
        group.enter()
        DispatchQueue.global().async { outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        group.enter()
        DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            throw CLIError.timedOut(arguments)
        }
        process.waitUntilExit()
        return Output(status: process.terminationStatus, standardOutput: String(decoding: outData, as: UTF8.self), standardError: String(decoding: errData, as: UTF8.self))
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
