/// What a connection that drops while a request is on its way loses: the request (the server never
/// sees it) or the reply (the server acted on it, and the device never hears back).
public enum LostInFlight: String, Sendable, Hashable, CaseIterable {
    /// The server never received the request.
    case request
    /// The server handled the request; its reply never reached the device.
    case reply
}
