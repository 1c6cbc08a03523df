import DeviceSim
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWorld(_ bytes: UnsafeRawPointer, _ count: Int) -> CInt {
    guard let text = String(validating: UnsafeRawBufferPointer(start: bytes, count: count), as: UTF8.self) else { return 0 }
    _ = try? WorldParser.parse(text, file: "/nonexistent-fuzz-folder/world.yaml")
    return 0
}
