@testable import DeviceSimTime
import Testing

@Suite struct SequenceSetTests {
    /// Random inserts, removals and lookups, clustered so that probe chains wrap and removals shift
    /// elements back: the set must always agree with `Set<UInt64>`.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func agreesWithSetUnderRandomInsertsAndRemovals(seed: UInt64) {
        var random = SeededRandomGenerator(seed: seed)
        var set = SequenceSet()
        var reference = Set<UInt64>()
        for step in 0..<50_000 {
            let element = random.next() % 3_000
            switch random.next() % 3 {
            case 0:
                set.insert(element)
                reference.insert(element)
            case 1:
                set.remove(element)
                reference.remove(element)
            default:
                #expect(set.contains(element) == reference.contains(element), "step \(step)")
            }
            #expect(set.count == reference.count)
        }
        for element in 0..<3_000 as Range<UInt64> { #expect(set.contains(element) == reference.contains(element)) }
        #expect(reference.count > 100)
    }

    /// Elements that share their low bits share a bit of the lookup filter, more than its counter
    /// holds (300 of them): removing some must not hide the others, and removing all must find none.
    @Test func elementsSharingAFilterBitStayFoundAsOthersAreRemoved() {
        var set = SequenceSet()
        let colliding = (1...300).map { UInt64($0) << 24 | 5 }
        for element in colliding { set.insert(element) }
        for element in colliding.prefix(299) { set.remove(element) }
        #expect(set.contains(colliding[299]))
        #expect(!colliding.prefix(299).contains { set.contains($0) })
        #expect(!set.contains(5))
        set.remove(colliding[299])
        #expect(set.isEmpty)
        #expect(!set.contains(colliding[299]))
        set.insert(7)
        set.remove(7)
        #expect(!set.contains(7))
        #expect(!set.contains(5 | 1 << 24))
    }
}
