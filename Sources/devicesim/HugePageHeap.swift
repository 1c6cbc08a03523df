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
/// (`/sys/kernel/mm/transparent_hugepage/enabled` is `madvise`), `devicesim run` starts itself
/// once more with the tunable added to `GLIBC_TUNABLES`, before it has done anything. It does
/// not when the tunable is set already (so it happens at most once), when the kernel gives huge
/// pages to everyone or no one, when `DEVICESIM_HUGE_PAGES=0`, or when the restart fails (the run
/// goes on as it is).
enum HugePageHeap {
    /// `DEVICESIM_HUGE_PAGES=0` keeps the heap on ordinary pages.
    static let switchVariable = "DEVICESIM_HUGE_PAGES"
    static let tunable = "glibc.malloc.hugetlb=1"

    /// Restarts the process with huge pages for malloc when that applies (see the type's
    /// description); returns only when it does not restart.
    static func restartIfUseful(environment: [String: String] = ProcessInfo.processInfo.environment) {
        #if os(Linux) && canImport(Glibc)
        guard CommandLine.arguments.dropFirst().first == "run",
              let tunables = tunablesForRestart(environment: environment, kernelSetting: kernelSetting()) else { return }
        setenv("GLIBC_TUNABLES", tunables, 1)
        execv("/proc/self/exe", CommandLine.unsafeArgv)
        // Still here: the restart failed; go on as before.
        if let previous = environment["GLIBC_TUNABLES"] { setenv("GLIBC_TUNABLES", previous, 1) } else { unsetenv("GLIBC_TUNABLES") }
        #endif
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
