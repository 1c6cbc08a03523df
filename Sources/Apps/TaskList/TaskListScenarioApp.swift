import DeviceSimHAL
import DeviceSimScenario
import DeviceSimSimulated
import DeviceSimStorage

/// The task-list app in scenario files. The scenario's devices share one simulated task server; each
/// device gets an account manager holding its `device-accounts`.
///
/// ```yaml
/// app:
///   name: task-list
///   settings:
///     sign-in-methods: [google, email]
///     device-accounts: { google: [anna@gmail.com] }
///     signed-in: anna@gmail.com          # signed in before the scenario starts (default: signed out)
///     server-tasks: { anna@gmail.com: [Buy milk, { text: Call mom, important: true }] }
/// timeline:
///   - { at: 5s, do: answer, prompt: sign-in-method, choice: google }
///   - { at: 1m, do: add-task, text: Water the plants }
///   - { at: 2m, do: mark-important, task: Water the plants }
/// ```
public final class TaskListScenarioApp: ScenarioApp {
    public struct Settings: Sendable {
        var app = TaskListApp.Settings()
        var deviceAccounts: [String: [String]] = [:]
        var signedIn: String?
        var serverTasks: [String: [TaskItem]] = [:]
        var latency: Duration = .milliseconds(200)
        var failures: [ServerFailure<SimulatedTaskServer.Operation>] = []
    }

    public enum Action: Sendable {
        case viewImportant, viewAll, signOut, changeTasks
        case add(text: String, cancel: Bool)
        case edit(task: String, text: String, cancel: Bool)
        case delete(task: String)
        case mark(task: String, important: Bool?)
        case addAccount(method: String, account: String)
        case cancelAddAccount(method: String)
    }

    public static let name = "task-list"
    public static var serverTables: [String]? { SimulatedTaskServer.tables.keys.sorted() }
    public static var serverTableColumns: [String: [String]]? { SimulatedTaskServer.tables }
    public static let settingKeys = ["sign-in-methods", "device-accounts", "signed-in", "server-tasks", "server-latency", "server-failures"]
    public static let prompts: [String]? = ["sign-in-method", "choose-account", "add-account", "download-failed", "upload-failed"]
    public static let actions: [String: [String]] = [
        "view-important": [], "view-all": [], "sign-out": [], "change-tasks": [],
        "add-task": ["text", "cancel"], "edit-task": ["task", "text", "cancel"], "delete-task": ["task"], "mark-important": ["task", "important"],
        "add-account": ["method", "account"], "cancel-add-account": ["method"],
    ]

    let app: TaskListApp
    let accounts: SimulatedDeviceAccounts?

    public static func parseSettings(_ settings: YAMLMapping?) throws(ScenarioError) -> Settings {
        var parsed = Settings()
        guard let settings else { return parsed }
        if let node = settings.optional("sign-in-methods") {
            parsed.app.signInMethods = try node.sequence(what: "list of sign-in methods").map { (method) throws(ScenarioError) in try method.string(what: "a sign-in method") }
            guard !parsed.app.signInMethods.isEmpty else { throw node.error("sign-in-methods needs at least one method") }
        }
        if let node = settings.optional("device-accounts") {
            let methods = parsed.app.signInMethods
            for (method, list) in try node.entries(what: "device-accounts (sign-in method: [accounts])") {
                guard methods.contains(method) else {
                    var message = "'\(method)' is not one of the app's sign-in methods (\(methods.joined(separator: ", "))), so its accounts could never be chosen"
                    message += NearestWord.didYouMean(method, among: methods)
                    let keyNode = (try? node.mapping(allowing: (try? node.fieldNames()) ?? [], what: "device-accounts"))?.keyNode(method) ?? node
                    throw keyNode.error(message + " (sign-in-methods: lists them)")
                }
                var accounts: [String] = []
                for item in try list.sequence(what: "list of accounts") {
                    let account = try item.string(what: "an account")
                    guard account.contains(where: { !$0.isWhitespace }) else { throw item.error("an account must not be empty") }
                    guard !accounts.contains(account) else { throw item.error("\(account) is listed twice for \(method)") }
                    accounts.append(account)
                }
                parsed.deviceAccounts[method] = accounts
            }
        }
        if let node = settings.optional("signed-in") {
            let account = try node.string(what: "the account signed in at the start")
            guard account.contains(where: { !$0.isWhitespace }), !node.isNull else {
                throw node.error("signed-in is the account signed in at the start (anna@gmail.com); leave it out to start signed out")
            }
            parsed.signedIn = account
        }
        if let node = settings.optional("server-tasks") {
            for (account, list) in try node.entries(what: "server-tasks (account: [tasks])") {
                var tasks: [TaskItem] = []
                for item in try list.sequence(what: "list of tasks") {
                    if item.isMapping {
                        let task = try item.mapping(allowing: ["text", "important"], what: "task")
                        tasks.append(TaskItem(id: "t\(tasks.count + 1)", text: try task.requiredText("text", what: "the task's text"),
                                              important: try task.optional("important")?.bool() ?? false))
                    } else {
                        let text = try item.string(what: "a task's text")
                        // As add-task's text: a task says something.
                        guard !item.isNull, text.contains(where: { !$0.isWhitespace }) else {
                            throw item.error(item.isNull ? "a task is \(text), YAML's empty value; to mean the text '\(text)', quote it" : "a task's text must not be empty or only spaces")
                        }
                        tasks.append(TaskItem(id: "t\(tasks.count + 1)", text: text))
                    }
                }
                parsed.serverTasks[account] = tasks
            }
        }
        if let node = settings.optional("server-latency") { parsed.latency = try node.duration(what: "the server's latency") }
        if let node = settings.optional("server-failures") { parsed.failures = try ServerFailure.parseList(node, server: "task list server") }
        return parsed
    }

