import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A command running in a real terminal: a detached tmux session on a private server socket (`-L`),
/// so tests type keys into it (`send-keys`) and read its screen (`capture-pane`) as a person would.
/// The pane stays open after the command ends (`remain-on-exit`), so its last screen can still be
/// read; ending the session hangs up on the command (SIGHUP), as closing a terminal does.
final class TmuxSession {
    let socket = "devicesim-test-\(UUID().uuidString.prefix(8))"
    /// The tmux configuration: only `remain-on-exit`.
    private let configuration = FileManager.default.temporaryDirectory.appendingPathComponent("devicesim-tmux-\(UUID().uuidString).conf")

    /// Starts `shellCommand` (run by /bin/sh in `directory`) in a `width` x `height` terminal.
    init(_ shellCommand: String, directory: URL, width: Int = 200, height: Int = 50) throws {
        try "set -g remain-on-exit on\n".write(to: configuration, atomically: true, encoding: .utf8)
        let status = try tmux(["new-session", "-d", "-x", String(width), "-y", String(height), "-c", directory.path, shellCommand])
        guard status == 0 else { throw LiveTestError.exited("tmux new-session") }
    }

    deinit {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(at: configuration)
    }

    /// What the terminal shows now, one string per row, trailing blank rows dropped.
    func screen() -> [String] {
        let rows = (try? output(["capture-pane", "-p", "-t", "0"])) ?? ""
        var lines = rows.components(separatedBy: "\n")
        while let last = lines.last, last.trimmingCharacters(in: .whitespaces).isEmpty { lines.removeLast() }
        return lines
    }

    /// Types `keys` (tmux key names: "1", "C-c").
    func send(_ keys: String...) throws {
        _ = try tmux(["send-keys", "-t", "0"] + keys)
    }

    /// Waits until `condition` holds for the screen, polling; returns that screen or throws with the
    /// last screen seen.
    @discardableResult
    func waitUntil(_ what: String, timeout: TimeInterval = 45, _ condition: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var last: [String] = []
        while Date() < deadline {
            last = screen()
            if condition(last) { return last }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw LiveTestError.timedOut("\(what); the screen was:\n\(last.joined(separator: "\n"))")
    }

    /// Waits until some row contains `text`.
    @discardableResult
    func waitFor(_ text: String, timeout: TimeInterval = 45) throws -> [String] {
        try waitUntil("'\(text)'", timeout: timeout) { $0.contains { $0.contains(text) } }
    }

    private func tmux(_ arguments: [String]) throws -> Int32 {
        try Self.spawn(["-L", socket, "-f", configuration.path] + arguments, output: nil)
    }

    private func output(_ arguments: [String]) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try Self.spawn(["-L", socket, "-f", configuration.path] + arguments, output: file.path)
        return (try? String(contentsOf: file, encoding: .utf8)) ?? ""
    }

    /// Runs tmux with `arguments` and waits for it with waitpid. Not Foundation's `Process`: the
    /// first tmux command forks the tmux server, which outlives it, and `Process` then never saw the
    /// client end (the test hung). Signals the test runner ignores are set back to their defaults,
    /// so the server and the command in the pane can be hung up on and stopped.
    private static func spawn(_ arguments: [String], output: String?) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = (["/usr/bin/tmux"] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGHUP, SIGINT, SIGTERM, SIGQUIT, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/usr/bin/tmux", &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw LiveTestError.exited("tmux (posix_spawn \(spawned))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return (status >> 8) & 0xFF
    }
}
