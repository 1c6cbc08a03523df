import Foundation
import Testing

/// What the shipped `devicesim` loads at start-up. Its bundled apps make no `URLSession` request, so it
/// links no URL loading system: FoundationNetworking brings libcurl and about 30 more libraries, about
/// 6.5 ms of CPU at every start (docs/benchmarks.md, the cold-start row). An executable whose app uses
/// `URLSession` links DeviceSimNetwork, and the runner installs its transport (URLSessionRoutingTests).
/// Nor does it load libgps at start (the live gpsd driver loads it at its first connection), nor an XML
/// library (GPX files are read by DeviceSim's own reader). These tests run the debug build, which loads the
/// Swift runtime, Dispatch and Foundation as shared libraries; the release build on Linux has them linked in
/// (`-static-stdlib`, Package.swift) and loads neither these libraries nor any of those named here.
@Suite struct StartUpLibrariesTests {
    #if os(Linux)
    /// The libraries the dynamic loader maps for `executable` (glibc's `LD_TRACE_LOADED_OBJECTS`, what
    /// `ldd` prints): the executable does not run.
    static func loadedLibraries(of executable: URL) throws -> [String] {
        let output = try CLI.run([], environment: ["LD_TRACE_LOADED_OBJECTS": "1"], executable: executable)
        return output.standardOutput.split(separator: "\n").compactMap { $0.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) }
    }

    @Test func theShippedDevicesimLoadsNoURLLoadingSystem() throws {
        let libraries = try Self.loadedLibraries(of: CLI.binary)
        #expect(libraries.contains("libFoundation.so"))
        #expect(!libraries.contains("libFoundationNetworking.so"))
        #expect(!libraries.contains { $0.hasPrefix("libcurl") })
    }

    /// GPX files are read without an XML library: no FoundationXML, libxml2 or the system's ICU.
    @Test func theShippedDevicesimLoadsNoXMLLibrary() throws {
        let libraries = try Self.loadedLibraries(of: CLI.binary)
        #expect(libraries.contains("libFoundation.so"))
        for prefix in ["libFoundationXML", "libxml2", "libicuuc", "libicudata"] {
            #expect(!libraries.contains { $0.hasPrefix(prefix) }, "\(prefix) is loaded at start")
        }
    }

    /// libgps (with D-Bus, systemd and libgcrypt) is loaded only when `live` connects to gpsd.
    @Test func theShippedDevicesimLoadsNoLibgps() throws {
        let libraries = try Self.loadedLibraries(of: CLI.binary)
        #expect(libraries.contains("libFoundation.so"))
        for prefix in ["libgps", "libdbus", "libsystemd", "libgcrypt"] {
            #expect(!libraries.contains { $0.hasPrefix(prefix) }, "\(prefix) is loaded at start")
        }
    }
    #endif
}
