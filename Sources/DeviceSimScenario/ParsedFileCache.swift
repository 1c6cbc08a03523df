import DeviceSimRoads
import DeviceSimSimulated
import Foundation
import Synchronization

/// Values made from files (a parsed world, a road network read from an OpenStreetMap extract),
/// kept for the process by path, so that the scenario files of a run naming the same world or
/// extract share one instead of each reading it again. A road network's landmark tables, built on
/// its first route search, are shared with it.
///
/// An entry is used again only while the file's size and modification date are unchanged; a file
/// that fails to parse is not kept (it is read, and its error reported, every time).
///
/// ```swift
/// let network = try ParsedFileCache.roadNetworks.value(at: path) { path throws(OSMReadError) in try RoadNetwork(contentsOf: path) }
/// ```
final class ParsedFileCache<Value: Sendable>: Sendable {
    private struct Entry {
        /// The file's size and modification when it was read (nil: it could not be examined).
        let status: FileStatus?
        let value: Value
    }

    /// One file's entry, locked while the file is read: two scenario threads needing the same file
    /// read it once, and threads needing other files do not wait for it. The lock is a `pthread`
    /// mutex (`NSLock`), whose waiters sleep: a thread waiting on a priority-inheritance futex
    /// (`Mutex`) spins in the kernel for as long as the reading thread runs.
    private final class Slot: @unchecked Sendable {
        let lock = NSLock()
        var entry: Entry?
    }

    private let slots = Mutex<[String: Slot]>([:])

    /// The value made by `make` from the file at `path`, now or earlier in this process.
    func value<Failure: Error>(at path: String, make: (String) throws(Failure) -> Value) throws(Failure) -> Value {
        let status = FileBytes.status(atPath: path)
        let slot = slots.withLock { slots in
            if let slot = slots[path] { return slot }
            let slot = Slot()
            slots[path] = slot
            return slot
        }
        slot.lock.lock()
        defer { slot.lock.unlock() }
        if let entry = slot.entry, entry.status == status { return entry.value }
        valuesBeingMade.add(1, ordering: .relaxed)
        defer { valuesBeingMade.subtract(1, ordering: .relaxed) }
        let value = try make(path)
        slot.entry = Entry(status: status, value: value)
        return value
    }

    /// Whether a value for `path` was made earlier and is not being made again now (a hint: the
    /// file is not checked for changes).
    func isReady(at path: String) -> Bool {
        guard let slot = slots.withLock({ $0[path] }), slot.lock.try() else { return false }
        defer { slot.lock.unlock() }
        return slot.entry != nil
    }
}

/// How many values any ``ParsedFileCache`` is making now (reading a world, a road network).
private let valuesBeingMade = Atomic<Int>(0)

/// What the process's ``ParsedFileCache``s are doing.
enum ParsedFileCaches {
    /// Whether some thread is making a value now (reading a world or a road network file); a thread
    /// that needs the same file waits for it meanwhile.
    static var isMakingAny: Bool { valuesBeingMade.load(ordering: .relaxed) > 0 }
}

extension ParsedFileCache where Value == RoadNetwork {
    /// The road networks of OpenStreetMap extracts.
    static let roadNetworks = ParsedFileCache()
}

extension ParsedFileCache where Value == World {
    /// The parsed world files.
    static let worlds = ParsedFileCache()
}