    public static func parseAction(_ name: String, step: YAMLMapping) throws(ScenarioError) -> Action {
        switch name {
        case "view-important": return .viewImportant
        case "view-all": return .viewAll
        case "sign-out": return .signOut
        case "change-tasks": return .changeTasks
        // The text typed into the add and edit forms is any text: the app decides.
        // `cancel: true`: the user leaves the form without confirming (what was typed, if `text:`
        // says, is dropped).
        case "add-task":
            let cancel = try step.optional("cancel")?.bool() ?? false
            return .add(text: cancel ? try step.optionalTypedText("text") ?? "" : try step.typedText("text"), cancel: cancel)
        case "edit-task":
            let cancel = try step.optional("cancel")?.bool() ?? false
            return .edit(
                task: try step.requiredText("task", what: "a task (its text or id)"),
                text: cancel ? try step.optionalTypedText("text") ?? "" : try step.typedText("text"), cancel: cancel)
        case "delete-task": return .delete(task: try step.requiredText("task", what: "a task (its text or id)"))
        case "mark-important": return .mark(task: try step.requiredText("task", what: "a task (its text or id)"), important: try step.optional("important")?.bool())
        case "add-account": return .addAccount(method: try step.requiredText("method", what: "a sign-in method"), account: try step.requiredText("account", what: "the account added"))
        case "cancel-add-account": return .cancelAddAccount(method: try step.requiredText("method", what: "a sign-in method"))
        default: throw step.node.error("unknown task-list action '\(name)'")
        }
    }

    public static let keepsDataOnDevice = true


    public init(context: ScenarioAppContext, settings: Settings) {
        let device = context.device
        let simulation = context.simulation
        let server = simulation.sharedService { () -> SimulatedTaskServer in
            let server = SimulatedTaskServer(scheduler: device.scheduler, events: simulation.trace, latency: settings.latency, lists: settings.serverTasks)
            for failure in settings.failures {
                server.injectFailure(failure.operation, from: failure.fromInstant, until: failure.untilInstant, count: failure.count)
            }
            return server
        }
        simulation.registerInspectableServer(server, for: Self.name)
        let relaunch = context.isRelaunch
        if device.accounts == nil {
            let manager = SimulatedDeviceAccounts(device: device, accounts: settings.deviceAccounts)
            device.accounts = manager
            accounts = manager
        } else {
            accounts = device.accounts as? SimulatedDeviceAccounts
        }
        // The app's state lives in the device's task-list database (an SQLite file in the run's data
        // folder); `signed-in` is what it holds before the scenario starts.
        let store: any TaskListStore
        if let database = context.simulation.database(on: device, named: "task-list", migrations: SQLiteTaskListStore.migrations) {
            let sqlite = SQLiteTaskListStore(database: database)
            if let account = settings.signedIn, !relaunch {
                do {
                    try sqlite.save(TaskListLocalState(account: account))
                } catch {
                    device.record("storage.failed", [("operation", .string("save")), ("reason", .string(error.description))])
                }
            }
            store = sqlite
        } else {
            store = InMemoryTaskListStore(TaskListLocalState(account: settings.signedIn))
        }
        // Each device reaches the one server through its own connection: its latency, its
        // connectivity, and requests lost when the connection drops.
        let backend = server.client(connection: simulation.serverConnection(of: device, app: Self.name, latency: settings.latency))
        app = TaskListApp(device: device, backend: backend, store: store, settings: settings.app)
        app.start()
    }

    public func stop() {
        app.stop()
    }

    public func perform(_ action: Action) {
        switch action {
        case .viewImportant: app.showImportantTasks()
        case .viewAll: app.showAllTasks()
        case .signOut: app.signOut()
        case .changeTasks: app.showChangeMenu()
        case .add(let text, let cancel): app.addTask(text, cancel: cancel)
        case .edit(let task, let text, let cancel): app.editTask(task, text: text, cancel: cancel)
        case .delete(let task): app.deleteTask(task)
        case .mark(let task, let important): app.markTask(task, important: important)
        case .addAccount(let method, let account): accounts?.finishAdding(method: method, account: account)
        case .cancelAddAccount(let method):
            if accounts?.cancelAdding(method: method) != true {
                app.device.record("action.ignored", [
                    ("action", .string("cancel-add-account")), ("reason", .string("no '\(method)' add-account screen is open")),
                ])
            }
        }
    }
}
