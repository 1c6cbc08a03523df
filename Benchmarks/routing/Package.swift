// swift-tools-version: 6.1
// The routing comparison's Swift side: DeviceSim's route planner over pairs of positions, in a
// package of its own (only the road module, no benchmark dependency in the main package).
//   swift build -c release --package-path Benchmarks/routing
// then run compare.py (see README.md).
import PackageDescription

let package = Package(
    name: "RoutingComparison",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "DeviceSim", path: "../..")],
    targets: [
        // What route-check and route-timing share: their arguments, the extract, seeded random positions.
        .target(
            name: "RandomPairs",
            dependencies: [.product(name: "DeviceSimRoads", package: "DeviceSim")],
            path: "Sources/RandomPairs"
        ),
        .executableTarget(
            name: "route-pairs",
            dependencies: [.product(name: "DeviceSimRoads", package: "DeviceSim")],
            path: "Sources/route-pairs"
        ),
        .executableTarget(
            name: "route-check",
            dependencies: ["RandomPairs", .product(name: "DeviceSimRoads", package: "DeviceSim")],
            path: "Sources/route-check"
        ),
        .executableTarget(
            name: "route-hierarchy",
            dependencies: [.product(name: "DeviceSimRoads", package: "DeviceSim")],
            path: "Sources/route-hierarchy"
        ),
        .executableTarget(
            name: "route-timing",
            dependencies: ["RandomPairs", .product(name: "DeviceSimRoads", package: "DeviceSim")],
            path: "Sources/route-timing"
        ),
        .executableTarget(
            name: "prepared-load",
            dependencies: [.product(name: "DeviceSimRoads", package: "DeviceSim")],
            path: "Sources/prepared-load"
        ),
    ],
    swiftLanguageModes: [.v6]
)
