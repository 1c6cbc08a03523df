import DeviceSim
import Foundation

/// The bundled apps, registered once, so their settings and actions are parsed as in `devicesim`.
private let registered: Bool = (try? ScenarioAppRegistry.register(BundledApps.all)) != nil

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ bytes: UnsafeRawPointer, _ count: Int) -> CInt {
    guard registered, let text = String(validating: UnsafeRawBufferPointer(start: bytes, count: count), as: UTF8.self) else { return 0 }
    // Relative paths (world:, track:, game:) resolve beside this name, where nothing exists.
    _ = try? ScenarioParser.parse(text, file: "/nonexistent-fuzz-folder/fuzz.yaml")
    return 0
}
