import Foundation

/// A `devicesim` run whose standard error is read as it comes, each line with the time it arrived
/// (the CLI helper reads its output only at the end).
final class TimedRun: @unchecked Sendable {
    private let process = Process()
    private let lock = NSLock()
    private var lines: [(text: String, arrived: Date)] = []  // guarded by lock
    private var standardOutput = Data()  // written by one reader thread, read after `group.wait`
    private let group = DispatchGroup()
    let started = Date()

    init(_ arguments: [String], executable: URL = CLI.binary) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = CLI.repositoryRoot
        var environment = ProcessInfo.processInfo.environment
        for name in CLI.shardVariables { environment[name] = nil }
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Threads of their own, not Dispatch's global queue (see CLI.Running).
        group.enter()
        Thread.detachNewThread {
            self.standardOutput = out.fileHandleForReading.readDataToEndOfFile()
            self.group.leave()
        }
        group.enter()
        Thread.detachNewThread {
            var pending = Data()
            while true {
                let chunk = err.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending = Data(pending[(newline + 1)...])
                    self.lock.withLock { self.lines.append((line, Date())) }
                }
            }
            self.group.leave()
        }
    }

    /// The lines of standard error so far.
    var standardErrorLines: [String] { lock.withLock { lines.map(\.text) } }

    /// Sends SIGINT (Ctrl-C).
    func interrupt() {
        if process.isRunning { process.interrupt() }
    }

    /// Waits (at most `timeout` seconds, then terminates it) for the process to end.
    func finish(timeout: TimeInterval) throws -> (status: Int32, standardOutput: String, standardError: [(text: String, arrived: Date)]) {
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            throw CLI.CLIError.timedOut(process.arguments ?? [])
        }
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: standardOutput, as: UTF8.self), lock.withLock { lines })
    }
}
