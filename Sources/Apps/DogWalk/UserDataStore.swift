import DeviceSimHAL
import DeviceSimTime

/// A dog friend's profile; every attribute is optional (the dog profile dialog may be left empty).
public struct DogProfile: Sendable, Hashable {
    /// The dog's sex.
    public enum Sex: String, Sendable, Hashable, CaseIterable {
        case female, male
    }

    /// An attribute of the profile, as the dialog names it.
    public enum Attribute: String, Sendable, Hashable, CaseIterable {
        case name, sex, dateOfBirth = "date-of-birth"
    }

    /// The database row id (nil before it is saved).
    public var id: Int64?
    public var name: String?
    public var sex: Sex?
    /// Date of birth, `yyyy-MM-dd`.
    public var dateOfBirth: String?
    /// The dog's id on every device of the account and on the server (nil: kept only on this device).
    public var uid: String?

    public init(id: Int64? = nil, name: String? = nil, sex: Sex? = nil, dateOfBirth: String? = nil, uid: String? = nil) {
        self.id = id
        self.uid = uid
        self.name = name
        self.sex = sex
        self.dateOfBirth = dateOfBirth
    }
}

/// A pee or a poo, placed on the map.
public struct BusinessRecord: Sendable, Hashable {
    /// What the dog did.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case pee, poo
    }

    /// The database row id (nil before it is saved).
    public var id: Int64?
    /// The dog it belongs to.
    public var dogID: Int64
    public var kind: Kind
    public var coordinate: GeoCoordinate
    /// When it was placed, on the device's clock.
    public var placedAt: VirtualInstant
    /// When it was placed, in local civil time (ISO 8601 with offset).
    public var localTime: String
    /// The record's id on every device of the account and on the server (nil: kept only on this device).
    public var uid: String?

    public init(id: Int64? = nil, dogID: Int64, kind: Kind, coordinate: GeoCoordinate, placedAt: VirtualInstant, localTime: String, uid: String? = nil) {
        self.id = id
        self.uid = uid
        self.dogID = dogID
        self.kind = kind
        self.coordinate = coordinate
        self.placedAt = placedAt
        self.localTime = localTime
    }
}

/// Who the user data belongs to: an account on the server (with its access token) or an offline account.
public struct UserAccount: Sendable, Hashable {
    public var email: String?
    public var accessToken: String?
    /// True for an offline account (no server).
    public var isOffline: Bool

    public init(email: String?, accessToken: String?, isOffline: Bool) {
        self.email = email
        self.accessToken = accessToken
        self.isOffline = isOffline
    }

    /// An offline account.
    public static let offline = UserAccount(email: nil, accessToken: nil, isOffline: true)
}

/// The app's user data: the account, the dog friends and their business records.
public struct UserData: Sendable, Hashable {
    public var account: UserAccount
    public var dogs: [DogProfile]
    public var records: [BusinessRecord]

    public init(account: UserAccount, dogs: [DogProfile] = [], records: [BusinessRecord] = []) {
        self.account = account
        self.dogs = dogs
        self.records = records
    }
}

/// The device's local database of the app's user data. Each write is one transaction: when it fails
/// (``StorageError``), everything saved before is exactly as it was.
///
/// While a signed-in account's data is kept (not an offline account), every change (a dog added or
/// edited, a record added or deleted) is queued in the same transaction as the change itself
/// (``pendingChanges()``), until ``applySync(_:through:)`` takes the server's reply.
///
/// ```swift
/// guard let store = device.userData else { return }
/// let saved = try store.addRecord(BusinessRecord(dogID: dog, kind: .poo, coordinate: here, placedAt: device.now, localTime: device.civilTime.timestamp))
/// ```
public protocol UserDataStore: AnyObject {
    /// The saved user data, or nil when there is none (the app was never signed in on this device).
    func load() throws(StorageError) -> UserData?
    /// Replaces all user data with `data` (a sign-in caching the server's copy, a new offline account);
    /// `queued`: every dog and record of it is queued as a change too (data the device had before it
    /// was ever synced).
    func replaceAll(with data: UserData, queued: Bool) throws(StorageError)
    /// Saves the account (a new access token).
    func saveAccount(_ account: UserAccount) throws(StorageError)
    /// Adds a dog; returns it with its id.
    func addDog(_ dog: DogProfile) throws(StorageError) -> DogProfile
    /// Updates a saved dog (by its id); `edits` are what changed (queued for a signed-in account).
    func updateDog(_ dog: DogProfile, edits: [DogProfileEdit]) throws(StorageError)
    /// Appends a business record; returns it with its id.
    func addRecord(_ record: BusinessRecord) throws(StorageError) -> BusinessRecord
    /// Deletes a business record by id.
    func deleteRecord(id: Int64) throws(StorageError)
    /// The changes queued for the server, oldest first.
    func pendingChanges() throws(StorageError) -> [PendingChange]
    /// Takes the server's reply to the changes queued up to `sequence`: they leave the queue, and the
    /// data becomes the server's with the changes queued since applied on top (``UserDataRebase``).
    /// Returns the user data now saved.
    func applySync(_ reply: UserDataSyncReply, through sequence: Int64) throws(StorageError) -> UserData
    /// Closes the database (the app stops or is killed); a later call opens it again.
    func close()
}

