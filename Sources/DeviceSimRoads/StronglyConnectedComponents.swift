/// The largest strongly connected component of a graph in CSR form (Kosaraju's two depth-first
/// passes, iterative): the nodes from which every other node of the component can be reached and
/// back. Positions snap only to these, so a route never starts or ends in a fragment of the
/// extract (a dead-end service road cut at the extract's edge, a one-way stub) from which nothing
/// else can be reached.
enum StronglyConnectedComponents {
    /// Whether each node is in the largest component.
    static func largest(nodeCount: Int, starts: [Int32], targets: [Int32]) -> [Bool] {
        guard nodeCount > 0 else { return [] }
        // Reverse graph.
        var reverseStarts = [Int32](repeating: 0, count: nodeCount + 1)
        for target in targets { reverseStarts[Int(target) + 1] += 1 }
        for index in 0..<nodeCount { reverseStarts[index + 1] += reverseStarts[index] }
        var fill = reverseStarts
        var reverseTargets = [Int32](repeating: 0, count: targets.count)
        for node in 0..<nodeCount {
            for edge in Int(starts[node])..<Int(starts[node + 1]) {
                let target = Int(targets[edge])
                reverseTargets[Int(fill[target])] = Int32(node)
                fill[target] += 1
            }
        }
        // Pass 1: finishing order on the forward graph.
        var visited = [Bool](repeating: false, count: nodeCount)
        var order: [Int32] = []
        order.reserveCapacity(nodeCount)
        var stack: [(node: Int32, next: Int32)] = []
        for root in 0..<nodeCount where !visited[root] {
            visited[root] = true
            stack.append((Int32(root), starts[root]))
            while let top = stack.last {
                let node = Int(top.node)
                if top.next < starts[node + 1] {
                    stack[stack.count - 1].next += 1
                    let target = Int(targets[Int(top.next)])
                    if !visited[target] {
                        visited[target] = true
                        stack.append((Int32(target), starts[target]))
                    }
                } else {
                    order.append(top.node)
                    stack.removeLast()
                }
            }
        }
        // Pass 2: components on the reverse graph, in reverse finishing order.
        var component = [Int32](repeating: -1, count: nodeCount)
        var sizes: [Int] = []
        var pending: [Int32] = []
        for root in order.reversed() where component[Int(root)] < 0 {
            let id = Int32(sizes.count)
            var size = 0
            component[Int(root)] = id
            pending.append(root)
            while let node = pending.popLast() {
                size += 1
                for edge in Int(reverseStarts[Int(node)])..<Int(reverseStarts[Int(node) + 1]) {
                    let source = reverseTargets[edge]
                    if component[Int(source)] < 0 {
                        component[Int(source)] = id
                        pending.append(source)
                    }
                }
            }
            sizes.append(size)
        }
        let largest = Int32(sizes.indices.max { (sizes[$0], -$0) < (sizes[$1], -$1) }!)
        return component.map { $0 == largest && sizes[Int(largest)] > 1 }
    }
}
