// Times reading a road network from its prepared file (`RoadNetworkCache`): what a scenario's cold
// start pays for the road network after the first run, which writes the file.
//
// Usage: prepared-load EXTRACT.osm.pbf [ROUNDS] [CACHE_FOLDER]
//   swift build -c release --package-path Benchmarks/routing
//   nice Benchmarks/routing/.build/release/prepared-load Simulator/worlds/helsinki.osm.pbf 30 /tmp/roads-cache
// The first read builds and writes the file (not timed); then ROUNDS reads, each the thread's CPU
// time; prints the median and the file's size.
import DeviceSimRoads
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: prepared-load EXTRACT.osm.pbf [ROUNDS] [CACHE_FOLDER]\n".utf8))
    exit(2)
}
let rounds = arguments.count > 2 ? Int(arguments[2])! : 30
let cache = RoadNetworkCache(folder: URL(fileURLWithPath: arguments.count > 3 ? arguments[3] : NSTemporaryDirectory() + "prepared-load"))
func threadProcessorSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
let first = try cache.network(contentsOf: arguments[1])
var times: [Double] = []
for _ in 0..<rounds {
    let begin = threadProcessorSeconds()
    let loaded = try cache.network(contentsOf: arguments[1])
    times.append((threadProcessorSeconds() - begin) * 1000)
    guard loaded.origin == .prepared else { fatalError("not read from the prepared file: \(loaded.origin)") }
}
let size = (try? FileManager.default.attributesOfItem(atPath: first.preparedFile.path)[.size] as? Int) ?? 0
print(String(format: "prepared file %.1f MB; read: median %.2f ms CPU, min %.2f ms (%d rounds)", Double(size) / 1e6, times.sorted()[rounds / 2], times.min()!, rounds))