extension UserDataStore {
    /// Replaces all user data with `data`, queuing nothing.
    public func replaceAll(with data: UserData) throws(StorageError) {
        try replaceAll(with: data, queued: false)
    }
}

/// A ``UserDataStore`` in memory, for unit tests of flows: writes are all or nothing, and
/// ``failWrites(with:count:)`` makes the next writes fail the way a full disk would.
///
/// ```swift
/// let store = InMemoryUserDataStore(UserData(account: .offline, dogs: [DogProfile(name: "Rex")]))
/// device.userData = store
/// store.failWrites(with: .noSpace(key: "business record"), count: 1)
/// ```
public final class InMemoryUserDataStore: UserDataStore {
    /// What is saved (nil: nothing yet).
    public private(set) var data: UserData?
    /// The changes queued for the server.
    public private(set) var pending: [PendingChange] = []
    private var nextID: Int64 = 1
    private var nextSequence: Int64 = 1
    private var failure: (error: StorageError, remaining: Int)?

    /// A store holding `data` (dogs and records without ids get ids 1, 2, ...).
    public init(_ data: UserData? = nil) {
        if let data { try? replaceAll(with: data) }
    }

    /// The next `count` writes throw `error` and change nothing.
    public func failWrites(with error: StorageError, count: Int = 1) {
        failure = (error, count)
    }

    public func load() throws(StorageError) -> UserData? { data }

    public func replaceAll(with data: UserData, queued: Bool) throws(StorageError) {
        try checkWrite()
        var copy = data
        nextID = max(nextID, (copy.dogs.compactMap(\.id) + copy.records.compactMap(\.id)).max().map { $0 + 1 } ?? 1)
        for index in copy.dogs.indices where copy.dogs[index].id == nil { copy.dogs[index].id = newID() }
        for index in copy.records.indices where copy.records[index].id == nil { copy.records[index].id = newID() }
        self.data = copy
        pending = []
        guard queued, !copy.account.isOffline else { return }
        for dog in copy.dogs where dog.uid != nil { queue(.addDog(dog)) }
        for record in copy.records {
            if let dogUID = copy.dogs.first(where: { $0.id == record.dogID })?.uid, record.uid != nil { queue(.addRecord(record, dogUID: dogUID)) }
        }
    }

    public func saveAccount(_ account: UserAccount) throws(StorageError) {
        try checkWrite()
        data = data.map { var copy = $0; copy.account = account; return copy } ?? UserData(account: account)
    }

    public func addDog(_ dog: DogProfile) throws(StorageError) -> DogProfile {
        try checkWrite()
        var saved = dog
        saved.id = newID()
        data?.dogs.append(saved)
        if saved.uid != nil { queue(.addDog(saved)) }
        return saved
    }

    public func updateDog(_ dog: DogProfile, edits: [DogProfileEdit]) throws(StorageError) {
        try checkWrite()
        if let index = data?.dogs.firstIndex(where: { $0.id == dog.id }) { data?.dogs[index] = dog }
        if let uid = dog.uid, !edits.isEmpty { queue(.editDog(uid: uid, edits: edits)) }
    }

    public func addRecord(_ record: BusinessRecord) throws(StorageError) -> BusinessRecord {
        try checkWrite()
        var saved = record
        saved.id = newID()
        data?.records.append(saved)
        if saved.uid != nil, let dogUID = data?.dogs.first(where: { $0.id == record.dogID })?.uid { queue(.addRecord(saved, dogUID: dogUID)) }
        return saved
    }

    public func deleteRecord(id: Int64) throws(StorageError) {
        try checkWrite()
        if let uid = data?.records.first(where: { $0.id == id })?.uid { queue(.deleteRecord(uid: uid)) }
        data?.records.removeAll { $0.id == id }
    }

    public func pendingChanges() throws(StorageError) -> [PendingChange] { pending }

    public func applySync(_ reply: UserDataSyncReply, through sequence: Int64) throws(StorageError) -> UserData {
        try checkWrite()
        guard var saved = data else { return UserData(account: .offline) }
        pending.removeAll { $0.sequence <= sequence }
        let target = UserDataRebase.target(local: saved, server: reply.data, pending: pending.map(\.change))
        saved.dogs = target.dogs.map { dog in
            var dog = dog
            if dog.id == nil { dog.id = newID() }
            return dog
        }
        let dogIDs = Dictionary(saved.dogs.compactMap { dog in dog.uid.map { ($0, dog.id!) } }, uniquingKeysWith: { first, _ in first })
        saved.records = target.records.compactMap { record, dogUID in
            guard let dogID = dogIDs[dogUID] else { return nil }
            var record = record
            record.dogID = dogID
            if record.id == nil { record.id = newID() }
            return record
        }.sorted { ($0.placedAt, $0.id ?? 0) < ($1.placedAt, $1.id ?? 0) }
        data = saved
        return saved
    }

    public func close() {}

    /// Queues `change` when the account is signed in (not offline).
    private func queue(_ change: UserDataChange) {
        guard data?.account.isOffline == false else { return }
        pending.append(PendingChange(sequence: nextSequence, change: change))
        nextSequence += 1
    }

    private func newID() -> Int64 {
        defer { nextID += 1 }
        return nextID
    }

    private func checkWrite() throws(StorageError) {
        guard let current = failure else { return }
        failure = current.remaining > 1 ? (current.error, current.remaining - 1) : nil
        throw current.error
    }
}
