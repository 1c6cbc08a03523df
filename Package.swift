// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "DeviceSim",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "DeviceSim", targets: ["DeviceSim"]),
        .library(name: "DeviceSimTesting", targets: ["DeviceSimTesting"]),
        .library(name: "DeviceSimGPSD", targets: ["DeviceSimGPSD"]),
        .library(name: "DeviceSimRoads", targets: ["DeviceSimRoads"]),
        .executable(name: "devicesim", targets: ["devicesim"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    ],
    targets: [
        // Virtual time: the discrete-event scheduler, the virtual clock, the simulation executor, seeded randomness.
        .target(
            name: "DeviceSimTime",
            dependencies: [.product(name: "HeapModule", package: "swift-collections")]
        ),
        // The hardware abstraction layer: protocols and value types of the device.
        .target(name: "DeviceSimHAL", dependencies: ["DeviceSimTime"]),
        // NMEA 0183 framing, parsing and fix assembly (no dependencies: bytes in, values out).
        .target(name: "DeviceSimNMEA"),
        // zlib (Debian's zlib1g-dev), for OSM PBF blocks.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Roads from OpenStreetMap PBF extracts: road graphs per travel mode, places, fastest routes.
        .target(name: "DeviceSimRoads", dependencies: ["CZlib", "DeviceSimHAL"]),
        // Simulated drivers: motion along routes, simulated GPS, NMEA/GPX playback, radios, world.
        .target(name: "DeviceSimSimulated", dependencies: ["DeviceSimHAL", "DeviceSimNMEA", "DeviceSimTime", "DeviceSimRoads"]),
        // libgps through a small C shim.
        .systemLibrary(
            name: "CGPS",
            pkgConfig: "libgps",
            providers: [.apt(["libgps-dev"])]
        ),
        // The live GPS driver over gpsd, and recording.
        .target(
            name: "DeviceSimGPSD",
            dependencies: ["CGPS", "DeviceSimHAL", "DeviceSimTime", .product(name: "Logging", package: "swift-log")]
        ),
        // App flows written against the HAL only.
        .target(name: "DeviceSimFlows", dependencies: ["DeviceSimHAL", "DeviceSimTime"]),
        // The simulated backend server.
        .target(name: "DeviceSimBackend", dependencies: ["DeviceSimHAL", "DeviceSimTime"]),
        // Scenario files, runner, expectations, traces and reports.
        .target(
            name: "DeviceSimScenario",
            dependencies: [
                "DeviceSimTime", "DeviceSimHAL", "DeviceSimSimulated", "DeviceSimFlows", "DeviceSimBackend",
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The umbrella module: `import DeviceSim`.
        .target(
            name: "DeviceSim",
            dependencies: ["DeviceSimTime", "DeviceSimHAL", "DeviceSimNMEA", "DeviceSimRoads", "DeviceSimSimulated", "DeviceSimFlows", "DeviceSimBackend", "DeviceSimScenario"]
        ),
        // Helpers for users' own tests.
        .target(name: "DeviceSimTesting", dependencies: ["DeviceSim"]),
        .executableTarget(
            name: "devicesim",
            dependencies: [
                "DeviceSim", "DeviceSimGPSD",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "DeviceSimTimeTests", dependencies: ["DeviceSimTime"]),
        .testTarget(name: "DeviceSimHALTests", dependencies: ["DeviceSimHAL"]),
        .testTarget(name: "DeviceSimNMEATests", dependencies: ["DeviceSimNMEA"], resources: [.copy("Fixtures")]),
        .testTarget(name: "DeviceSimRoadsTests", dependencies: ["DeviceSimRoads"], exclude: ["Fixtures"]),
        .testTarget(name: "DeviceSimSimulatedTests", dependencies: ["DeviceSimSimulated"]),
        .testTarget(name: "DeviceSimGPSDTests", dependencies: ["DeviceSimGPSD", "DeviceSimSimulated", "DeviceSimScenario", "DeviceSimNMEA"]),
        .testTarget(name: "DeviceSimFlowsTests", dependencies: ["DeviceSimFlows", "DeviceSimSimulated", "DeviceSimTesting"]),
        .testTarget(name: "DeviceSimBackendTests", dependencies: ["DeviceSimBackend", "DeviceSimTesting"]),
        .testTarget(name: "DeviceSimScenarioTests", dependencies: ["DeviceSimScenario", "DeviceSimRoads"]),
        .testTarget(name: "DeviceSimTestingTests", dependencies: ["DeviceSimTesting"]),
        .testTarget(name: "EndToEndTests", dependencies: ["devicesim"]),
    ],
    swiftLanguageModes: [.v6]
)
