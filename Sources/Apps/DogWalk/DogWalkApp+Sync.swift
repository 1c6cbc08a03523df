import DeviceSimHAL
import DeviceSimServer
import DeviceSimTime

/// Keeping a signed-in account's user data in step with the server (the document caches the server's
/// user data at sign-in; it does not say when changes go back, so the app decides):
///
/// - every change (a record placed or deleted, a dog added or edited) is saved on the device together
///   with its place in a queue of changes (one transaction), and the app syncs at once: it sends the
///   queue with a request id and takes the server's user data back;
/// - it syncs too when the app starts with a signed-in account (a second phone of the account sees
///   the first one's changes then), and, after a sync that failed, when the device is back online
///   (offline) or 30 s later (a dropped connection, a server error);
/// - a retry of the same queue has the same request id, so the server applies it once; a dog edit
///   names the value the user saw, so the server applies it only over that value and otherwise keeps
///   the other device's value and says so (`dog-profile.conflict`); records are added and deleted by
///   their uid, and a deleted record never comes back.
///
/// Events: `sync.started` (`changes`), `sync.succeeded` (`revision`, `sent`, `dogs`, `records`),
/// `sync.failed` (`reason`, `unsent`), `dog-profile.conflict` (`dog`, `attribute`, `yours`, `kept`).
extension DogWalkApp {
    /// What the sync is doing.
    struct SyncState {
        var running = false
        var again = false
        /// A sync failed: the next one starts when the device is back online (or after a delay).
        var owed = false
        var generation = 0
        var connectivity: ObservationToken?
        var uids = 0

        mutating func stop() {
            connectivity?.cancel()
            connectivity = nil
            generation += 1
        }
    }

    /// How long after a failed sync (not offline) the app tries again.
    static let syncRetryDelay: Duration = .seconds(30)

    /// A new uid for a dog (`d`) or a record (`r`): the device, the instant and a count, so the same
    /// on every run and never the same for two of them.
    func newUID(_ kind: String) -> String {
        sync.uids += 1
        return "\(device.id)-\(kind)\(device.now.nanoseconds / 1_000_000)-\(sync.uids)"
    }

    /// Syncs now, or after the sync under way (which then sends what was queued meanwhile).
    func requestSync() {
        guard syncService != nil, let account = userData?.account, !account.isOffline, account.accessToken != nil, !isStopped else { return }
        observeConnectivity()
        if sync.running {
            sync.again = true
            return
        }
        sync.running = true
        run { await $0.syncUntilDone() }
    }

    private func observeConnectivity() {
        guard sync.connectivity == nil, let connectivity = device.connectivity else { return }
        sync.connectivity = connectivity.observe { [weak self] state in
            guard let self, state != .offline, sync.owed, !isStopped else { return }
            requestSync()
        }
    }

    private func syncUntilDone() async {
        defer { sync.running = false }
        repeat {
            sync.again = false
            guard let service = syncService, let store, let token = userData?.account.accessToken, !isStopped else { return }
            let pending: [PendingChange]
            do {
                pending = try store.pendingChanges()
            } catch {
                device.record("sync.failed", [("reason", .string(error.description)), ("unsent", .null)])
                return
            }
            device.record("sync.started", [("changes", .int(pending.count))])
            let reply: UserDataSyncReply
            do {
                reply = try await service.sync(accessToken: token, changes: pending.map(\.change), requestID: requestID(for: pending))
            } catch {
                guard !isStopped else { return }
                syncFailed(error.description, unsent: pending.count, retry: error != .backend(.unreachable) && error != .signedOut)
                return
            }
            guard !isStopped else { return }
            let saved: UserData
            do {
                saved = try store.applySync(reply, through: pending.last?.sequence ?? 0)
            } catch {
                // Killed while saving, or the storage refused: the queue is as it was, and is sent again
                // (with the same request id, so the server does not apply it twice).
                guard !isStopped else { return }
                syncFailed(error.description, unsent: pending.count, retry: true)
                return
            }
            sync.owed = false
            adopt(saved, conflicts: reply.conflicts)
            device.record("sync.succeeded", [
                ("revision", .int(reply.revision)), ("sent", .int(pending.count)), ("dogs", .int(saved.dogs.count)), ("records", .int(saved.records.count)),
            ])
        } while sync.again && !isStopped
    }

    private func syncFailed(_ reason: String, unsent: Int, retry: Bool) {
        device.record("sync.failed", [("reason", .string(reason)), ("unsent", .int(unsent))])
        sync.owed = true
        guard retry else { return }
        let generation = sync.generation
        device.scheduler.schedule(after: Self.syncRetryDelay) { [weak self] in
            guard let self, !isStopped, sync.generation == generation, sync.owed, device.connectivity?.state != .offline else { return }
            requestSync()
        }
    }

    /// The request id of a sync sending `pending`: the device, the queue's first and last numbers and
    /// a hash of its changes, so a retry of the same queue (also after a restart) has the same id and
    /// any other queue another.
    private func requestID(for pending: [PendingChange]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325   // FNV-1a: the same on every run and machine
        for change in pending {
            for byte in (PendingChangeCoding.encode(change.change) + "\u{1E}").utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        return "\(device.id)-\(pending.first?.sequence ?? 0)-\(pending.last?.sequence ?? 0)-\(String(hash, radix: 16))"
    }

    /// Shows the synced user data: the selected dog (by uid), its records on the map (when they
    /// changed), and the edits the server refused.
    private func adopt(_ data: UserData, conflicts: [DogProfileConflict]) {
        let before = userData
        userData = data
        for conflict in conflicts {
            let dog = data.dogs.first { $0.uid == conflict.dogUID }
            device.record("dog-profile.conflict", [
                ("dog", Self.text(dog?.name ?? conflict.dogUID)), ("attribute", .string(conflict.attribute.rawValue)),
                ("yours", Self.text(conflict.yours)), ("kept", Self.text(conflict.kept)),
                ("reason", .string("another phone changed it first; the profile keeps its value")),
            ])
        }
        guard let selected = selectedDog else { return }
        selectedDog = data.dogs.first { $0.uid == selected.uid && selected.uid != nil } ?? data.dogs.first { $0.id == selected.id }
        if selectedDog != selected, let dog = selectedDog {
            device.record("dog.selected", [("id", .int(Int(dog.id ?? 0))), ("name", Self.text(dog.name))])
        }
        if isMapShown, before?.records != data.records || before?.dogs != data.dogs { refreshMap() }
    }
}
