import DeviceSim
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPBF(_ bytes: UnsafeRawPointer, _ count: Int) -> CInt {
    _ = try? OSMPBFReader.read(Data(bytes: bytes, count: count), name: "fuzz.osm.pbf")
    return 0
}
