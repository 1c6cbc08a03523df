import DeviceSimHAL
import DeviceSimServer
import DeviceSimTime

/// The device-facing flows of the task-list app (the app's document numbers them 2.1 to 2.12), written
/// against the HAL, a ``TaskBackend`` and a ``TaskListStore`` only:
///
/// - **2.1 Entering the app**: signed in, the app downloads the tasks (2.5) and shows them (2.3);
///   signed out, it asks to sign in (2.2).
/// - **2.2 Signing in**: the sign-in methods (prompt `sign-in-method`); the device's accounts of the
///   chosen method (A1, prompt `choose-account`), or, with none, the offer to add one (A2, prompt
///   `add-account`: `add` / `cancel`), then waiting for the system's "add account" screen; cancelling
///   goes back to the methods.
/// - **2.3 / 2.4** The task list and the important tasks, switching between them.
/// - **2.5 Download**: no internet is flow E1 (prompt `download-failed`: `retry` / `cancel`).
/// - **2.6 - 2.10** Add, edit, delete, mark as important: each change is saved on the device at once
///   and followed by **2.11 Upload**: no internet is flow E2 (prompt `upload-failed`: `retry`), and
///   the changes stay on the device, marked unsent, until an upload succeeds.
/// - **2.12 Signing out** (after unsent changes are uploaded), back to 2.2.
///
/// Nothing changed on the device is lost: every change is saved before it is sent, a change made
/// while an upload is under way is sent after it, and a download or an upload that meets another
/// device's newer list merges the two (``TaskListMerge``) instead of replacing either. A change made
/// while the E2 dialog shows and the device is back online is uploaded at once (the dialog goes).
/// Signing out waits for the unsent changes to be uploaded; offline, its E2 dialog offers `retry` or
/// `cancel` (stay signed in), and the task list takes no changes meanwhile.
///
/// Events (device's trace): `app.started`, `screen.shown` (`screen`, `count`), `signed-in`,
/// `sign-in.cancelled`, `form.shown`, `form.hidden`, `task.added`, `task.edited`, `task.deleted`,
/// `task.marked`, `task.not-found`, `download.started`, `download.succeeded`, `download.failed`,
/// `download.cancelled`, `upload.started`, `upload.succeeded`, `upload.conflict` (another device
/// uploaded first: the lists were merged), `upload.failed`, `sign-out.cancelled`, `signed-out`,
/// `storage.failed`, `action.ignored` (`action`, `reason`: an action the screen does not offer now).
///
/// ```swift
/// let app = TaskListApp(device: device, backend: server, store: InMemoryTaskListStore())
/// app.start()
/// app.addTask("Buy milk")
/// ```
public final class TaskListApp {
    /// The app's settings.
    public struct Settings: Sendable, Hashable {
        /// The sign-in methods the app offers, in order.
        public var signInMethods = ["google", "email"]

        /// The defaults.
        public init() {}
    }

    /// What the app shows.
    public enum Screen: String, Sendable, Hashable {
        case starting, signIn = "sign-in", accounts, addAccount = "add-account", waitingForAccount = "waiting-for-account"
        case tasks, important, signingOut = "signing-out"
        /// 2.6: the ways to change the task list.
        case changeTasks = "change-tasks"
    }

    /// The device.
    public let device: Device
    /// The storage server.
    public let backend: any TaskBackend
    /// Where the app keeps its state on the device.
    public let store: any TaskListStore
    /// The settings.
    public let settings: Settings
    /// What the app shows now.
    public private(set) var screen: Screen = .starting
    /// The app's state (as saved on the device after every change).
    public private(set) var state = TaskListLocalState()
    /// The tasks the current screen lists.
    public var shownTasks: [TaskItem] { screen == .important ? state.tasks.filter(\.important) : state.tasks }

    private var changeCount = 0
    private var uploading = false
    private var signingOut = false
    private var signOutAfterUpload = false
    /// The E2 dialog while it shows: taking it back answers `retry`.
    private var uploadDialog: (withdrawal: PromptWithdrawal, retry: () -> Void)?
    private lazy var appTasks = AppTasks(device: device)
    /// Whether the app was stopped (killed or restarted): it does nothing afterwards.
    public var isStopped: Bool { appTasks.isStopped }

