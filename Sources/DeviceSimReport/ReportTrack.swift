import DeviceSimHAL
import DeviceSimTime
import Foundation

/// A device's track as a report draws it: its points in time order, in pieces. A line joins the
/// points of a piece; between pieces there is none, because the device did not travel there (a
/// teleport, a recorded track starting again, a jump in a log) or because thinning left out points
/// that the straight line would misplace.
///
/// ```swift
/// let track = ReportTrack(points: fixes).brokenAtJumps()
/// let drawn = track.thinned(to: 500, tolerance: 5)   // at most 500 points, breaks where 5 m is not kept
/// drawn.pieces                                       // [0..<212, 212..<500]
/// ```
public struct ReportTrack: Sendable {
    /// A point of the track: where the device was at `time`.
    public typealias Point = (time: VirtualInstant, coordinate: GeoCoordinate)

    /// The points, in time order.
    public var points: [Point]
    /// The indices of `points` that start a new piece (no line from the point before), ascending,
    /// none of them 0.
    public var breaks: [Int]

    /// A track of `points` (in time order) with pieces starting at `breaks`.
    public init(points: [Point], breaks: [Int] = []) {
        self.points = points
        self.breaks = breaks
    }

    /// The pieces, as ranges of `points`.
    public var pieces: [Range<Int>] {
        var pieces: [Range<Int>] = []
        var start = 0
        for end in breaks + [points.count] where end > start {
            pieces.append(start..<end)
            start = end
        }
        return pieces
    }

    /// The track broken wherever consecutive points are more than `distance` metres apart at more than
    /// `speed` m/s (a device does not travel that way: a teleport, a log looping, a bad fix).
    public func brokenAtJumps(speed: Double = 100, distance: Double = 50) -> ReportTrack {
        var breaks = Set(self.breaks)
        for index in points.indices.dropFirst() {
            let a = points[index - 1], b = points[index]
            let metres = a.coordinate.distance(to: b.coordinate)
            guard metres > distance else { continue }
            let seconds = Double(a.time.duration(to: b.time).wholeNanoseconds) / 1e9
            if seconds <= 0 || metres / seconds > speed { breaks.insert(index) }
        }
        return ReportTrack(points: points, breaks: breaks.sorted())
    }

    /// At most `limit` points (at least 2 a piece): the ones that keep the track's shape best
    /// (Douglas-Peucker, refining where the track is farthest from its simplified line, until the
    /// limit). Where the line between two kept points still passes more than `tolerance` metres from
    /// a point left out, the track breaks: it draws no line through places the device was not. A
    /// track within the limit comes back whole.
    public func thinned(to limit: Int, tolerance: Double) -> ReportTrack {
        guard points.count > limit, let first = points.first else { return self }
        // Metres east and north of the first point: straight enough across a city.
        let metresPerDegree = GeoCoordinate.earthRadius * .pi / 180
        let east = metresPerDegree * max(cos(first.coordinate.latitude * .pi / 180), 0.01)
        let plane = points.map { point in
            ((point.coordinate.longitude - first.coordinate.longitude) * east, (point.coordinate.latitude - first.coordinate.latitude) * metresPerDegree)
        }

        /// The point of `a+1..<b` farthest from the segment a-b, and how far.
        func farthest(_ a: Int, _ b: Int) -> (index: Int, distance: Double) {
            PlanarChord.farthest(in: plane, from: a, to: b)
        }

        var kept = [Bool](repeating: false, count: points.count)
        var heap = SegmentHeap()
        var count = 0
        for piece in pieces {
            kept[piece.lowerBound] = true
            kept[piece.upperBound - 1] = true
            count += piece.count == 1 ? 1 : 2
            if piece.count > 2 {
                let split = farthest(piece.lowerBound, piece.upperBound - 1)
                heap.insert(Segment(distance: split.distance, start: piece.lowerBound, end: piece.upperBound - 1, split: split.index))
            }
        }
        var settled: [Segment] = []
        while count < limit, let segment = heap.removeMax() {
            guard segment.distance > 0 else { settled.append(segment); break }
            kept[segment.split] = true
            count += 1
            for (a, b) in [(segment.start, segment.split), (segment.split, segment.end)] where b > a + 1 {
                let split = farthest(a, b)
                heap.insert(Segment(distance: split.distance, start: a, end: b, split: split.index))
            }
        }
        settled += heap.elements
        var brokenAt = Set<Int>()
        for segment in settled where segment.distance > tolerance { brokenAt.insert(segment.end) }
        var thinned: [Point] = []
        var breaks: [Int] = []
        let oldBreaks = Set(self.breaks)
        for index in points.indices where kept[index] {
            if !thinned.isEmpty, oldBreaks.contains(index) || brokenAt.contains(index) { breaks.append(thinned.count) }
            thinned.append(points[index])
        }
        return ReportTrack(points: thinned, breaks: breaks)
    }
}

/// A stretch of a track between two kept points, and its point farthest from the straight line.
private struct Segment {
    var distance: Double
    var start: Int
    var end: Int
    var split: Int
}

/// A binary max-heap of segments by their distance.
private struct SegmentHeap {
    private(set) var elements: [Segment] = []

    mutating func insert(_ segment: Segment) {
        elements.append(segment)
        var child = elements.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard elements[child].distance > elements[parent].distance else { break }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    mutating func removeMax() -> Segment? {
        guard !elements.isEmpty else { return nil }
        elements.swapAt(0, elements.count - 1)
        let top = elements.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var largest = parent
            if left < elements.count, elements[left].distance > elements[largest].distance { largest = left }
            if right < elements.count, elements[right].distance > elements[largest].distance { largest = right }
            guard largest != parent else { break }
            elements.swapAt(parent, largest)
            parent = largest
        }
        return top
    }
}
