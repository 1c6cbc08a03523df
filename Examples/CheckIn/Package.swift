// swift-tools-version: 6.1
import PackageDescription

// An app written as iOS developers write it (a @MainActor @Observable view model with
// CLLocationManager, NWPathMonitor, URLSession and UNUserNotificationCenter), compiled unchanged
// against DeviceSim's mirrored Apple APIs. It uses DeviceSim by path, as a package of yours would.
let package = Package(
    name: "CheckIn",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "checkin-devicesim", targets: ["checkin-devicesim"]),
    ],
    dependencies: [
        .package(name: "DeviceSim", path: "../.."),
    ],
    targets: [
        // The app: Apple's API only; on Linux (or with DEVICESIM defined) the mirrored modules.
        .target(name: "CheckIn", dependencies: [
            .product(name: "DeviceSimCoreLocation", package: "DeviceSim"),
            .product(name: "DeviceSimNetwork", package: "DeviceSim"),
            .product(name: "DeviceSimUserNotifications", package: "DeviceSim"),
        ]),
        // How scenario files run the app (its settings; it runs on the main actor).
        .target(name: "CheckInScenarios", dependencies: [
            "CheckIn",
            .product(name: "DeviceSim", package: "DeviceSim"),
            .product(name: "DeviceSimCoreLocation", package: "DeviceSim"),
        ]),
        // The example's own `devicesim`, which runs Scenarios/ (`swift run checkin-devicesim run Scenarios`).
        .executableTarget(name: "checkin-devicesim", dependencies: [
            "CheckInScenarios",
            .product(name: "DeviceSimCLI", package: "DeviceSim"),
        ]),
        .testTarget(name: "CheckInTests", dependencies: [
            "CheckIn",
            .product(name: "DeviceSim", package: "DeviceSim"),
            .product(name: "DeviceSimTesting", package: "DeviceSim"),
            .product(name: "DeviceSimCoreLocation", package: "DeviceSim"),
            .product(name: "DeviceSimNetwork", package: "DeviceSim"),
            .product(name: "DeviceSimUserNotifications", package: "DeviceSim"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