    /// Creates the app; ``start()`` launches it.
    public init(device: Device, backend: any TaskBackend, store: any TaskListStore, settings: Settings = Settings()) {
        self.device = device
        self.backend = backend
        self.store = store
        self.settings = settings
    }

    // MARK: User actions

    /// 2.1: the user launches the app.
    public func start() {
        run { await $0.enter() }
    }

    /// 2.4: "view important tasks" in the top bar.
    public func showImportantTasks() {
        guard state.account != nil else { return ignored("view-important") }
        show(.important)
    }

    /// 2.3: "view all tasks".
    public func showAllTasks() {
        guard state.account != nil else { return ignored("view-all") }
        show(.tasks)
    }

    /// 2.6: "change the task list" on the list screen (2.3 or 2.4): the ways to change it (2.6 step
    /// 1); choosing one (add, edit, delete, mark) runs it and the list shows again.
    public func showChangeMenu() {
        guard state.account != nil else { return ignored("change-tasks") }
        guard screen == .tasks || screen == .important else { return ignored("change-tasks", "not on a task list (2.3 or 2.4)") }
        listScreen = screen
        show(.changeTasks)
    }

    /// The list the 2.6 menu was opened on.
    private var listScreen: Screen = .tasks

    /// 2.7: "+", the text, confirm; or (`cancel`) the form is left without confirming. A text of only
    /// spaces cannot be confirmed: the form says why and the user leaves it.
    public func addTask(_ text: String, cancel: Bool = false) {
        guard !leaveForm("add-task", form: "add", task: nil, text: text, cancel: cancel) else { return }
        change("add-task", form: "add", task: nil) { app in
            let task = TaskItem(id: "t\(app.state.nextTaskNumber)", text: text)
            app.state.nextTaskNumber += 1
            app.state.tasks.append(task)
            return ("task.added", task)
        }
    }

    /// 2.8: "Edit" in a task's menu, the new text, confirm; or (`cancel`) the form is left without
    /// confirming (the task keeps its text). A text of only spaces cannot be confirmed, as in 2.7.
    public func editTask(_ reference: String, text: String, cancel: Bool = false) {
        guard !leaveForm("edit-task", form: "edit", task: reference, text: text, cancel: cancel) else { return }
        change("edit-task", form: "edit", task: reference) { app in
            guard let index = app.index(of: reference) else { return nil }
            app.state.tasks[index].text = text
            return ("task.edited", app.state.tasks[index])
        }
    }

    /// 2.9: "Delete" in a task's menu.
    public func deleteTask(_ reference: String) {
        change("delete-task", form: nil, task: reference) { app in
            guard let index = app.index(of: reference) else { return nil }
            return ("task.deleted", app.state.tasks.remove(at: index))
        }
    }

    /// 2.10: "Mark as important" in a task's menu (`important` nil: toggle).
    public func markTask(_ reference: String, important: Bool? = nil) {
        change("mark-important", form: nil, task: reference) { app in
            guard let index = app.index(of: reference) else { return nil }
            app.state.tasks[index].important = important ?? !app.state.tasks[index].important
            return ("task.marked", app.state.tasks[index])
        }
    }

    /// Stops the app (killed, or restarted): its tasks end and it touches nothing afterwards.
    public func stop() {
        appTasks.stop()
        uploadDialog?.withdrawal.withdraw()
        uploadDialog = nil
    }

    /// 2.12: "Sign out" in the top bar.
    public func signOut() {
        guard state.account != nil else { return ignored("sign-out") }
        guard !signingOut else { return ignored("sign-out", "already signing out") }
        run { await $0.performSignOut() }
    }

    // MARK: 2.1 and 2.2

    private func enter() async {
        state = loadState() ?? TaskListLocalState()
        device.record("app.started", [("signed-in", .bool(state.account != nil)), ("account", state.account.map(TraceValue.string) ?? .null)])
        if state.account != nil {
            show(.tasks)
            await download()
        } else {
            await signIn()
        }
    }

