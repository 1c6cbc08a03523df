// swift-tools-version: 6.1
// Benchmarks, in a package of their own so the main package carries no benchmark dependency.
// Build and run in release:  swift run -c release --package-path Benchmarks bench-nmea
import PackageDescription

let package = Package(
    name: "DeviceSimBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "DeviceSim", path: ".."),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.0.0"),
        .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.0.0"),
    ],
    targets: [
        .executableTarget(
            name: "bench-nmea",
            dependencies: [.product(name: "DeviceSim", package: "DeviceSim")],
            path: "Sources/bench-nmea"
        ),
        .executableTarget(
            name: "bench-gpsd",
            dependencies: [.product(name: "DeviceSim", package: "DeviceSim"), .product(name: "DeviceSimGPSD", package: "DeviceSim")],
            path: "Sources/bench-gpsd"
        ),
        .executableTarget(
            name: "bench-scheduler",
            dependencies: [.product(name: "DeviceSim", package: "DeviceSim")],
            path: "Sources/bench-scheduler"
        ),
        .executableTarget(
            name: "bench-radio",
            dependencies: [.product(name: "DeviceSim", package: "DeviceSim")],
            path: "Sources/bench-radio"
        ),
        .executableTarget(
            name: "bench-shadowing",
            dependencies: [.product(name: "DeviceSim", package: "DeviceSim")],
            path: "Sources/bench-shadowing"
        ),
        .executableTarget(
            name: "bench-clock",
            dependencies: [
                .product(name: "DeviceSim", package: "DeviceSim"),
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
            ],
            path: "Sources/bench-clock"
        ),
        .executableTarget(
            name: "bench-roads",
            dependencies: [.product(name: "DeviceSim", package: "DeviceSim")],
            path: "Sources/bench-roads",
            exclude: ["networkx_benchmark.py"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
