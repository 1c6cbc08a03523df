import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A test that never ends: run only in the child processes of ``OrphanedTestProcessTests``
/// (`DEVICESIM_ORPHAN_CASE=1`), as a deadlocked test would be.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["DEVICESIM_ORPHAN_CASE"] == "1"))
struct OrphanedTestProcessCase {
    @Test func neverEnds() {
        DispatchSemaphore(value: 0).wait()
    }
}

/// A test process must not outlive `swift test` (issue 45: a deadlocked test process lived on after the
/// runner was killed). DeviceSimTesting links a guard (CTestProcessGuard) that ends a test process
/// whose parent was `swift-test` or `swift-build` once that parent is gone. Checked with this test binary
/// run as a child of a shell named `swift-test`, running a test that never ends: the shell is killed, and
/// the child must end too; a shell with another name is the control (its child is not watched).
#if os(Linux)
@Suite(.serialized) struct OrphanedTestProcessTests {
    /// How long the child may take to notice (it checks twice a second; the machine may be busy).
    static let bound: TimeInterval = 20

    /// A shell named `name` that starts this test binary on the never-ending case and waits for it: the
    /// shell, the child's id, and the file with the child's output.
    struct Family {
        let shell: Process
        let child: pid_t
        let output: URL
        let directory: URL

        /// Kills the shell (ours, by its id) and waits until it has ended. (Not `waitUntilExit()`:
        /// Foundation sees a process end when a socket it shares with it closes, and the child keeps
        /// that socket open.)
        func killShell() throws {
            kill(shell.processIdentifier, SIGKILL)
            _ = try OrphanedTestProcessTests.waitFor("the shell to end") { OrphanedTestProcessTests.isRunning(shell.processIdentifier) ? nil : true }
        }
    }

    static func start(parentNamed name: String) throws -> Family {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("orphan-\(getpid())-\(name)")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let shellPath = directory.appendingPathComponent(name).path
        try FileManager.default.createSymbolicLink(atPath: shellPath, withDestinationPath: "/bin/sh")
        let pidFile = directory.appendingPathComponent("child.pid")
        let output = directory.appendingPathComponent("child.txt")
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: shellPath)
        shell.arguments = [
            "-c", #""$1" --testing-library swift-testing --filter OrphanedTestProcessCase >"$2" 2>&1 & echo $! >"$3"; wait"#,
            name, CommandLine.arguments[0], output.path, pidFile.path,
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["DEVICESIM_ORPHAN_CASE"] = "1"
        shell.environment = environment
        try shell.run()
        let child = try waitFor("the child's id") {
            (try? String(contentsOf: pidFile, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        _ = try waitFor("the never-ending test to start") {
            (try? String(contentsOf: output, encoding: .utf8))?.contains("neverEnds() started") == true ? true : nil
        }
        return Family(shell: shell, child: child, output: output, directory: directory)
    }

    /// Polls `value` every 50 ms until it is not nil, for at most ``bound``.
    static func waitFor<Value>(_ what: String, _ value: () -> Value?) throws -> Value {
        let deadline = Date().addingTimeInterval(bound)
        while Date() < deadline {
            if let value = value() { return value }
            usleep(50_000)
        }
        throw WaitTimedOut(what: what)
    }

    struct WaitTimedOut: Error, CustomStringConvertible {
        let what: String
        var description: String { "gave up waiting for \(what) after \(OrphanedTestProcessTests.bound) s" }
    }

    /// Whether `pid` still runs (a zombie waiting for its parent to reap it has ended).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ", options: .backwards) else { return false }
        return stat[afterName.upperBound...].first != "Z"
    }

    @Test func aTestProcessEndsWhenSwiftTestIsKilled() throws {
        let family = try Self.start(parentNamed: "swift-test")
        defer { try? FileManager.default.removeItem(at: family.directory) }
        defer { if Self.isRunning(family.child) { kill(family.child, SIGKILL) } }     // ours, by its id
        #expect(Self.isRunning(family.child))
        try family.killShell()                                                        // the "runner" dies
        let ended = (try? Self.waitFor("the child to end") { Self.isRunning(family.child) ? nil : true }) ?? false
        #expect(ended, "the test process \(family.child) outlived its runner")
        let text = (try? String(contentsOf: family.output, encoding: .utf8)) ?? ""
        #expect(text.contains("DeviceSim: the test runner (pid \(family.shell.processIdentifier)) has ended"))
    }

    /// The control: under a parent that is not a SwiftPM runner the guard is off, so the same child
    /// lives on when its parent is killed (this test then ends it).
    @Test func aProcessStartedByAnythingElseIsNotWatched() throws {
        let family = try Self.start(parentNamed: "not-a-runner")
        defer { try? FileManager.default.removeItem(at: family.directory) }
        defer { if Self.isRunning(family.child) { kill(family.child, SIGKILL) } }     // ours, by its id
        try family.killShell()
        usleep(1_500_000)                                                             // three of the guard's checks
        #expect(Self.isRunning(family.child))
    }
}
#endif
