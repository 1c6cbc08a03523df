import DeviceSimHAL

/// How the dog-walk map shows business records. Two records *overlap* when they are closer together
/// than the overlap distance; records that overlap each other, directly or through a chain of
/// overlapping records, form one *group*. One definition serves the whole map (document, "Starting
/// the service" 7-A and "Viewing business records at a point" step 3): each group is one marker
/// showing its latest record, the marker's count is the group's size, and clicking it shows the
/// statistics popup and the record list of exactly that group. Three records 3.3 m apart in a line
/// (5 m overlap distance) are one marker of 3, never a marker of 1 whose popup counts 2. Groups do not
/// depend on the order the records were placed in.
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

    /// The markers for `records`: one per group of overlapping records (closer than `overlapDistance`
    /// metres, directly or through a chain), showing the group's latest record. Markers come latest first.
    public static func markers(of records: [BusinessRecord], overlapDistance: Double) -> [Marker] {
        let sorted = latestFirst(records)
        // Union-find over the pairs closer than the overlap distance.
        var parent = Array(sorted.indices)
        func root(_ index: Int) -> Int {
            var index = index
            while parent[index] != index {
                parent[index] = parent[parent[index]]
                index = parent[index]
            }
            return index
        }
        for first in sorted.indices {
            for second in sorted.indices where second > first && sorted[first].coordinate.distance(to: sorted[second].coordinate) < overlapDistance {
                let (a, b) = (root(first), root(second))
                if a != b { parent[max(a, b)] = min(a, b) }   // the root stays the latest of the group
            }
        }
        var markers: [Marker] = []
        var markerOfRoot: [Int: Int] = [:]
        for index in sorted.indices {
            let group = root(index)
            if let marker = markerOfRoot[group] {
                markers[marker].members.append(sorted[index])
            } else {
                markerOfRoot[group] = markers.count
                markers.append(Marker(shown: sorted[index], members: [sorted[index]]))
            }
        }
        return markers
    }

    /// The group of overlapping records `selected` belongs to (the records its marker stands for),
    /// `selected` included, latest first.
    public static func overlapping(_ selected: BusinessRecord, in records: [BusinessRecord], overlapDistance: Double) -> [BusinessRecord] {
        let all = records.contains { $0.id == selected.id } ? records : records + [selected]
        return markers(of: all, overlapDistance: overlapDistance).first { $0.members.contains { $0.id == selected.id } }?.members ?? [selected]
    }

    /// Latest first; ties (same instant) by the later id first.
    static func latestFirst(_ records: [BusinessRecord]) -> [BusinessRecord] {
        records.sorted { ($0.placedAt, $0.id ?? 0) > ($1.placedAt, $1.id ?? 0) }
    }
}
