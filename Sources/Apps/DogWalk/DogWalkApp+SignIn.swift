import DeviceSimHAL
import DeviceSimTime

/// Starting the app and asking sign-in: sign-in (with 6-A, a new password at the first sign-in),
/// sign-up (2-A) and an offline account (2-B).
extension DogWalkApp {
    /// The `sign-in-options` prompt's choices.
    public static let signInOptions = ["sign-in", "sign-up", "offline"]

    /// The user boots the app: it loads the user data from the local database, or asks sign-in, and
    /// starts the service (the document has no user step for it: "Starting the service" follows
    /// "Starting the app"), so the map and the marker show while the user signs in.
    public func startApp() {
        guard !isStopped else { return }
        device.record("app.started")
        run { await $0.loadUserData() }
        startService()
    }

    /// The user fills the credential form (e-mail and password) and submits it.
    public func enterCredential(email: String, password: String) {
        submit(.credential(email: email, password: password), to: .credential, action: "enter-credential")
    }

    /// The user types an e-mail into the sign-up form and clicks the sign-up button.
    public func signUp(email: String) {
        submit(.signUp(email: email), to: .signUp, action: "sign-up")
    }

    /// The user types a new password and confirms it (types it again).
    public func enterNewPassword(_ password: String, confirmation: String) {
        submit(.newPassword(password, confirmation: confirmation), to: .newPassword, action: "enter-new-password")
    }

    private func loadUserData() async {
        guard let store = store else {
            device.record("user-data.load-failed", [("reason", .string("the device has no local database"))])
            return
        }
        do {
            if let data = try store.load() {
                userData = data
                device.record("user-data.loaded", Self.summary(data))
                requestSync()
                if isMapShown { await showDogFriendOnMap() }
                return
            }
            device.record("user-data.none")
        } catch .corrupt(let file, let reason) {
            device.record("user-data.corrupt", [("file", .string(file)), ("reason", .string(reason)),
                                                 ("action", .string("the damaged file was set aside; sign in to restore the data your account keeps on the server (an offline account kept its data only on this phone: start again offline)"))])
        } catch {
            guard !isStopped else { return }
            device.record("user-data.load-failed", [("reason", .string(error.description))])
            return
        }
        await askSignIn()
    }

    /// Asking sign-in, until the user has user data (or the app stops).
    private func askSignIn() async {
        while !isStopped {
            device.record("sign-in.options-shown", [("options", .string(Self.signInOptions.joined(separator: "|")))])
            guard let choice = await ask(UserPrompt(id: "sign-in-options", message: "Sign in to keep your dog walks", choices: Self.signInOptions)) else { return }
            switch choice {
            case "sign-up":
                await signUpFlow()
            case "offline":
                device.record("sign-in.options-hidden")
                let data = UserData(account: .offline)
                device.record("user-data.initialized", Self.summary(data))
                if await cache(data) { return }
            default:
                guard let data = await signInFlow() else { continue }
                if await cache(data) { return }
            }
        }
    }

    /// Sign-in, steps 3 to 9 (with 6-A); nil when it failed and the options show again.
    private func signInFlow() async -> UserData? {
        guard case .credential(let email, let password)? = await waitFor(.credential, [("asks", .string("email|password"))]) else { return nil }
        device.record("sign-in.requested", [("email", .string(email))])
        guard let accounts, let userDataService else { return signInFailed(email, AccountError.unreachable.description) }
        guard device.connectivity?.state != .offline else { return signInFailed(email, AccountError.unreachable.description) }
        var token: String
        do {
            switch try await accounts.signIn(email: email, password: password) {
            case .signedIn(let issued):
                token = issued
            case .newPasswordRequired(let session):
                guard let issued = await newPasswordFlow(email: email, session: session, accounts: accounts) else { return nil }
                token = issued
            }
        } catch {
            return signInFailed(email, error.description)
        }
        guard !isStopped else { return nil }
        device.record("sign-in.succeeded", [("email", .string(email))])
        device.record("sign-in.options-hidden")
        do {
            let data = try await userDataService.userData(accessToken: token)
            device.record("user-data.downloaded", Self.summary(data))
            return data
        } catch {
            return signInFailed(email, error.description)
        }
    }

    /// 6-A: the app asks for a new password, twice, until they match and the server accepts it.
    private func newPasswordFlow(email: String, session: String, accounts: any AccountService) async -> String? {
        while !isStopped {
            guard case .newPassword(let password, let confirmation)? = await waitFor(.newPassword, [("asks", .string("password|confirmation"))]) else { return nil }
            guard password == confirmation else {
                device.record("new-password.rejected", [("reason", .string("the two passwords differ; type the same password twice"))])
                continue
            }
            do {
                let token = try await accounts.setNewPassword(email: email, session: session, newPassword: password)
                device.record("new-password.set", [("email", .string(email))])
                return token
            } catch .weakPassword(let reason) {
                device.record("new-password.rejected", [("reason", .string(reason))])
            } catch {
                _ = signInFailed(email, error.description)
                return nil
            }
        }
        return nil
    }

    /// Signing up: the form, the server's registration (which mails a temporary password).
    private func signUpFlow() async {
        guard case .signUp(let email)? = await waitFor(.signUp, [("asks", .string("email"))]) else { return }
        device.record("sign-up.requested", [("email", .string(email))])
        guard let accounts, device.connectivity?.state != .offline else {
            device.record("sign-up.failed", [("email", .string(email)), ("reason", .string(AccountError.unreachable.description))])
            return
        }
        do {
            try await accounts.signUp(email: email)
            device.record("sign-up.succeeded", [("email", .string(email)), ("next", .string("sign in with the temporary password sent to \(email)"))])
        } catch {
            device.record("sign-up.failed", [("email", .string(email)), ("reason", .string(error.description))])
        }
    }

    private func signInFailed(_ email: String, _ reason: String) -> UserData? {
        if !isStopped { device.record("sign-in.failed", [("email", .string(email)), ("reason", .string(reason))]) }
        return nil
    }

    /// Step 10: the app caches the user data in the local database; false (the options show again)
    /// when the save fails.
    private func cache(_ data: UserData) async -> Bool {
        guard let store = store else { return false }
        do {
            try store.replaceAll(with: data)
            let saved = try store.load() ?? data
            userData = saved
            device.record("user-data.saved", [("what", .string("user data"))] + Self.summary(saved))
            if isMapShown { await showDogFriendOnMap() }
            return true
        } catch {
            if !isStopped { device.record("user-data.save-failed", [("what", .string("user data")), ("reason", .string(error.description))]) }
            return false
        }
    }

    static func summary(_ data: UserData) -> [(key: String, value: TraceValue)] {
        [("account", .string(data.account.isOffline ? "offline" : data.account.email ?? "")),
         ("dogs", .int(data.dogs.count)), ("records", .int(data.records.count))]
    }
}