    private func signIn() async {
        while state.account == nil {
            show(.signIn)
            guard let method = await ask(UserPrompt(id: "sign-in-method", message: "Sign in with", choices: settings.signInMethods)) else { return }
            if device.accounts?.accounts(for: method).isEmpty ?? true {
                // A2: offer to add an account, wait for the system's screen, then A1.
                show(.addAccount)
                let offer = await ask(UserPrompt(id: "add-account", message: "There is no \(method) account on this device. Add one?", choices: ["add", "cancel"]))
                guard offer == "add", let accounts = device.accounts else {
                    device.record("sign-in.cancelled", [("method", .string(method)), ("step", .string("add-account"))])
                    continue
                }
                show(.waitingForAccount)
                let added: String? = await waitForCallback(on: device.scheduler.executor, cancelled: nil) { finish in
                    accounts.requestNewAccount(for: method) { finish($0) }
                    return nil
                }
                guard added != nil else {
                    device.record("sign-in.cancelled", [("method", .string(method)), ("step", .string("adding-account"))])
                    continue
                }
            }
            // A1: the accounts of the method.
            show(.accounts)
            let accounts = device.accounts?.accounts(for: method) ?? []
            guard let account = await ask(UserPrompt(id: "choose-account", message: "Choose a \(method) account", choices: accounts)) else { return }
            if storeUnread, let kept = loadState(), kept.account == account {
                // The file could not be read at the start but can now: what it kept for this account
                // (unsent tasks among it) is the app's state again, not overwritten by an empty list.
                state = kept
            } else {
                state = TaskListLocalState(account: account, nextTaskNumber: state.nextTaskNumber)
            }
            save()
            device.record("signed-in", [("method", .string(method)), ("account", .string(account))])
        }
        show(.tasks)
        await download()
    }

    /// Whether the saved state could not be read at the start (a read error twice over): sign-in
    /// reads it again before it saves anything, so what was unsent is not overwritten.
    private var storeUnread = false

    /// The saved state, read again once when a read fails (a one-off read error is not a lost
    /// list); nil when it cannot be read (`storage.failed`, operation `load`).
    private func loadState() -> TaskListLocalState? {
        for attempt in 1...2 {
            do {
                let loaded = try store.load()
                storeUnread = false
                return loaded
            } catch {
                guard !isStopped else { return nil }
                device.record("storage.failed", [("operation", .string("load")), ("reason", .string(error.description)), ("attempt", .int(attempt))])
                if case .corrupt = error { break }   // damaged: reading again gives the same
            }
        }
        storeUnread = true
        return nil
    }

    // MARK: 2.3 and 2.4

    private func show(_ screen: Screen) {
        self.screen = screen
        var fields: [(key: String, value: TraceValue)] = [("screen", .string(screen.rawValue))]
        if screen == .tasks || screen == .important { fields.append(("count", .int(shownTasks.count))) }
        let offers = offers(on: screen)
        if !offers.isEmpty { fields.append(("offers", .string(offers.joined(separator: "|")))) }
        device.record("screen.shown", fields)
    }

    /// What a screen offers the user, as the document lists it: 2.2 step 1 the sign-in methods; 2.3
    /// step 2 the important tasks, changing the list, signing out; 2.4 step 2 all tasks instead of the
    /// important ones; 2.6 step 1 add, edit, delete, mark important (each the scenario action of
    /// that name).
    public func offers(on screen: Screen) -> [String] {
        switch screen {
        case .signIn: settings.signInMethods
        case .tasks: ["view-important", "change-tasks", "sign-out"]
        case .important: ["view-all", "change-tasks", "sign-out"]
        case .changeTasks: ["add-task", "edit-task", "delete-task", "mark-important"]
        default: []
        }
    }

    // MARK: 2.5 Download, with E1

    private func download() async {
        guard let account = state.account else { return }
        while true {
            device.record("download.started", [("account", .string(account))])
            do throws(BackendError) {
                try await settleUnacknowledgedUpload(account: account)
                guard state.account == account, !isStopped else { return }
                let list = try await online().download(account: account)
                guard state.account == account, !isStopped else { return }
                if state.hasUnsentChanges {
                    // Changes made here before the list arrived: merged with it, then sent.
                    state.tasks = TaskListMerge.merge(base: state.base, local: state.tasks, remote: list.tasks)
                    adopt(list)
                    guard !isStopped else { return }   // killed while saving
                    device.record("download.succeeded", [("revision", .int(list.revision)), ("count", .int(state.tasks.count)), ("merged", .bool(true))])
                    show(screen == .important ? .important : .tasks)
                    await upload()
                } else {
                    state.tasks = list.tasks
                    adopt(list)
                    guard !isStopped else { return }   // killed while saving
                    device.record("download.succeeded", [("revision", .int(list.revision)), ("count", .int(list.tasks.count))])
                    show(screen == .important ? .important : .tasks)
                }
                return
            } catch {
                guard !isStopped else { return }
                device.record("download.failed", [("reason", .string(error.description))])
                let message = error == .unreachable ? "No internet connection." : "The tasks could not be loaded: \(error)."
                let choice = await ask(UserPrompt(id: "download-failed", message: message, choices: ["retry", "cancel"]))
                guard choice == "retry" else {
                    device.record("download.cancelled", [("showing", .string("tasks on the device"))])
                    return
                }
            }
        }
    }

