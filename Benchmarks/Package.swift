// swift-tools-version: 6.1
// Benchmarks, in a package of their own so the main package carries no benchmark dependency.
// Build and run in release:  swift run -c release --package-path Benchmarks bench-nmea
import PackageDescription

let package = Package(
    name: "DeviceSimBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "bench-nmea",
            dependencies: [.product(name: "DeviceSim", package: "main")],
            path: "Sources/bench-nmea"
        ),
        .executableTarget(
            name: "bench-gpsd",
            dependencies: [.product(name: "DeviceSim", package: "main"), .product(name: "DeviceSimGPSD", package: "main")],
            path: "Sources/bench-gpsd"
        ),
    ],
    swiftLanguageModes: [.v6]
)
