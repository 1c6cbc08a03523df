import DeviceSimHAL
import DeviceSimScenario
import DeviceSimTime
import Foundation
import Testing

/// A trace file is JSON whatever the events hold (issue 37): JSON has no infinity or NaN.
@Suite struct TraceOutputTests {
    @Test func nonFiniteAndOverflowingNumbersAreWrittenAsNull() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trace-output-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("t.jsonl").path
        let writer = try TraceFileWriter(path: path)
        writer.record(TraceEvent(time: .zero, device: "w", name: "marker.shown", fields: [
            (key: "lat", value: .double(-.infinity)), (key: "lon", value: .double(.nan)), (key: "accuracy", value: .double(5)),
        ]))
        // A fix accuracy of 1e308 (finite) made `"lat":-inf` and `"accuracy":inf`: rounded to 7 decimals it overflows.
        writer.record(TraceEvent(time: VirtualInstant(offset: .seconds(1)), device: "w", name: "marker.moved", fields: [
            (key: "lat", value: .double(-1e308)), (key: "accuracy", value: .double(1e308)), (key: "speed", value: .double(1e300)),
        ]))
        try writer.close()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines == [#"{"t":0.000,"device":"w","event":"marker.shown","lat":null,"lon":null,"accuracy":5}"#,
                          #"{"t":1.000,"device":"w","event":"marker.moved","lat":null,"accuracy":null,"speed":1e+300}"#])
        for line in lines { #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any]) }
    }
}
