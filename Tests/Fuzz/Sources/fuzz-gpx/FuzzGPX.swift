import DeviceSim
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGPX(_ bytes: UnsafeRawPointer, _ count: Int) -> CInt {
    _ = try? GPXDocument(data: Data(bytes: bytes, count: count), file: "fuzz.gpx")
    return 0
}
