// swift-tools-version: 6.1
import PackageDescription
import Foundation

#if os(Linux)
let cgpsTarget: Target = .target(name: "CGPS")
#else
let cgpsTarget: Target = .systemLibrary(name: "CGPS", path: "Sources/CGPSLinked", pkgConfig: "libgps", providers: [.brew(["gpsd"])])
#endif

/// How `devicesim` is linked in a release build on Linux (its target says why).
let staticReleaseLinkerFlags: [String] = {
    let watchedDispatchFunctions = ["dispatch_after_f", "dispatch_source_set_timer", "dispatch_async_f", "dispatch_async"]
    let archives = [
        "CoreFoundation", "_FoundationICU", "_FoundationCShims", "_FoundationCollections", "Foundation", "FoundationEssentials",
        "FoundationInternationalization", "swiftDispatch", "dispatch", "BlocksRuntime", "swiftSynchronization", "swift_Concurrency",
        "swiftCore", "stdc++",
    ]
    return ["-static-stdlib", "-Xclang-linker", "-no-pie"]
        + watchedDispatchFunctions.flatMap { ["-Xlinker", "--wrap=\($0)"] }
        + ["-Xlinker", "--start-group"] + archives.flatMap { ["-Xlinker", "-l\($0)"] } + ["-Xlinker", "--end-group"]
}()

