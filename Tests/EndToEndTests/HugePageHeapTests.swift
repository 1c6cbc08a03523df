import Foundation
import Testing

/// `devicesim run` of a fleet restarts itself once with glibc's malloc on transparent huge pages when
/// the kernel offers them on request (Linux only; see docs/command-line.md, "Huge pages for fleets").
@Suite struct HugePageHeapTests {
    static let kernelSetting = try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8)

    /// What the running process `pid` shows: whether a mapping of its was advised to use huge pages
    /// (`hg` among its VmFlags: glibc's malloc does that with the tunable), and the environment
    /// its program started with (glibc splits `GLIBC_TUNABLES` there in place, at each `:`).
    func look(at pid: Int32) -> (hugePagesAdvised: Bool, environment: String) {
        let smaps = FileManager.default.contents(atPath: "/proc/\(pid)/smaps").map { String(decoding: $0, as: UTF8.self) } ?? ""
        let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ").map { String(decoding: $0, as: UTF8.self) } ?? ""
        let advised = smaps.split(separator: "\n").contains { $0.hasPrefix("VmFlags:") && $0.split(separator: " ").contains("hg") }
        return (advised, environment)
    }

    /// Starts a run long enough to look at (`devices` devices with GPS for a day; 100 or more make
    /// it a fleet), looks at the process until it has a mapping advised to use huge pages or
    /// `patience` seconds pass, and stops it.
    func lookAtARun(devices: Int = 500, environment: [String: String], patience: TimeInterval) throws -> (hugePagesAdvised: Bool, environment: String) {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("long.yaml")
        try """
            name: long enough to look at
            world: \(CLI.repositoryRoot.path)/Simulator/worlds/campus.yaml
            duration: 24h
            devices:
              - { id: d, count: \(devices), at: library }
            """.write(to: scenario, atomically: true, encoding: .utf8)
        let running = try CLI.start(["run", "-q", scenario.path], environment: environment)
        defer {
            // SIGKILL: the test runner may start processes with SIGTERM blocked.
            kill(running.process.processIdentifier, SIGKILL)
            _ = try? running.finish(timeout: 30)
        }
        let deadline = Date().addingTimeInterval(patience)
        var seen = (hugePagesAdvised: false, environment: "")
        repeat {
            Thread.sleep(forTimeInterval: 0.1)
            seen = look(at: running.process.processIdentifier)
        } while !seen.hugePagesAdvised && Date() < deadline && running.process.isRunning
        return seen
    }

    @Test(.enabled(if: kernelSetting?.contains("[madvise]") == true, "the kernel gives huge pages on request only with `madvise`"))
    func runRestartsWithHugePagesAndKeepsTheTunablesItWasGiven() throws {
        let seen = try lookAtARun(environment: ["GLIBC_TUNABLES": "glibc.malloc.arena_max=4"], patience: 20)
        #expect(seen.hugePagesAdvised)
        #expect(seen.environment.contains("GLIBC_TUNABLES=glibc.malloc.arena_max=4\0glibc.malloc.hugetlb=1\0"))
    }

    @Test(.enabled(if: kernelSetting?.contains("[madvise]") == true, "the kernel gives huge pages on request only with `madvise`"))
    func aSmallRunKeepsOrdinaryPagesUnlessTheSwitchAsks() throws {
        let small = try lookAtARun(devices: 20, environment: ["GLIBC_TUNABLES": "glibc.malloc.arena_max=4"], patience: 3)
        #expect(!small.hugePagesAdvised)
        #expect(!small.environment.contains("hugetlb"))
        let forced = try lookAtARun(devices: 20, environment: ["DEVICESIM_HUGE_PAGES": "1"], patience: 20)
        #expect(forced.hugePagesAdvised)
        #expect(forced.environment.contains("GLIBC_TUNABLES=glibc.malloc.hugetlb=1\0"))
    }

    @Test(.enabled(if: kernelSetting?.contains("[madvise]") == true, "the kernel gives huge pages on request only with `madvise`"))
    func theSwitchKeepsOrdinaryPages() throws {
        let seen = try lookAtARun(environment: ["DEVICESIM_HUGE_PAGES": "0", "GLIBC_TUNABLES": "glibc.malloc.arena_max=4"], patience: 3)
        #expect(!seen.hugePagesAdvised)
        #expect(seen.environment.contains("GLIBC_TUNABLES=glibc.malloc.arena_max=4\0"))
        #expect(!seen.environment.contains("hugetlb"))
    }
}
