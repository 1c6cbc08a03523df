import DeviceSimHAL

/// How the dog-walk map shows business records: records closer together than the overlap distance
/// are aggregated into one marker, which shows the latest of them; clicking a marker summarizes the
/// records overlapping it.
///
/// ```swift
/// let markers = BusinessRecordMap.markers(of: records, overlapDistance: 5)
/// let near = BusinessRecordMap.overlapping(markers[0].shown, in: records, overlapDistance: 5)
/// BusinessRecordMap.Statistics(near).peePercent   // 67 for 2 pees and 1 poo
/// ```
public enum BusinessRecordMap {
    /// One marker on the map: the latest record of an overlapping group, and how many it stands for.
    public struct Marker: Sendable, Hashable {
        /// The record the marker shows (the latest of its group).
        public var shown: BusinessRecord
        /// Every record of the group, latest first.
        public var members: [BusinessRecord]
    }

    /// The share of pees and poos among records, in whole percent that add up to 100.
    public struct Statistics: Sendable, Hashable {
        public var pees: Int
        public var poos: Int
        public var total: Int { pees + poos }
        /// Pees as a percentage of all records, rounded to the nearest whole percent (0 for none).
        public var peePercent: Int { total == 0 ? 0 : Int((Double(pees) * 100 / Double(total)).rounded()) }
        /// The rest: 100 - ``peePercent`` (0 for none).
        public var pooPercent: Int { total == 0 ? 0 : 100 - peePercent }

        /// Counts `records`.
        public init(_ records: [BusinessRecord]) {
            pees = records.count { $0.kind == .pee }
            poos = records.count { $0.kind == .poo }
        }
    }

    /// The markers for `records`: taken latest first, each record joins the first marker whose shown
    /// record is closer than `overlapDistance` metres, or starts a new marker. Markers come latest first.
    public static func markers(of records: [BusinessRecord], overlapDistance: Double) -> [Marker] {
        var markers: [Marker] = []
        for record in latestFirst(records) {
            if let index = markers.firstIndex(where: { $0.shown.coordinate.distance(to: record.coordinate) < overlapDistance }) {
                markers[index].members.append(record)
            } else {
                markers.append(Marker(shown: record, members: [record]))
            }
        }
        return markers
    }

    /// The records closer than `overlapDistance` metres to `selected`, `selected` included, latest first.
    public static func overlapping(_ selected: BusinessRecord, in records: [BusinessRecord], overlapDistance: Double) -> [BusinessRecord] {
        latestFirst(records.filter { $0.id == selected.id || $0.coordinate.distance(to: selected.coordinate) < overlapDistance })
    }

    /// Latest first; ties (same instant) by the later id first.
    static func latestFirst(_ records: [BusinessRecord]) -> [BusinessRecord] {
        records.sorted { ($0.placedAt, $0.id ?? 0) > ($1.placedAt, $1.id ?? 0) }
    }
}
