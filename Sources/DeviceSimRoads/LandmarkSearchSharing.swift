import Foundation

/// Hands a landmark table's backward searches from the thread computing the table to threads that
/// want the same table meanwhile, so that they help instead of waiting.
///
/// Each landmark needs a forward and a backward Dijkstra search over the whole graph, and the next
/// landmark depends on both; the two can run at once. The computing thread offers the backward
/// search, runs the forward one, then takes the backward one back: the helper's result if a helper
/// took it (waiting for it to finish if need be), or nothing if no one has started it, and then it
/// runs the search itself. So without helpers the table costs what it did, and with one it takes
/// about half as long. Helpers leave when the table is done.
///
/// ```swift
/// // The computing thread:
/// let sharing = LandmarkSearchSharing()
/// let table = LandmarkTable(graph, count: 16, sharing: sharing)  // offers, takes back
/// sharing.finish()
/// // Any other thread, meanwhile:
/// sharing.help()  // returns once the table is done
/// ```
final class LandmarkSearchSharing: @unchecked Sendable {
    private let condition = NSCondition()
    /// The reversed graph, from ``start(searching:)``.
    private var graph: CSR?
    /// A landmark whose backward search no one has started.
    private var offered: Int32?
    /// The search a helper finished, until the computing thread takes it back.
    private var searched: [Double]?
    private var isFinished = false
    private var helpedSearches = 0
    /// With true, the computing thread always waits for a helper to run the offered search instead
    /// of running it itself (for tests, which need to know a helper ran them).
    private let leavesSearchesToHelpers: Bool

    init(leavingSearchesToHelpers: Bool = false) {
        leavesSearchesToHelpers = leavingSearchesToHelpers
    }

    /// Sets the graph the backward searches run on (the reversed graph), before the first offer.
    func start(searching graph: CSR) {
        condition.lock()
        self.graph = graph
        condition.unlock()
    }

    /// Offers the backward search from `landmark` to any helper.
    func offerBackwardSearch(from landmark: Int32) {
        condition.lock()
        offered = landmark
        searched = nil
        condition.broadcast()
        condition.unlock()
    }

    /// The offered search's travel times (to the landmark from every node) if a helper ran it,
    /// waiting for it to finish; nil if no helper started it, which takes it back: then the caller
    /// runs it.
    func takeBackBackwardSearch() -> [Double]? {
        condition.lock()
        defer { condition.unlock() }
        if offered != nil, !leavesSearchesToHelpers {
            offered = nil
            return nil
        }
        while searched == nil { condition.wait() }
        defer { searched = nil }
        return searched
    }

    /// Runs offered searches until ``finish()`` is called.
    func help() {
        var scratch: DijkstraScratch?
        condition.lock()
        defer { condition.unlock() }
        while !isFinished {
            guard let landmark = offered, let graph else {
                condition.wait()
                continue
            }
            offered = nil
            if scratch == nil { scratch = DijkstraScratch(nodeCount: graph.starts.count - 1) }
            condition.unlock()
            scratch!.computeTimes(from: landmark, in: graph)
            condition.lock()
            searched = scratch!.times
            helpedSearches += 1
            condition.broadcast()
        }
    }

    /// How many searches helpers have run.
    var searchesByHelpers: Int {
        condition.lock()
        defer { condition.unlock() }
        return helpedSearches
    }

    /// Ends the sharing: helpers return.
    func finish() {
        condition.lock()
        isFinished = true
        condition.broadcast()
        condition.unlock()
    }
}
