import DeviceSimTime

/// Storage faults injected into a device's database from a scenario (`do: storage-fault`): each one
/// holds for a window of virtual time or for the next N operations it applies to.
///
/// ```swift
/// faults.inject(.diskFull, until: now + .seconds(30))   // writes fail for 30 s
/// faults.inject(.readError, count: 1)                   // the next read fails
/// ```
public final class StorageFaults {
    /// A kind of fault.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Writes fail: no space left.
        case diskFull = "disk-full"
        /// Writes fail with an I/O error.
        case writeError = "write-error"
        /// Reads fail with an I/O error.
        case readError = "read-error"
        /// The database file is damaged; the app finds out the next time it opens it.
        case corruptAtStart = "corrupt-at-start"
        /// The storage refuses writes.
        case readOnly = "read-only"

        /// Whether the fault applies to writes (otherwise to reads).
        var appliesToWrites: Bool { self != .readError }
    }

    private struct Active {
        var kind: Kind
        var until: VirtualInstant?
        var remaining: Int?
    }

    private var active: [Active] = []

    public init() {}

    /// Injects `kind` until `until` (nil: for good) or for the next `count` operations (nil: any number).
    public func inject(_ kind: Kind, until: VirtualInstant? = nil, count: Int? = nil) {
        active.append(Active(kind: kind, until: until, remaining: count))
    }

    /// The fault that hits a write (or read) at `now`, counting it against its budget.
    func take(write: Bool, at now: VirtualInstant) -> Kind? {
        active.removeAll { ($0.until.map { now >= $0 } ?? false) || $0.remaining == 0 }
        guard let index = active.firstIndex(where: { $0.kind.appliesToWrites == write && $0.kind != .corruptAtStart }) else { return nil }
        if let remaining = active[index].remaining { active[index].remaining = remaining - 1 }
        return active[index].kind
    }
}
