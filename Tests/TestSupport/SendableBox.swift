/// Carries a request's result out of the task that ran it on the simulation's executor (the test
/// reads it after the scheduler ran; nothing else touches it meanwhile).
///
/// ```swift
/// let result = SendableBox<Int>()
/// scheduler.spawn { result.value = await server.count() }
/// try scheduler.run(for: .seconds(5))
/// #expect(result.value == 3)
/// ```
public final class SendableBox<Value>: @unchecked Sendable {
    /// The result, once the task has set it.
    public var value: Value?

    /// An empty box.
    public init() {}
}
