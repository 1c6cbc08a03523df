import Foundation

/// A graph's landmark table, computed once on first use and shared by copies of the graph.
///
/// The first thread to want the table computes it. A thread that wants it meanwhile does not sleep
/// until it is done: it joins in, running searches the first one offers it (``LandmarkSearchSharing``),
/// so that two scenarios that need the same table at once take about half as long to get it, and
/// no processor sits idle meanwhile. The table is the same whoever runs which search.
///
/// Its lock is a `pthread` mutex (`NSCondition`), whose waiters sleep: a thread waiting on a
/// priority-inheritance futex (`Mutex`) spins in the kernel as long as the thread it waits for
/// runs, taking a processor another scenario could use.
final class LandmarkStore: @unchecked Sendable {
    /// The number of landmarks to choose.
    let count: Int
    private let condition = NSCondition()
    private var table: LandmarkTable?
    /// While a thread computes the table: where it offers searches to the others.
    private var sharing: LandmarkSearchSharing?

    init(count: Int) { self.count = count }

    /// A store holding `table` already (read from a prepared file).
    init(table: LandmarkTable) {
        count = table.count
        self.table = table
    }

    /// The table, computing it for `graph` if this is the first use (together with any thread that
    /// wants it meanwhile).
    func table(for graph: RoadGraph) -> LandmarkTable {
        condition.lock()
        if let table {
            condition.unlock()
            return table
        }
        if let sharing {
            condition.unlock()
            sharing.help()
            condition.lock()
            defer { condition.unlock() }
            while table == nil { condition.wait() }
            return table!
        }
        let sharing = LandmarkSearchSharing()
        self.sharing = sharing
        condition.unlock()
        let computed = LandmarkTable(graph, count: count, sharing: sharing)
        condition.lock()
        table = computed
        self.sharing = nil
        condition.broadcast()
        condition.unlock()
        sharing.finish()
        return computed
    }

    /// The table if it has been computed.
    var computed: LandmarkTable? {
        condition.lock()
        defer { condition.unlock() }
        return table
    }
}
