import DeviceSimTime

/// What a sign-in returned: an access token, or the server's demand for a new password (a first
/// sign-in with the temporary password it sent).
public enum SignInOutcome: Sendable, Hashable {
    /// The credential is valid: the app holds this access token.
    case signedIn(accessToken: String)
    /// The password was temporary: the app must send a new one with ``AccountService/setNewPassword(email:session:newPassword:)``.
    case newPasswordRequired(session: String)
}

/// Why an account request failed, in words a user can act on.
public enum AccountError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No user has this e-mail with this password.
    case wrongCredential
    /// The e-mail is already in the user pool.
    case alreadyRegistered(email: String)
    /// Not an e-mail address.
    case invalidEmail(String)
    /// The new password is not acceptable.
    case weakPassword(reason: String)
    /// The new-password session is unknown or used.
    case invalidSession
    /// The access token is unknown.
    case invalidToken
    /// The device cannot reach the server.
    case unreachable
    /// The request was sent but no answer came back in time (the connection dropped on the way): the
    /// server may or may not have acted on it.
    case noAnswer
    /// The server failed the request (an injected failure: `server-failures`).
    case serverError(operation: String)

    public var description: String {
        switch self {
        case .wrongCredential: "wrong e-mail or password; check them and try again"
        case .alreadyRegistered(let email): "\(email) is already registered; sign in instead"
        case .invalidEmail(let text): "'\(text)' is not an e-mail address"
        case .weakPassword(let reason): "the new password is not accepted: \(reason)"
        case .invalidSession: "the sign-in has expired; sign in again"
        case .invalidToken: "the session has expired; sign in again"
        case .unreachable: "no connection to the server; try again when online"
        case .noAnswer: "the server did not answer in time (the connection dropped); try again"
        case .serverError(let operation): "the server failed the request '\(operation)'; try again later"
        }
    }
}

/// Accounts on a server: a user pool of e-mail addresses and passwords, where signing up sends a
/// temporary password by e-mail and the first sign-in with it asks for a new one. Any app signs in
/// through it; DeviceSim's `SimulatedAccountServer` implements it in virtual time.
///
/// ```swift
/// try await accounts.signUp(email: "anna@example.org")          // the server mails a temporary password
/// switch try await accounts.signIn(email: "anna@example.org", password: temporary) {
/// case .newPasswordRequired(let session):
///     let token = try await accounts.setNewPassword(email: "anna@example.org", session: session, newPassword: "walkies-2026")
/// case .signedIn(let token): ...
/// }
/// ```
public protocol AccountService: AnyObject {
    /// Adds `email` to the user pool with empty user data, and mails it a temporary password.
    func signUp(email: String) async throws(AccountError)
    /// Checks the credential.
    func signIn(email: String, password: String) async throws(AccountError) -> SignInOutcome
    /// Replaces the temporary password; returns the access token.
    func setNewPassword(email: String, session: String, newPassword: String) async throws(AccountError) -> String
}

/// The server's copy of an account's user data (the dog-walk map's dog friends and business records).
///
/// ```swift
/// let data = try await server.userData(accessToken: token)
/// ```
public protocol UserDataService: AnyObject {
    /// The user data of the account the token belongs to.
    func userData(accessToken: String) async throws(AccountError) -> UserData
}
