import DeviceSimServer

/// A change the user made to the user data of a signed-in account. The device saves it together
/// with the data it changes (one transaction), keeps it queued until the server has applied it, and
/// uploads the queue in order (``UserDataSyncService``). Dogs and records are named by their ``DogProfile/uid``
/// and ``BusinessRecord/uid``, the same on every device and on the server.
public enum UserDataChange: Sendable, Hashable {
    /// A new dog friend (5-A), with its uid.
    case addDog(DogProfile)
    /// Attributes of a dog's profile changed ("Editing dog profile"): each edit names the value the
    /// user saw, so the server applies it only over that value (never over another device's edit).
    case editDog(uid: String, edits: [DogProfileEdit])
    /// A new pee or poo, with its uid, belonging to the dog `dogUID`.
    case addRecord(BusinessRecord, dogUID: String)
    /// A record deleted from the record list.
    case deleteRecord(uid: String)
}

/// One attribute of a dog's profile changed from `old` (what the dialog showed) to `new` (nil:
/// emptied).
public struct DogProfileEdit: Sendable, Hashable {
    public var attribute: DogProfile.Attribute
    public var old: String?
    public var new: String?

    public init(attribute: DogProfile.Attribute, old: String?, new: String?) {
        self.attribute = attribute
        self.old = old
        self.new = new
    }

    /// The attributes that differ between `old` and `new`.
    public static func between(_ old: DogProfile, _ new: DogProfile) -> [DogProfileEdit] {
        DogProfile.Attribute.allCases.compactMap { attribute in
            old[attribute] == new[attribute] ? nil : DogProfileEdit(attribute: attribute, old: old[attribute], new: new[attribute])
        }
    }
}

/// A queued change and its place in the device's queue.
public struct PendingChange: Sendable, Hashable {
    /// Its number in the queue (grows; never given again in one database).
    public var sequence: Int64
    public var change: UserDataChange

    public init(sequence: Int64, change: UserDataChange) {
        self.sequence = sequence
        self.change = change
    }
}

/// An edit the server refused: another device had changed the attribute since the user saw it, so
/// the server kept that device's value (`kept`) instead of this one (`yours`).
public struct DogProfileConflict: Sendable, Hashable {
    public var dogUID: String
    public var attribute: DogProfile.Attribute
    public var yours: String?
    public var kept: String?

    public init(dogUID: String, attribute: DogProfile.Attribute, yours: String?, kept: String?) {
        self.dogUID = dogUID
        self.attribute = attribute
        self.yours = yours
        self.kept = kept
    }
}

/// The server's answer to a sync: the account's user data after the changes (dogs and records with
/// their uids; records name their dog by the server's dog ids), its revision, and the edits it
/// refused.
public struct UserDataSyncReply: Sendable, Hashable {
    public var data: UserData
    public var revision: Int
    public var conflicts: [DogProfileConflict]

    public init(data: UserData, revision: Int, conflicts: [DogProfileConflict] = []) {
        self.data = data
        self.revision = revision
        self.conflicts = conflicts
    }
}

/// Why a sync failed, in words a user can act on.
public enum UserDataSyncError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request did not get through (offline, a dropped connection, a server error).
    case backend(BackendError)
    /// The server does not know the access token: the user must sign in again.
    case signedOut

    public var description: String {
        switch self {
        case .backend(let error): "\(error); the changes stay on this phone and are sent later"
        case .signedOut: "the session has expired; sign in again to send the changes kept on this phone"
        }
    }
}

/// The server side of the dog walk's sync: the device sends its queued changes (possibly none) with a
/// request id, and gets the account's user data back. A request id the server has answered before
/// (a retry after a lost reply) is not applied again.
///
/// ```swift
/// let reply = try await sync.sync(accessToken: token, changes: queue.map(\.change), requestID: "walker-1-3-9f2c")
/// ```
public protocol UserDataSyncService: AnyObject {
    /// Applies `changes` in order (unless `requestID` was applied before) and returns the account's data.
    func sync(accessToken: String, changes: [UserDataChange], requestID: String) async throws(UserDataSyncError) -> UserDataSyncReply
}

extension DogProfile {
    /// An attribute's value as text (the date of birth as `yyyy-MM-dd`, the sex as `female`/`male`).
    public subscript(attribute: Attribute) -> String? {
        get {
            switch attribute {
            case .name: name
            case .sex: sex?.rawValue
            case .dateOfBirth: dateOfBirth
            }
        }
        set {
            switch attribute {
            case .name: name = newValue
            case .sex: sex = newValue.flatMap(Sex.init(rawValue:))
            case .dateOfBirth: dateOfBirth = newValue
            }
        }
    }
}

/// How a device takes the server's reply: the server's data, with the changes still queued on the
/// device (made after the request left) applied on top. Local ids are kept for the dogs and records
/// the device has (by uid); the others get new ones when saved.
public enum UserDataRebase {
    /// The dogs and the records (each with its dog's uid) the device holds after a sync.
    public struct Target: Sendable {
        public var dogs: [DogProfile]
        public var records: [(record: BusinessRecord, dogUID: String)]
    }

    /// The server's `data` with `pending` applied, local ids from `local`.
    public static func target(local: UserData, server data: UserData, pending: [UserDataChange]) -> Target {
        let localDogIDs = Dictionary(local.dogs.compactMap { dog in dog.uid.map { ($0, dog.id) } }, uniquingKeysWith: { first, _ in first })
        let localRecordIDs = Dictionary(local.records.compactMap { record in record.uid.map { ($0, record.id) } }, uniquingKeysWith: { first, _ in first })
        let serverDogUIDs = Dictionary(data.dogs.compactMap { dog in dog.id.flatMap { id in dog.uid.map { (id, $0) } } }, uniquingKeysWith: { first, _ in first })
        var dogs = data.dogs.map { dog in
            var dog = dog
            dog.id = dog.uid.flatMap { localDogIDs[$0] } ?? nil
            return dog
        }
        var records: [(record: BusinessRecord, dogUID: String)] = data.records.compactMap { record in
            guard let dogUID = serverDogUIDs[record.dogID] else { return nil }
            var record = record
            record.id = record.uid.flatMap { localRecordIDs[$0] } ?? nil
            return (record, dogUID)
        }
        for change in pending {
            switch change {
            case .addDog(let dog):
                guard !dogs.contains(where: { $0.uid == dog.uid }) else { continue }
                var dog = dog
                dog.id = dog.uid.flatMap { localDogIDs[$0] } ?? nil
                dogs.append(dog)
            case .editDog(let uid, let edits):
                guard let index = dogs.firstIndex(where: { $0.uid == uid }) else { continue }
                for edit in edits { dogs[index][edit.attribute] = edit.new }
            case .addRecord(let record, let dogUID):
                guard !records.contains(where: { $0.record.uid == record.uid }) else { continue }
                var record = record
                record.id = record.uid.flatMap { localRecordIDs[$0] } ?? nil
                records.append((record, dogUID))
            case .deleteRecord(let uid):
                records.removeAll { $0.record.uid == uid }
            }
        }
        return Target(dogs: dogs, records: records)
    }
}
