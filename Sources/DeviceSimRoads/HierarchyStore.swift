import Foundation

/// A graph's contraction hierarchy, built once on first use and shared by copies of the graph
/// (or given at once, read from a prepared file).
final class HierarchyStore: @unchecked Sendable {
    private let lock = NSLock()
    private var hierarchy: ContractionHierarchy?

    init() {}

    /// A store holding `hierarchy` already.
    init(hierarchy: ContractionHierarchy) { self.hierarchy = hierarchy }

    /// The hierarchy, built for `graph` if this is the first use (a thread wanting it meanwhile waits).
    func hierarchy(for graph: RoadGraph) -> ContractionHierarchy {
        lock.lock()
        defer { lock.unlock() }
        if let hierarchy { return hierarchy }
        let built = ContractionHierarchy(graph)
        hierarchy = built
        return built
    }

    /// The hierarchy if it has been built.
    var computed: ContractionHierarchy? {
        lock.lock()
        defer { lock.unlock() }
        return hierarchy
    }
}
