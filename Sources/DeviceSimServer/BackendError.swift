/// Why a backend request failed, with a message an app can show.
public enum BackendError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No account has this e-mail address.
    case notFound(email: String)
    /// The account is unknown to the backend.
    case unknownAccount(String)
    /// The account has no group of this name.
    case unknownGroup(String)
    /// The user turned location tracking off; location requests are denied.
    case locationOff(String)
    /// The server failed the request (an injected failure).
    case serverError(operation: String)
    /// The request was abandoned on the device: the app was stopped (killed or restarted) before its
    /// answer came. Nobody failed it; a stopped app shows nothing of it.
    case cancelled(operation: String)
    /// The device is offline.
    case unreachable
    /// The request or its reply was lost in the network: no reply came within the timeout (the
    /// server may or may not have acted on it).
    case timedOut(operation: String)
    /// The device's interface went down while the request was on its way: the request failed at
    /// once (the server may or may not have acted on it).
    case connectionLost(operation: String)
    /// The campus game: the user has not joined today's game.
    case notInGame(String)
    /// The campus game: no objective of today's game has this id.
    case unknownObjective(String)
    /// The campus game: the server's own check puts the reported position outside the objective.
    case notAtObjective(String)
    /// The campus game: the request names a day's game that is over (it reached the server after
    /// that day's local midnight); nothing was counted.
    case gameOver(String)

    /// Whether the request went out and no answer came (it timed out, or the connection was lost on
    /// the way): the server may have handled it, so a retry must carry the same request id.
    public var isTimeout: Bool {
        switch self {
        case .timedOut, .connectionLost: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .notFound(let email): "no user with the e-mail address \(email)"
        case .unknownAccount(let account): "unknown account '\(account)'"
        case .unknownGroup(let group): "no group named '\(group)'"
        case .locationOff(let account): "\(account) has turned location tracking off"
        case .serverError(let operation): "the server failed the request '\(operation)'"
        case .cancelled(let operation): "the request '\(operation)' was abandoned: the app stopped before the answer came"
        case .unreachable: "the server cannot be reached: the device is offline"
        case .timedOut(let operation): "the server did not answer '\(operation)' in time: the connection dropped"
        case .connectionLost(let operation): "the connection was lost while '\(operation)' was on its way"
        case .notInGame(let account): "\(account) has not joined today's game"
        case .unknownObjective(let objective): "today's game has no objective '\(objective)'"
        case .notAtObjective(let objective): "the server could not confirm the position at '\(objective)'"
        case .gameOver(let game): "the game of \(game) is over: it reached the server after that day's midnight"
        }
    }
}
