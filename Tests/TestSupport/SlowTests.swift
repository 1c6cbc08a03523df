import Foundation

/// Whether the slow end-to-end suites run (the browser, gpsd and live-terminal suites and the seed
/// sweeps): with `DEVICESIM_SLOW_TESTS=1`, and on CI (`CI` set) unless `DEVICESIM_SLOW_TESTS=0`.
/// The README's `swift test` leaves them out so that it finishes in minutes; `.ci/run` runs them.
///
/// ```swift
/// @Suite(.enabled(if: SlowTests.run, "slow: DEVICESIM_SLOW_TESTS=1 swift test runs it"))
/// struct ReportBrowserTests { ... }
/// ```
public enum SlowTests {
    /// True when the slow suites run in this test process.
    public static let run: Bool = {
        let environment = ProcessInfo.processInfo.environment
        if let value = environment["DEVICESIM_SLOW_TESTS"] { return value != "0" && !value.isEmpty }
        return environment["CI"] != nil
    }()
}