    // MARK: 2.6 - 2.10 Changes

    /// A user action the current screen does not offer (no one is signed in: the sign-in screens
    /// show), recorded instead of dropped so that a scenario's author sees why nothing happened.
    private func ignored(_ action: String, _ reason: String = "no one is signed in (the sign-in screens show)") {
        device.record("action.ignored", [("action", .string(action)), ("reason", .string(reason))])
    }

    private func change(_ action: String, form: String?, task reference: String?, _ apply: @escaping (TaskListApp) -> (event: String, task: TaskItem)?) {
        guard state.account != nil else { return ignored(action) }
        guard screen != .signingOut else { return ignored(action, "signing out: the task list is hidden until the sign-out ends or is cancelled") }
        if let form { device.record("form.shown", [("form", .string(form))] + (reference.map { [("task", TraceValue.string($0))] } ?? [])) }
        guard let (event, task) = apply(self) else {
            device.record("task.not-found", [("task", .string(reference ?? ""))])
            if let form { device.record("form.hidden", [("form", .string(form))]) }
            return
        }
        changeCount += 1
        state.hasUnsentChanges = true
        save()
        guard !isStopped else { return }   // killed during the save: the user saw nothing saved
        device.record(event, [("task", .string(task.id)), ("text", .string(task.text)), ("important", .bool(task.important)), ("count", .int(state.tasks.count))])
        if let form { device.record("form.hidden", [("form", .string(form))]) }
        if screen == .tasks || screen == .important { show(screen) }
        if screen == .changeTasks { show(listScreen) }
        if let dialog = uploadDialog, device.connectivity?.state != .offline {
            // Back online with the E2 dialog still up: the change goes up now, and the dialog goes.
            uploadDialog = nil
            dialog.withdrawal.withdraw()
            dialog.retry()
        }
        run { await $0.upload() }
    }

    /// The add or edit form left without a change: cancelled by the user, or a text of only spaces
    /// that the form does not accept (`form.refused`, then the user goes back). True when the form
    /// was left; false when the change goes ahead.
    private func leaveForm(_ action: String, form: String, task reference: String?, text: String, cancel: Bool) -> Bool {
        let blank = !text.contains { !$0.isWhitespace }
        guard cancel || blank else { return false }
        guard state.account != nil else {
            ignored(action)
            return true
        }
        guard screen != .signingOut else {
            ignored(action, "signing out: the task list is hidden until the sign-out ends or is cancelled")
            return true
        }
        let task = reference.map { [("task", TraceValue.string($0))] } ?? []
        device.record("form.shown", [("form", .string(form))] + task)
        if blank, !cancel {
            device.record("form.refused", [("form", .string(form)), ("text", .string(text)), ("reason", .string("A task needs a text: type one to confirm."))])
        }
        device.record("form.hidden", [("form", .string(form)), ("by", .string(cancel ? "cancel" : "back"))] + task)
        return true
    }

    private func index(of reference: String) -> Int? {
        state.tasks.firstIndex { $0.id == reference } ?? state.tasks.firstIndex { $0.text == reference }
    }

    // MARK: 2.11 Upload, with E2

