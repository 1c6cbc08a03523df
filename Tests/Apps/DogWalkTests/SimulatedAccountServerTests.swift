import DeviceSimDogWalk
import DeviceSimHAL
import DeviceSimStorage
import DeviceSimTestSupport
import DeviceSimTime
import Testing

@Suite struct SimulatedAccountServerTests {
    /// Runs `body` on a fresh simulation with a server and returns what it returned, with the server's events.
    func run<Value: Sendable>(_ body: @escaping @Sendable (SimulatedAccountServer) async throws(AccountError) -> Value) throws -> (Result<Value, AccountError>, SimulatedAccountServer, [TraceEvent]) {
        let scheduler = EventScheduler()
        let trace = TraceRecorder()
        let server = SimulatedAccountServer(scheduler: scheduler, events: trace)
        server.addAccount(email: "ben@example.org", password: "bens-password", data: UserData(account: .offline, dogs: [DogProfile(id: 1, name: "Bella")]))
        let result = SendableBox<Result<Value, AccountError>>()
        let bound = SimulationBound(server, executor: scheduler.executor)
        scheduler.spawn {
            do throws(AccountError) { result.value = .success(try await body(bound.value)) } catch { result.value = .failure(error) }
        }
        try scheduler.run(for: .seconds(10))
        return (try #require(result.value), server, trace.events)
    }

    @Test func signingUpMailsATemporaryPasswordThatMustBeReplacedAtTheFirstSignIn() throws {
        let (result, server, events) = try run { server throws(AccountError) in
            try await server.signUp(email: "anna@example.org")
            let temporary = String(server.outbox[0].message.split(separator: " ")[4].dropLast())
            guard case .newPasswordRequired(let session) = try await server.signIn(email: "anna@example.org", password: temporary) else { return "" }
            do throws(AccountError) {
                _ = try await server.setNewPassword(email: "anna@example.org", session: session, newPassword: "short")
                return "accepted a short password"
            } catch {
                guard case .weakPassword = error else { throw error }
            }
            let token = try await server.setNewPassword(email: "anna@example.org", session: session, newPassword: "walkies-2026")
            let data = try await server.userData(accessToken: token)
            guard case .signedIn = try await server.signIn(email: "anna@example.org", password: "walkies-2026") else { return "still temporary" }
            return "\(data.account.email ?? "-") \(data.dogs.count) \(data.records.count)"
        }
        #expect(try result.get() == "anna@example.org 0 0")
        #expect(server.outbox.map(\.to) == ["anna@example.org"])
        #expect(server.outbox[0].message.hasPrefix("Your temporary password is Tmp-"))
        #expect(events.map(\.name) == [
            "account.registered", "account.user-data-created", "account.temporary-password-sent", "account.authenticated",
            "account.new-password-required", "account.password-changed", "account.token-issued", "account.user-data-served",
            "account.authenticated", "account.token-issued",
        ])
        // The same sign-up gets the same temporary password on another server (another run).
        let (_, again, _) = try run { server throws(AccountError) in try await server.signUp(email: "anna@example.org") }
        #expect(again.outbox == server.outbox)
    }

    @Test func aWrongPasswordOrAKnownEmailIsRefusedWithAClearError() throws {
        let (wrong, _, events) = try run { server throws(AccountError) in try await server.signIn(email: "ben@example.org", password: "guess") }
        #expect(throws: AccountError.wrongCredential) { try wrong.get() }
        #expect(AccountError.wrongCredential.description == "wrong e-mail or password; check them and try again")
        #expect(events.map(\.name) == ["account.authentication-failed"])
        let (known, _, _) = try run { server throws(AccountError) in try await server.signUp(email: "ben@example.org") }
        #expect(throws: AccountError.alreadyRegistered(email: "ben@example.org")) { try known.get() }
        let (served, _, _) = try run { server throws(AccountError) -> [String?] in
            guard case .signedIn(let token) = try await server.signIn(email: "ben@example.org", password: "bens-password") else { return [] }
            return try await server.userData(accessToken: token).dogs.map(\.name)
        }
        #expect(try served.get() == ["Bella"])
    }

    @Test func eMailAddressesCompareIgnoringCase() throws {
        let (result, server, _) = try run { server throws(AccountError) in
            do throws(AccountError) {
                try await server.signUp(email: "BEN@Example.org")
                return "registered a second account"
            } catch {
                guard case .alreadyRegistered = error else { throw error }
            }
            guard case .signedIn = try await server.signIn(email: "Ben@EXAMPLE.org", password: "bens-password") else { return "not signed in" }
            return "ok"
        }
        #expect(try result.get() == "ok")
        #expect(server.outbox.isEmpty, "no second temporary password is mailed")
    }

    @Test func aSyncIsAppliedOnceADeletedRecordNeverReturnsAndAStaleEditIsRefused() throws {
        let scheduler = EventScheduler()
        let trace = TraceRecorder()
        let server = SimulatedAccountServer(scheduler: scheduler, events: trace)
        server.addAccount(email: "kati@example.ee", password: "pw", data: UserData(account: .offline, dogs: [DogProfile(id: 1, name: "Muri", uid: "d1")]))
        server.acceptToken("tok", for: "kati@example.ee")
        let pee = BusinessRecord(dogID: 0, kind: .pee, coordinate: GeoCoordinate(latitude: 58.38, longitude: 26.72), placedAt: .zero, localTime: "t", uid: "r1")
        func sync(_ changes: [UserDataChange], _ request: String) throws -> UserDataSyncReply {
            try server.serveSync(accessToken: "tok", changes: changes, requestID: request).get()
        }
        let first = try sync([.addRecord(pee, dogUID: "d1"), .editDog(uid: "d1", edits: [DogProfileEdit(attribute: .name, old: "Muri", new: "Mura")])], "phone-1")
        #expect(first.revision == 2 && first.data.records.map(\.uid) == ["r1"] && first.data.dogs.map(\.name) == ["Mura"])
        // The same request again (its reply was lost): answered, not applied again.
        #expect(try sync([.addRecord(pee, dogUID: "d1"), .editDog(uid: "d1", edits: [DogProfileEdit(attribute: .name, old: "Muri", new: "Mura")])], "phone-1").revision == 2)
        #expect(trace.events.filter { $0.name == "account.sync-repeated" }.count == 1)
        // Another phone deletes the record; a late add of it (another request) does not bring it back.
        _ = try sync([.deleteRecord(uid: "r1")], "tablet-1")
        #expect(try sync([.addRecord(pee, dogUID: "d1")], "phone-2").data.records.isEmpty)
        // An edit made on the old name is refused (the other value is kept); one on another attribute is applied.
        let stale = try sync([.editDog(uid: "d1", edits: [DogProfileEdit(attribute: .name, old: "Muri", new: "Miu"), DogProfileEdit(attribute: .sex, old: nil, new: "female")])], "tablet-2")
        #expect(stale.conflicts == [DogProfileConflict(dogUID: "d1", attribute: .name, yours: "Miu", kept: "Mura")])
        #expect(stale.data.dogs.map { [$0.name, $0.sex?.rawValue] } == [["Mura", "female"]])
        #expect(server.rows(of: "accounts", account: "kati@example.ee") == [[.text("kati@example.ee"), .integer(4), .integer(1), .integer(0), .integer(1)]], "counts and the revision are numbers")
        // An unknown token is refused.
        #expect(throws: AccountError.invalidToken) { try server.serveSync(accessToken: "other", changes: [], requestID: "x").get() }
    }
}
