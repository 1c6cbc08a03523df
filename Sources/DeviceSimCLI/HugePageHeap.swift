import DeviceSimScenario
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Transparent huge pages for the heap of `devicesim run`, on Linux with glibc.
///
/// A fleet keeps its devices' state in millions of small objects spread over hundreds of
/// megabytes. With 4 KB pages the processor's address-translation cache covers a few megabytes of
/// that, so nearly every object a tick touches costs a page walk as well as a cache miss; with
/// 2 MB pages it covers all of it (10,000 devices x 1 h: about a fifth faster).
///
/// glibc's malloc asks for huge pages only when its `glibc.malloc.hugetlb=1` tunable is set, and
/// reads tunables when the process starts. So when the kernel gives huge pages to those who ask
/// (`/sys/kernel/mm/transparent_hugepage/enabled` is `madvise`) and the run is a fleet,
/// `devicesim run` starts itself once more with the tunable added to `GLIBC_TUNABLES`, once it has
/// found its scenario files and before it has written or run anything. A fleet: a scenario file of
/// ``fleetFileSize`` or more (several hundred devices listed one by one), or, in a run of at most
/// ``filesReadForCounts`` files, a device `count:` of ``fleetDeviceCount`` or more. A restart costs
/// about 10 ms (the program is loaded again), which a run of small scenarios does not win back.
///
/// It does not restart when the tunable is set already (so it happens at most once), when the
/// kernel gives huge pages to everyone or no one, when `DEVICESIM_HUGE_PAGES=0`, or when the
/// restart fails (the run goes on as it is); `DEVICESIM_HUGE_PAGES=1` restarts whatever the run.
enum HugePageHeap {
    /// `DEVICESIM_HUGE_PAGES=0` keeps the heap on ordinary pages; `=1` uses huge pages for any run.
    static let switchVariable = "DEVICESIM_HUGE_PAGES"
    static let tunable = "glibc.malloc.hugetlb=1"
    /// A scenario file at least this large makes a run a fleet.
    static let fleetFileSize = 64 << 10
    /// A device `count:` at least this large makes a run a fleet.
    static let fleetDeviceCount = 100
    /// Scenario files are read for their `count:`s only in a run of at most this many.
    static let filesReadForCounts = 8

    /// Restarts the process with huge pages for malloc when that applies (see the type's
    /// description) to a run of `scenarioFiles`; returns only when it does not restart.
    static func restartIfUseful(scenarioFiles: [String], environment: [String: String] = ProcessInfo.processInfo.environment) {
        #if os(Linux) && canImport(Glibc)
        guard let tunables = tunablesForRestart(environment: environment, kernelSetting: kernelSetting()),
              forced(environment) || isFleet(scenarioFiles) else { return }
        setenv("GLIBC_TUNABLES", tunables, 1)
        execv("/proc/self/exe", CommandLine.unsafeArgv)
        // Still here: the restart failed; go on as before.
        if let previous = environment["GLIBC_TUNABLES"] { setenv("GLIBC_TUNABLES", previous, 1) } else { unsetenv("GLIBC_TUNABLES") }
        #endif
    }

    /// Whether `DEVICESIM_HUGE_PAGES` asks for huge pages whatever the run.
    static func forced(_ environment: [String: String]) -> Bool {
        environment[switchVariable].map { ["1", "on", "true", "yes"].contains($0.lowercased()) } ?? false
    }

    /// Whether a run of `files` is a fleet (see the type's description).
    static func isFleet(_ files: [String]) -> Bool {
        let files = Array(Set(files))
        let sizes = files.map { FileBytes.status(atPath: $0)?.size ?? 0 }
        if sizes.contains(where: { $0 >= fleetFileSize }) { return true }
        guard files.count <= filesReadForCounts else { return false }
        return files.contains { file in
            guard let bytes = FileBytes.contents(atPath: file), let text = String(validating: bytes, as: UTF8.self) else { return false }
            return largestDeviceCount(in: text) >= fleetDeviceCount
        }
    }

    /// The largest number after a `count:` key in `text` (0 when there is none).
    static func largestDeviceCount(in text: String) -> Int {
        var largest = 0
        var rest = text[...]
        while let key = rest.range(of: "count:") {
            let digits = rest[key.upperBound...].drop { $0 == " " }.prefix { $0.isASCII && $0.isNumber }
            largest = max(largest, Int(digits.prefix(9)) ?? 0)
            rest = rest[key.upperBound...]
        }
        return largest
    }

    /// The `GLIBC_TUNABLES` to restart with, or nil when a restart would change nothing or is
    /// switched off. `kernelSetting` is the content of the kernel's
    /// `transparent_hugepage/enabled` (`always [madvise] never`), nil when unknown.
    static func tunablesForRestart(environment: [String: String], kernelSetting: String?) -> String? {
        if let value = environment[switchVariable], ["0", "off", "false", "no"].contains(value.lowercased()) { return nil }
        guard let kernelSetting, kernelSetting.contains("[madvise]") else { return nil }
        let current = environment["GLIBC_TUNABLES"] ?? ""
        guard !current.contains("glibc.malloc.hugetlb") else { return nil }
        return current.isEmpty ? tunable : current + ":" + tunable
    }

    private static func kernelSetting() -> String? {
        try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8)
    }
}