    private func upload() async {
        guard !uploading else { return }   // the running upload sends this change too (see below)
        uploading = true
        defer {
            uploading = false
            if signOutAfterUpload, !state.hasUnsentChanges {
                signOutAfterUpload = false
                signingOut = false
                run { await $0.completeSignOut() }
            }
        }
        while state.hasUnsentChanges, let account = state.account, !isStopped {
            var firstAttempt = false   // whether the request failing now is one that never went out before
            do throws(BackendError) {
                if state.unacknowledged != UnacknowledgedTaskUpload(tasks: state.tasks, basedOn: state.revision) {
                    try await settleUnacknowledgedUpload(account: account)
                    guard state.account == account, !isStopped else { return }
                }
                let sent = state.tasks
                let sentChange = changeCount
                let requestID = requestID(for: sent, basedOn: state.revision)
                // Written before it is sent: if the answer never comes (a dropped connection, a kill),
                // the next upload asks about this one first (see settleUnacknowledgedUpload).
                let sending = UnacknowledgedTaskUpload(tasks: sent, basedOn: state.revision)
                if state.unacknowledged != sending {
                    state.unacknowledged = sending
                    save()
                    guard !isStopped else { return }   // killed while saving: nothing was sent
                    firstAttempt = true
                }
                device.record("upload.started", [("count", .int(sent.count))])
                let outcome = try await online().upload(account: account, tasks: sent, basedOn: state.revision, requestID: requestID)
                guard state.account == account, !isStopped else { return }
                state.unacknowledged = nil
                switch outcome {
                case .accepted(let revision):
                    adopt(TaskListSnapshot(tasks: sent, revision: revision))
                    if changeCount == sentChange { state.hasUnsentChanges = false }
                    save()
                    guard !isStopped else { return }   // killed while saving
                    device.record("upload.succeeded", [("revision", .int(revision)), ("count", .int(sent.count)), ("unsent", .bool(state.hasUnsentChanges))])
                case .conflict(let list):
                    // Another device uploaded first: join its list with this device's changes, send again.
                    state.tasks = TaskListMerge.merge(base: state.base, local: state.tasks, remote: list.tasks)
                    adopt(list)
                    if state.tasks == list.tasks, changeCount == sentChange { state.hasUnsentChanges = false }
                    save()
                    guard !isStopped else { return }   // killed while saving
                    device.record("upload.conflict", [("revision", .int(list.revision)), ("count", .int(state.tasks.count))])
                    if screen == .tasks || screen == .important { show(screen) }
                }
            } catch {
                guard !isStopped else { return }
                if !error.isTimeout, firstAttempt {
                    // This request never left, or the server refused it, and no earlier attempt of it
                    // may have arrived: nothing to ask about later.
                    state.unacknowledged = nil
                    save()
                    guard !isStopped else { return }
                }
                device.record("upload.failed", [("reason", .string(error.description)), ("unsent", .int(state.tasks.count))])
                let message = switch error {
                case .unreachable: "No internet connection: your changes are not saved to the server yet (they stay on this phone)."
                case .timedOut, .connectionLost: "The connection was lost: your changes may not be saved to the server yet (they stay on this phone)."
                default: "Your changes could not be saved to the server: \(error) (they stay on this phone)."
                }
                let choices = signingOut ? ["retry", "cancel"] : ["retry"]
                guard await askAboutUpload(UserPrompt(id: "upload-failed", message: message, choices: choices)) == "retry" else {
                    if signingOut, !isStopped { cancelSignOut() }
                    return
                }
            }
        }
    }

    /// Sends again, as it was, the upload whose answer never came, before anything else is merged or
    /// sent: the server answers it as it did the first time (or stores it now, if it never arrived).
    /// Stored, its list becomes the base this device's later changes are changes of, so a task it
    /// added and changed since is one task, not two; refused, it is forgotten (the next upload meets
    /// the server's newer list and merges). Events: `upload.resent` (`count`), `upload.settled`
    /// (`applied`, `revision`).
    private func settleUnacknowledgedUpload(account: String) async throws(BackendError) {
        guard let pending = state.unacknowledged else { return }
        guard pending.basedOn == state.revision else {
            state.unacknowledged = nil   // the device has taken a newer list since: nothing to settle
            save()
            return
        }
        device.record("upload.resent", [("count", .int(pending.tasks.count))])
        let outcome: TaskUploadOutcome
        // Only an answer settles it: when this attempt fails too, the first one may still have arrived.
        outcome = try await online().upload(
            account: account, tasks: pending.tasks, basedOn: pending.basedOn, requestID: requestID(for: pending.tasks, basedOn: pending.basedOn))
        guard state.account == account, !isStopped else { return }
        state.unacknowledged = nil
        switch outcome {
        case .accepted(let revision):
            adopt(TaskListSnapshot(tasks: pending.tasks, revision: revision))
            guard !isStopped else { return }   // killed while saving
            device.record("upload.settled", [("applied", .bool(true)), ("revision", .int(revision))])
        case .conflict:
            save()
            guard !isStopped else { return }   // killed while saving
            device.record("upload.settled", [("applied", .bool(false)), ("revision", .int(state.revision))])
        }
    }

