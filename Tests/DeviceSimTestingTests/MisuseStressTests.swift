import DeviceSimTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The six misuses of ``MisuseCaseTests`` run 20 times in parallel, each run a process of its own (this
/// test binary again, filtered to them): every run must end before its deadline, each of the six tests
/// failing with the message that names its cause, and no process may be left behind (issue 45: a hang
/// outlived `swift test`).
@Suite(.serialized, .enabled(if: SlowTests.run, "slow: DEVICESIM_SLOW_TESTS=1 swift test (or .ci/run) runs it"))
struct MisuseStressTests {
    static let runs = 20
    /// Each run's deadline, from the start of all 20 on two shared cores (a run takes about a second alone).
    static let deadline: TimeInterval = 180

    /// One child run: the process, and the file its output goes to.
    struct Run {
        let process: Process
        let output: URL
        let exited = DispatchSemaphore(value: 0)
    }

    @Test func everyMisuseEndsInTimeWithItsCauseTwentyRunsInParallel() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("misuse-stress-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var runs: [Run] = []
        for index in 0..<Self.runs {
            let output = directory.appendingPathComponent("run-\(index).txt")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            process.arguments = ["--testing-library", "swift-testing", "--filter", "MisuseCaseTests"]
            process.environment = ProcessInfo.processInfo.environment.merging([MisuseCases.variable: "1"]) { $1 }
            let handle = try FileHandle(forWritingTo: output)
            process.standardOutput = handle
            process.standardError = handle
            let run = Run(process: process, output: output)
            process.terminationHandler = { _ in run.exited.signal() }
            try process.run()
            runs.append(run)
        }
        let start = Date()
        var late: [Int] = []
        for (index, run) in runs.enumerated() {
            let remaining = max(0, Self.deadline - Date().timeIntervalSince(start))
            if run.exited.wait(timeout: .now() + remaining) == .timedOut {
                late.append(index)
                kill(run.process.processIdentifier, SIGKILL)      // ours, by its id
                run.exited.wait()
            }
        }
        #expect(late.isEmpty, "runs \(late) did not end within \(Self.deadline) s")
        for (index, run) in runs.enumerated() {
            let text = (try? String(contentsOf: run.output, encoding: .utf8)) ?? ""
            #expect(run.process.terminationReason == .exit, "run \(index) was killed")
            #expect(text.contains("Test run with 6 tests"), "run \(index) did not run the six cases:\n\(text.suffix(2_000))")
            #expect(text.contains("Test \(MisuseCases.expectedToPass) passed"), "run \(index): \(MisuseCases.expectedToPass) did not pass:\n\(Self.issues(of: MisuseCases.expectedToPass, in: text))")
            for expected in MisuseCases.expectedFailures {
                let report = Self.issues(of: expected.test, in: text)
                #expect(report.contains(expected.cause), "run \(index), \(expected.test): expected \"\(expected.cause)\" in:\n\(report.isEmpty ? String(text.suffix(2_000)) : report)")
            }
        }
        // No process is left behind: none in the system still carries the children's marker variable.
        #expect(Self.processesCarrying(MisuseCases.variable) == [])
    }

    /// What the issues recorded by `test` say: each report from "Test <test> recorded an issue" to the
    /// next line that starts with one of Swift Testing's symbols.
    static func issues(of test: String, in text: String) -> String {
        var report: [Substring] = []
        var inside = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.contains("Test \(test) recorded an issue") {
                inside = true
            } else if let first = line.first, "✘✔◇↳􀢄".contains(first) || line.hasPrefix("Test ") {
                inside = false
            }
            if inside { report.append(line) }
        }
        return report.joined(separator: "\n")
    }

    /// The ids of live processes whose environment has `variable` set (read from /proc).
    static func processesCarrying(_ variable: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
            return environment.split(separator: 0).contains { $0.starts(with: Array("\(variable)=".utf8)) }
        }.sorted()
    }
}
