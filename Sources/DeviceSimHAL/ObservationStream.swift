import DeviceSimClock

/// An observation (a HAL driver's callbacks) turned into an `AsyncStream`, for app code that writes
/// `for await` instead of callbacks and holds only the driver's protocol.
///
/// Values are yielded on the thread that delivers them (the simulation's, in a simulation), in order.
/// When the consumer stops iterating or is cancelled, the observation is cancelled at the next value
/// the driver delivers, on that same thread: the stream never touches the driver from another thread.
/// When `observe` returns nil (no such hardware), the stream ends at once.
enum ObservationStream {
    static func make<Value: Sendable>(
        of type: Value.Type = Value.self,
        bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy = .unbounded,
        _ observe: (@escaping (Value) -> Void) -> ObservationToken?
    ) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: bufferingPolicy)
        let holder = TokenHolder()
        holder.token = observe { value in
            if case .terminated = continuation.yield(value) {
                holder.token?.cancel()
                holder.token = nil
            }
        }
        if holder.token == nil { continuation.finish() }
        return stream
    }
}

/// Keeps an observation alive for as long as its stream is consumed; touched only on the thread that
/// delivers the observed values.
private final class TokenHolder {
    var token: ObservationToken?
}
