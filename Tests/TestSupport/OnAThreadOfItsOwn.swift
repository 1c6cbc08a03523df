import Foundation

/// Runs heavy synchronous work (building a city's road network and its hierarchies in a debug build takes
/// many seconds) on a thread of its own and resumes the awaiting test with its result.
///
/// Swift Testing runs tests on the cooperative thread pool, which has one thread per core: a synchronous
/// test that computes for a minute holds one of them, and on a two-core machine two such tests leave none
/// for the other suites, whose waits on real-time limits then run out. Work handed here leaves the pool
/// free. Check the result with `#expect` back in the test, where issues are recorded against it.
///
/// ```swift
/// @Test func preparedNetworksRouteAsBuiltOnes() async throws {
///     let answers = try await onAThreadOfItsOwn { try RoadNetwork(contentsOf: extract).places.places.count }
///     #expect(answers > 0)
/// }
/// ```
public func onAThreadOfItsOwn<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Swift.Result { try work() })
        }
        thread.name = "heavy test work"
        thread.stackSize = 8 << 20
        thread.start()
    }
}