let package = Package(
    name: "DeviceSim",
    // The floors are what the code really needs: `Synchronization.Mutex` and task executor preference
    // (SE-0417, `TaskExecutor`) arrived in macOS 15, iOS 18, tvOS 18, watchOS 11 and visionOS 2.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        // For app targets: the HAL's protocols and values and the clock's values and protocols, nothing
        // outside the Swift toolchain (no Yams, no scenario runner, no simulated drivers, no scheduler).
        .library(name: "DeviceSimCore", targets: ["DeviceSimCore"]),
        // For test targets and tools: everything (simulated drivers, scenarios, backend, apps).
        .library(name: "DeviceSim", targets: ["DeviceSim"]),
        .library(name: "DeviceSimTesting", targets: ["DeviceSimTesting"]),
        .library(name: "DeviceSimCoreBluetooth", targets: ["DeviceSimCoreBluetooth"]),
        .library(name: "DeviceSimGPSD", targets: ["DeviceSimGPSD"]),
        .library(name: "DeviceSimRoads", targets: ["DeviceSimRoads"]),
        // The whole `devicesim` command line as a library: a package's own executable calls
        // `DeviceSimCommandLine.main(apps:)` to get every subcommand with its apps registered.
        .library(name: "DeviceSimCLI", targets: ["DeviceSimCLI"]),
        // Apple's CoreLocation API over the simulated phone, for app code written against CoreLocation.
        .library(name: "DeviceSimCoreLocation", targets: ["DeviceSimCoreLocation"]),
        .executable(name: "devicesim", targets: ["devicesim"]),
        // For app targets: Network's NWPathMonitor over the simulated phone's connectivity.
        .library(name: "DeviceSimNetwork", targets: ["DeviceSimNetwork"]),
        // For app targets: UserNotifications' UNUserNotificationCenter over the simulated phone.
        .library(name: "DeviceSimUserNotifications", targets: ["DeviceSimUserNotifications"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // Tests only: property-based tests (scoreboards against a brute force).
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        // Tests only: DeviceSim beside swift-concurrency-extras' withMainSerialExecutor in one process.
        .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.4.3"),
    ],
    targets: [
        // Virtual time as app code sees it (values and protocols only): VirtualInstant, VirtualClock, and the
        // DeviceScheduling and SimulationExecuting protocols that the engine below implements.
        .target(name: "DeviceSimClock"),
        // The engine of virtual time, for tests, the runner and the CLI (never app targets): the discrete-event
        // scheduler, the simulation executor, the wall-clock driver, seeded randomness; `Device.scheduler`.
        .target(name: "DeviceSimTime", dependencies: ["CPrefetch", "DeviceSimClock", "DeviceSimHAL"]),
        // What reaches below the language, for tests, the runner and the CLI (never app targets): the Swift
        // runtime's enqueue hooks looked up by name, and the Dispatch timer watch that reports real-clock sleeps.
        .target(name: "DeviceSimRuntimeHooks", dependencies: ["DeviceSimTime", "CRealClockWatch"]),
        // Sees the Dispatch timers the process arms (Task.sleep, ContinuousClock, asyncAfter), so that a
        // sleep on a real clock in a simulation is reported (interposes dispatch_after_f in the executable).
        .target(name: "CRealClockWatch"),
        // The processor's prefetch hint (one static inline C function), for the scheduler's tick lanes.
        .target(name: "CPrefetch"),
        // The hardware abstraction layer: the device's protocols and values (location, Wi-Fi, beacons,
        // geofences, connectivity, notifications and prompts, local storage, accounts on the device,
        // civil time, the trace). No app's types.
        .target(name: "DeviceSimHAL", dependencies: ["DeviceSimClock"]),
        // `import DeviceSimCore`: the HAL and the clock's values and protocols for app targets (no
        // third-party dependency, no scheduler).
        .target(name: "DeviceSimCore", dependencies: ["DeviceSimHAL", "DeviceSimClock"]),
        .target(name: "DeviceSimCoreBluetooth", dependencies: ["DeviceSimHAL", .product(name: "Logging", package: "swift-log")]),
        // NMEA 0183 framing, parsing and fix assembly (no dependencies: bytes in, values out).
        .target(name: "DeviceSimNMEA"),
        // zlib (Debian's zlib1g-dev), for OSM PBF blocks.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Roads from OpenStreetMap PBF extracts: road graphs per travel mode, places, fastest routes.
        .target(name: "DeviceSimRoads", dependencies: ["CZlib", "DeviceSimHAL"]),
        // Simulated drivers: motion along routes, simulated GPS, NMEA/GPX playback, radios, world.
        .target(name: "DeviceSimSimulated", dependencies: ["DeviceSimHAL", "DeviceSimNMEA", "DeviceSimTime", "DeviceSimRoads"]),
        // libgps: on Linux its types (its header, Debian's libgps-dev) and its decoder loaded with dlopen at
        // the first live gpsd connection, so that an executable linking the driver does not load libgps and
        // its D-Bus, systemd and libgcrypt at every start (docs/benchmarks.md, the cold-start row); elsewhere
        // (Homebrew's gpsd, whose header only pkg-config finds) linked, through the same functions.
        cgpsTarget,
        // The live GPS driver over gpsd, and recording.
        .target(
            name: "DeviceSimGPSD",
            dependencies: ["CGPS", "DeviceSimHAL", "DeviceSimTime", .product(name: "Logging", package: "swift-log")]
        ),
        // SQLite's C API (Debian's libsqlite3-dev) for the devices' local databases.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // A folder of files in memory with an SQLite VFS of its own, for the devices' databases of a run.
        .target(name: "CSQLiteMemoryFiles", dependencies: ["CSQLite"]),
        // The devices' local databases on disk (a generic SQLite layer), with injectable storage faults.
        .target(name: "DeviceSimStorage", dependencies: ["CSQLite", "CSQLiteMemoryFiles", "DeviceSimHAL", "DeviceSimTime"]),
        // What every simulated app server shares: a device's connection to it (latency, requests lost
        // in flight, timeouts) and requests failing by operation and time.
        .target(name: "DeviceSimServer", dependencies: ["DeviceSimHAL", "DeviceSimTime", "DeviceSimStorage"]),
        // Scenario files, the runner, expectations, traces, and the registry of apps scenario files name.
        .target(
            name: "DeviceSimScenario",
            dependencies: [
                "DeviceSimTime", "DeviceSimRuntimeHooks", "DeviceSimHAL", "DeviceSimSimulated", "DeviceSimStorage", "DeviceSimRoads", "DeviceSimServer",
                // Where URLSession is part of Foundation (Apple's platforms) the runner links the simulated transport
                // always; elsewhere FoundationNetworking (libcurl and ~30 more libraries) is loaded only by executables
                // whose apps use URLSession, and the runner finds the transport there (SimulatedNetworkInstallation).
                .target(name: "DeviceSimNetwork", condition: .when(platforms: [.macOS, .macCatalyst, .iOS, .tvOS, .watchOS, .visionOS])),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The HTML report: reads traces and results, writes one offline page.
        .target(name: "DeviceSimReport", dependencies: ["DeviceSimScenario", "DeviceSimHAL", "DeviceSimTime", "DeviceSimSimulated", "DeviceSimRoads"]),
        // The bundled apps, each one module built like a user's app: its values and backend protocol,
        // its flows (HAL only), its simulated server, its SQLite store and its scenario adapter.
        .target(
            name: "DeviceSimFriendLocator",
            dependencies: ["DeviceSimHAL", "DeviceSimTime", "DeviceSimSimulated", "DeviceSimServer", "DeviceSimStorage", "DeviceSimScenario"],
            path: "Sources/Apps/FriendLocator"
        ),
        .target(
            name: "DeviceSimDogWalk",
            dependencies: ["CSQLite", "DeviceSimHAL", "DeviceSimTime", "DeviceSimStorage", "DeviceSimServer", "DeviceSimScenario"],
            path: "Sources/Apps/DogWalk"
        ),
        .target(
            name: "DeviceSimCampusGame",
            dependencies: ["DeviceSimHAL", "DeviceSimTime", "DeviceSimSimulated", "DeviceSimStorage", "DeviceSimServer", "DeviceSimScenario"],
            path: "Sources/Apps/CampusGame"
        ),
        .target(
            name: "DeviceSimRoutes",
            dependencies: ["DeviceSimHAL", "DeviceSimTime", "DeviceSimRoads", "DeviceSimSimulated", "DeviceSimStorage", "DeviceSimScenario"],
            path: "Sources/Apps/Routes"
        ),
        .target(
            name: "DeviceSimTaskList",
            dependencies: ["DeviceSimHAL", "DeviceSimTime", "DeviceSimSimulated", "DeviceSimStorage", "DeviceSimServer", "DeviceSimScenario"],
            path: "Sources/Apps/TaskList"
        ),
        // CoreLocation's API by name, signature and behaviour, over the HAL (no scenario runner, no Yams).
        .target(name: "DeviceSimCoreLocation", dependencies: ["DeviceSimHAL", "DeviceSimClock"]),
        // The umbrella module: `import DeviceSim` (the framework and the bundled apps, `BundledApps.all`).
        .target(
            name: "DeviceSim",
            dependencies: [
                "DeviceSimCore", "DeviceSimTime", "DeviceSimHAL", "DeviceSimNMEA", "DeviceSimRoads", "DeviceSimSimulated",
                "DeviceSimStorage", "DeviceSimServer", "DeviceSimScenario", "DeviceSimReport",
                "DeviceSimFriendLocator", "DeviceSimDogWalk", "DeviceSimCampusGame", "DeviceSimRoutes", "DeviceSimTaskList",
            ]
        ),
        // Network's path monitoring (NWPathMonitor, NWPath, NWInterface) over the HAL's connectivity, and the URL
        // loading system's transport (SimulatedURLProtocol: URLSession requests to the simulation's HTTP servers).
        .target(name: "DeviceSimNetwork", dependencies: ["DeviceSimHAL", "DeviceSimClock"]),
        // UserNotifications' notification center (authorization, triggers, delivery, the delegate) over the HAL.
        .target(name: "DeviceSimUserNotifications", dependencies: ["DeviceSimHAL", "DeviceSimClock"]),
        // Helpers for users' own tests.
        .target(name: "DeviceSimTesting", dependencies: ["DeviceSim", "DeviceSimNetwork", "DeviceSimRuntimeHooks", "CEnqueueHookPlaceholder", "CTestProcessGuard"]),
        // A placeholder in the runtime's global-enqueue hook slot from process load (test processes only),
        // so that swift-concurrency-extras' withMainSerialExecutor never empties the slot when it returns.
        .target(name: "CEnqueueHookPlaceholder"),
        // Ends a test process whose `swift test` runner is gone (linked by DeviceSimTesting only).
        .target(name: "CTestProcessGuard"),
        // The command line as a library (Sources/DeviceSimCLI), with no app of its own: the shipped
        // executable registers the bundled apps through `main(apps:)`, as a user's executable does.
        .target(
            name: "DeviceSimCLI",
            dependencies: [
                "DeviceSimTime", "DeviceSimHAL", "DeviceSimNMEA", "DeviceSimSimulated", "DeviceSimStorage", "DeviceSimScenario", "DeviceSimReport",
                // libgps is a Linux package here: the live gpsd driver is built into the CLI on Linux only.
                .target(name: "DeviceSimGPSD", condition: .when(platforms: [.linux])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/DeviceSimCLI"
        ),
        // Released on Linux with the Swift runtime, Dispatch and Foundation linked into the executable
        // (`-static-stdlib`, and the archives that Foundation's own archive needs, which the swiftc driver
        // names only when it compiles against the static SDK), as a position-dependent executable: the dynamic
        // loader maps 7 libraries instead of 22 and makes about 5,700 relocations instead of 87,000 at every
        // start (docs/benchmarks.md, the cold-start row). The four Dispatch functions that the real-clock
        // watch sees are reached through the linker's `--wrap` (Sources/CRealClockWatch). Debug builds, and
        // the test processes that link this target, keep the shared libraries.
        .executableTarget(
            name: "devicesim",
            dependencies: ["DeviceSimCLI", "DeviceSim"],
            path: "Sources/devicesim-executable",
            linkerSettings: [.unsafeFlags(staticReleaseLinkerFlags, .when(platforms: [.linux], configuration: .release))]
        ),
        // What several test targets share (a fake gpsd, a box for results): test targets share no sources.
        .target(name: "DeviceSimTestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "DeviceSimTimeTests", dependencies: ["DeviceSimTime"]),
        .testTarget(name: "DeviceSimRuntimeHooksTests", dependencies: ["DeviceSimRuntimeHooks"]),
        .testTarget(name: "DeviceSimHALTests", dependencies: ["DeviceSimHAL", "DeviceSimTime"]),
        .testTarget(name: "DeviceSimNMEATests", dependencies: ["DeviceSimNMEA", "DeviceSimTime"], resources: [.copy("Fixtures")]),
        .testTarget(name: "DeviceSimRoadsTests", dependencies: ["DeviceSimRoads", "DeviceSimTime", "DeviceSimTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "DeviceSimSimulatedTests", dependencies: ["DeviceSimSimulated"]),
        .testTarget(name: "DeviceSimGPSDTests", dependencies: ["DeviceSimGPSD", "DeviceSimSimulated", "DeviceSimScenario", "DeviceSimNMEA", "DeviceSim", "DeviceSimTestSupport"]),
        .testTarget(
            name: "DeviceSimFriendLocatorTests",
            dependencies: ["DeviceSimFriendLocator", "DeviceSimTesting", "DeviceSimTestSupport"],
            path: "Tests/Apps/FriendLocatorTests"
        ),
        .testTarget(
            name: "DeviceSimDogWalkTests",
            dependencies: ["DeviceSimDogWalk", "DeviceSimTesting", "DeviceSimTestSupport"],
            path: "Tests/Apps/DogWalkTests"
        ),
        .testTarget(
            name: "DeviceSimCampusGameTests",
            dependencies: ["DeviceSimCampusGame", "DeviceSimTesting", "DeviceSimTestSupport", .product(name: "PropertyBased", package: "swift-property-based")],
            path: "Tests/Apps/CampusGameTests"
        ),
        .testTarget(name: "DeviceSimRoutesTests", dependencies: ["DeviceSimRoutes", "DeviceSimTesting"], path: "Tests/Apps/RoutesTests"),
        .testTarget(name: "DeviceSimTaskListTests", dependencies: ["DeviceSimTaskList", "DeviceSimTesting", "DeviceSimTestSupport"], path: "Tests/Apps/TaskListTests"),
        // Scenario files of the bundled apps run here: the tests register them (BundledApps.all).
        .testTarget(name: "DeviceSimScenarioTests", dependencies: ["DeviceSim", "DeviceSimScenario", "DeviceSimRoads", "CafeCheckIn", "DeviceSimTestSupport", .product(name: "Yams", package: "Yams")]),
        // A @MainActor view model as a scenario app, and a developer's own devicesim registering it (issue 44).
        .target(name: "CafeCheckIn", dependencies: ["DeviceSimHAL", "DeviceSimScenario"], path: "Tests/CafeCheckInExample/Sources/CafeCheckIn"),
        .executableTarget(name: "cafe-devicesim", dependencies: ["CafeCheckIn", "DeviceSimCLI"], path: "Tests/CafeCheckInExample/Sources/cafe-devicesim"),
        .testTarget(name: "DeviceSimReportTests", dependencies: ["DeviceSim", "DeviceSimReport"]),
        .testTarget(name: "DeviceSimStorageTests", dependencies: ["DeviceSimStorage"]),
        .testTarget(name: "DeviceSimTestingTests", dependencies: ["DeviceSimTesting", "DeviceSimTestSupport"]),
        .testTarget(name: "DeviceSimCoreBluetoothTests", dependencies: ["DeviceSimCoreBluetooth", "DeviceSimHAL", "DeviceSimTesting", "DeviceSimSimulated"]),
        // The worked examples of docs/testing-your-flows.md (the guide quotes these files).
        .testTarget(name: "DeviceSimGuideExamples", dependencies: ["DeviceSimTesting"], path: "Tests/GuideExamples"),
        .testTarget(
            name: "DeviceSimMainSerialExecutorTests",
            dependencies: ["DeviceSimTesting", .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras")]
        ),
        .testTarget(
            name: "DeviceSimCoreLocationTests",
            dependencies: ["DeviceSimCoreLocation", "DeviceSimTesting", "DeviceSimScenario"]
        ),
        .testTarget(name: "DeviceSimNetworkTests", dependencies: ["DeviceSimNetwork", "DeviceSimTesting", "DeviceSimTestSupport"]),
        .testTarget(name: "DeviceSimUserNotificationsTests", dependencies: ["DeviceSimUserNotifications", "DeviceSimCoreLocation", "DeviceSimTesting"]),
        .testTarget(name: "EndToEndTests", dependencies: ["devicesim", "cafe-devicesim", "DeviceSimTestSupport"]),
        // Apple's own sample code for URLSession, NWPathMonitor and UNUserNotificationCenter, unchanged behind the
        // import switch, driven on a simulated phone (docs/apple-apis/URLSession.md, Network.md, UserNotifications.md).
        .testTarget(
            name: "DeviceSimAppleSampleCodeTests",
            dependencies: ["DeviceSimNetwork", "DeviceSimUserNotifications", "DeviceSimTesting"],
            path: "Tests/AppleSampleCodeTests",
            // The samples' import switch picks DeviceSim's products on a Mac too: the tests drive a simulated phone.
            swiftSettings: [.define("DEVICESIM")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The live gpsd driver links libgps. Where its header is missing (a Linux without libgps-dev, a Mac
// without Homebrew's gpsd) the package leaves out the driver, its tests and the CLI's gpsd commands
// (the CLI compiles them under `#if canImport(DeviceSimGPSD)`), so everything else builds and the
// bundled scenarios run. DEVICESIM_GPSD=1 or =0 decides instead. SwiftPM keeps the evaluated manifest:
// after installing libgps, run `swift package reset` (or change DEVICESIM_GPSD) to build the driver.
let libgpsHeaderFound = ["/usr/include", "/usr/local/include", "/opt/homebrew/include"]
    .contains { FileManager.default.fileExists(atPath: $0 + "/gps.h") }
if !(ProcessInfo.processInfo.environment["DEVICESIM_GPSD"].map { $0 != "0" } ?? libgpsHeaderFound) {
    let gpsdTargets: Set = ["CGPS", "DeviceSimGPSD", "DeviceSimGPSDTests"]
    package.products.removeAll { $0.name == "DeviceSimGPSD" }
    package.targets.removeAll { gpsdTargets.contains($0.name) }
    for target in package.targets {
        target.dependencies.removeAll {
            switch $0 {
            case .targetItem(let name, _), .byNameItem(let name, _): gpsdTargets.contains(name)
            default: false
            }
        }
    }
}
