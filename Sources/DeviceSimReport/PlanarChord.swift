/// The step both Douglas-Peucker simplifications of the report take (tracks, and streets): among the
/// points strictly between two kept ones, the one farthest from the straight line joining them.
///
/// ```swift
/// let (index, distance) = PlanarChord.farthest(in: metres, from: 0, to: metres.count - 1)
/// ```
enum PlanarChord {
    /// The point of `points[a+1..<b]` farthest from the segment `points[a]`-`points[b]`, and its
    /// distance, in the points' own units; `(a, -1)` when there is no point between them.
    static func farthest(in points: [(Double, Double)], from a: Int, to b: Int) -> (index: Int, distance: Double) {
        var best = (index: a, distance: -1.0)
        guard b > a + 1 else { return best }
        let (ax, ay) = points[a], (bx, by) = points[b]
        let dx = bx - ax, dy = by - ay, lengthSquared = dx * dx + dy * dy
        for index in a + 1..<b {
            var px = points[index].0 - ax, py = points[index].1 - ay
            if lengthSquared > 0 {
                let along = min(max((px * dx + py * dy) / lengthSquared, 0), 1)
                px -= along * dx
                py -= along * dy
            }
            let distance = (px * px + py * py).squareRoot()
            if distance > best.distance { best = (index, distance) }
        }
        return best
    }
}
