/// Carries a request's result out of the task that ran it on the simulation's executor (the test
/// reads it after the scheduler ran; nothing else touches it meanwhile).
final class SendableBox<Value>: @unchecked Sendable {
    var value: Value?
}
