// swift-tools-version: 6.1
import PackageDescription

// A worked example of your own app in DeviceSim scenario files (see docs/your-own-app.md
// in DeviceSim). It uses DeviceSim by path, as a package of yours would from a checkout.
let package = Package(
    name: "CommuteTimer",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "commute-devicesim", targets: ["commute-devicesim"]),
    ],
    dependencies: [
        .package(name: "DeviceSim", path: "../.."),
    ],
    targets: [
        // The app: the HAL only (geofences, prompts, the device's clock).
        .target(name: "CommuteTimer", dependencies: [
            .product(name: "DeviceSimCore", package: "DeviceSim"),
        ]),
        // How scenario files name the app, read its settings and perform its actions.
        .target(name: "CommuteScenarios", dependencies: [
            "CommuteTimer",
            .product(name: "DeviceSim", package: "DeviceSim"),
        ]),
        // Your own `devicesim`: every subcommand, with the commute app registered.
        .executableTarget(name: "commute-devicesim", dependencies: [
            "CommuteScenarios",
            .product(name: "DeviceSimCLI", package: "DeviceSim"),
        ]),
        .testTarget(name: "CommuteTimerTests", dependencies: [
            "CommuteTimer", "CommuteScenarios",
            .product(name: "DeviceSim", package: "DeviceSim"),
            .product(name: "DeviceSimTesting", package: "DeviceSim"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
