@testable import DeviceSimTime
import Testing

@Suite struct BinaryMinHeapTests {
    /// Random inserts and removals, checked against a sorted array doing the same work.
    @Test(arguments: [1, 2, 3, 42, 1_000])
    func removesInAscendingOrderLikeASortedArray(seed: UInt64) {
        var random = SeededRandomGenerator(seed: seed)
        var heap = BinaryMinHeap<Int>()
        var reference: [Int] = []
        for _ in 0..<5_000 {
            if reference.isEmpty || Int.random(in: 0..<3, using: &random) > 0 {
                let value = Int.random(in: -50...50, using: &random)   // many duplicates
                heap.insert(value)
                reference.append(value)
                reference.sort()
            } else {
                #expect(heap.min == reference.first)
                #expect(heap.removeMin() == reference.removeFirst())
            }
            #expect(heap.count == reference.count)
        }
        while !reference.isEmpty { #expect(heap.removeMin() == reference.removeFirst()) }
        #expect(heap.isEmpty && heap.min == nil)
    }

    /// Elements holding references are moved, not leaked or freed twice.
    @Test func releasesEveryElementExactlyOnce() {
        final class Token: Comparable {
            nonisolated(unsafe) static var alive = 0
            let rank: Int
            init(_ rank: Int) { self.rank = rank; Token.alive += 1 }
            deinit { Token.alive -= 1 }
            static func < (lhs: Token, rhs: Token) -> Bool { lhs.rank < rhs.rank }
            static func == (lhs: Token, rhs: Token) -> Bool { lhs.rank == rhs.rank }
        }
        do {
            var heap = BinaryMinHeap<Token>()
            for rank in [5, 3, 8, 1, 9, 2, 7] { heap.insert(Token(rank)) }
            #expect(Token.alive == 7)
            #expect(heap.removeMin().rank == 1)
            #expect(heap.removeMin().rank == 2)
            #expect(Token.alive == 5)
        }
        #expect(Token.alive == 0)
    }
}