    /// The request id of an upload of `tasks` based on `revision`: made from the device, the base
    /// revision and the list's contents, so a retry of the same upload (also after a restart) has the
    /// same id and the server answers it once, and any other upload has another.
    private func requestID(for tasks: [TaskItem], basedOn revision: Int) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325   // FNV-1a: the same on every run and machine
        for task in tasks {
            for byte in "\(task.id)\u{1F}\(task.text)\u{1F}\(task.important)\u{1E}".utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
        }
        return "\(device.id)-r\(revision)-\(String(hash, radix: 16))"
    }

    /// Takes `list` as the server's list the device is now in step with.
    private func adopt(_ list: TaskListSnapshot) {
        state.base = list.tasks
        state.revision = list.revision
        let highest = (list.tasks + state.tasks).compactMap(TaskListMerge.number(of:)).max() ?? 0
        state.nextTaskNumber = max(state.nextTaskNumber, highest + 1)
        save()
    }

    /// Shows the E2 dialog; a change made once the device is back online takes it back and answers
    /// `retry` (``change(_:form:task:_:)``).
    private func askAboutUpload(_ prompt: UserPrompt) async -> String? {
        guard let notifications = device.notifications else { return nil }
        return await waitForCallback(on: device.scheduler.executor, cancelled: nil) { [weak self] finish in
            let withdrawal = notifications.ask(prompt, timeout: nil) { answer in
                self?.uploadDialog = nil
                finish(answer)
            }
            self?.uploadDialog = (withdrawal, { finish("retry") })
            return { withdrawal.withdraw() }
        }
    }

    // MARK: 2.12 Sign out

    private func performSignOut() async {
        if state.hasUnsentChanges {
            show(.signingOut)
            signingOut = true
            if uploading {
                // The running upload finishes the sign-out; an E2 dialog it shows now asks again,
                // offering to cancel the sign-out.
                signOutAfterUpload = true
                if let dialog = uploadDialog {
                    uploadDialog = nil
                    dialog.withdrawal.withdraw()
                    dialog.retry()
                }
                return
            }
            await upload()
            guard !state.hasUnsentChanges else { return }   // cancelled (see cancelSignOut) or stopped
            signingOut = false
        }
        await completeSignOut()
    }

    /// The user cancelled the sign-out at its E2 dialog: she stays signed in, nothing lost.
    private func cancelSignOut() {
        signingOut = false
        signOutAfterUpload = false
        device.record("sign-out.cancelled", [("unsent", .int(state.tasks.count))])
        show(.tasks)
    }

    private func completeSignOut() async {
        guard state.account != nil else { return }
        let account = state.account
        state = TaskListLocalState(nextTaskNumber: 1)
        save()
        device.record("signed-out", [("account", account.map(TraceValue.string) ?? .null)])
        await signIn()
    }

    // MARK: Helpers

    private func save() {
        do {
            try store.save(state)
        } catch {
            guard !isStopped else { return }   // killed during this write: it records nothing more
            device.record("storage.failed", [("operation", .string("save")), ("reason", .string(error.description))])
        }
    }

    private func online() throws(BackendError) -> any TaskBackend {
        if device.connectivity?.state == .offline { throw .unreachable }
        return backend
    }

    /// Shows a dialog that stays until the user answers it.
    private func ask(_ prompt: UserPrompt) async -> String? {
        guard let notifications = device.notifications else { return nil }
        return await waitForCallback(on: device.scheduler.executor, cancelled: nil) { finish in
            // Taken back when the app stops (killed or restarted): the next run shows its own dialogs.
            let withdrawal = notifications.ask(prompt, timeout: nil) { finish($0) }
            return { withdrawal.withdraw() }
        }
    }

    private func run(_ operation: @escaping @Sendable (TaskListApp) async -> Void) {
        appTasks.run(self, operation)
    }
}
