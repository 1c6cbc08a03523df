// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets for DeviceSim's readers of outside input, built with the fuzzer and address
// sanitizers (see .ci/fuzz, which builds them, seeds each with the repository's own files, runs each
// for a bounded time and replays the crashes kept in Regressions/). Each target is one function,
// `LLVMFuzzerTestOneInput`, that hands the bytes to one reader and ignores the errors it throws: a
// crash, a hang or a blow-up of memory is the failure.
let package = Package(
    name: "DeviceSimFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "DeviceSim", path: "../.."),
    ],
    targets: [
        // Scenario files (with every bundled app registered, so app settings and actions are read too).
        .executableTarget(name: "fuzz-scenario", dependencies: [.product(name: "DeviceSim", package: "DeviceSim")]),
        // World files.
        .executableTarget(name: "fuzz-world", dependencies: [.product(name: "DeviceSim", package: "DeviceSim")]),
        // NMEA 0183 bytes, fed to the decoder in pieces.
        .executableTarget(name: "fuzz-nmea", dependencies: [.product(name: "DeviceSim", package: "DeviceSim")]),
        // GPX documents.
        .executableTarget(name: "fuzz-gpx", dependencies: [.product(name: "DeviceSim", package: "DeviceSim")]),
        // OpenStreetMap PBF extracts.
        .executableTarget(name: "fuzz-pbf", dependencies: [.product(name: "DeviceSim", package: "DeviceSim")]),
        // JSON Lines traces (the report's reader) and results records (merge's records).
        .executableTarget(name: "fuzz-trace", dependencies: [.product(name: "DeviceSim", package: "DeviceSim")]),
        // A `stored:` expectation's SQL query, run under its budget (Dictionaries/fuzz-stored-query.dict).
        .executableTarget(name: "fuzz-stored-query", dependencies: [.product(name: "DeviceSim", package: "DeviceSim")]),
        // Option values read from text: durations, shards, seed lists.
        .executableTarget(name: "fuzz-options", dependencies: [.product(name: "DeviceSim", package: "DeviceSim")]),
        // `devicesim merge` of an arbitrary results file, in process.
        .executableTarget(name: "fuzz-merge", dependencies: [.product(name: "DeviceSimCLI", package: "DeviceSim")]),
        // merge's output paths (--junit, --results) against a sandbox of inputs, links and dangling links.
        .executableTarget(name: "fuzz-output-paths", dependencies: [.product(name: "DeviceSimCLI", package: "DeviceSim")]),
    ],
    swiftLanguageModes: [.v6]
)
