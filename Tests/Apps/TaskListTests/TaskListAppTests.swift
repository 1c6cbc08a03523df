import DeviceSim
import DeviceSimTaskList
import DeviceSimTesting
import PropertyBased
import Testing

@Suite struct TaskListAppTests {
    struct Setup {
        let simulation: TestSimulation
        let phone: TestDevice
        let server: SimulatedTaskServer
        let store: InMemoryTaskListStore
        let app: TaskListApp
    }

    static func make(tasks: [String] = ["Buy milk"], signedIn: Bool = true) -> Setup {
        let simulation = TestSimulation(seed: 1)
        let phone = simulation.addDevice("phone", at: GeoCoordinate(latitude: 55.75, longitude: 37.61), gpsOn: false)
        let server = SimulatedTaskServer(scheduler: simulation.scheduler, events: simulation.trace,
                                         lists: ["anna": tasks.enumerated().map { TaskItem(id: "t\($0.offset + 1)", text: $0.element) }])
        let store = InMemoryTaskListStore(TaskListLocalState(account: signedIn ? "anna" : nil))
        let app = TaskListApp(device: phone.device, backend: server, store: store)
        app.start()
        return Setup(simulation: simulation, phone: phone, server: server, store: store, app: app)
    }

    @Test func aChangeIsSavedOnTheDeviceBeforeItIsSent() throws {
        let setup = Self.make()
        try setup.simulation.advance(by: .seconds(1))
        setup.app.addTask("Water the plants")
        // Saved at once, marked unsent, before the server has answered.
        #expect(setup.store.state.tasks.map(\.text) == ["Buy milk", "Water the plants"])
        #expect(setup.store.state.hasUnsentChanges)
        #expect(setup.server.list(of: "anna").tasks.count == 1)
        try setup.simulation.advance(by: .seconds(1))
        #expect(setup.server.list(of: "anna").tasks.map(\.text) == ["Buy milk", "Water the plants"])
        #expect(!setup.store.state.hasUnsentChanges && setup.store.state.revision == 2)
    }

    @Test func eachListAndTheChangeMenuSayWhatTheyOffer() throws {
        let setup = Self.make()
        try setup.simulation.advance(by: .seconds(1))
        setup.app.showImportantTasks()
        setup.app.showChangeMenu()
        setup.app.addTask("Water the plants")
        let offers = setup.simulation.events(named: "screen.shown").compactMap { event in
            event.fields.first { $0.key == "offers" }.map { "\(event.fields[0].value)=\($0.value)" }
        }
        #expect(offers.suffix(3) == [
            "\(TraceValue.string("important"))=\(TraceValue.string("view-all|change-tasks|sign-out"))",
            "\(TraceValue.string("change-tasks"))=\(TraceValue.string("add-task|edit-task|delete-task|mark-important"))",
            "\(TraceValue.string("important"))=\(TraceValue.string("view-all|change-tasks|sign-out"))",
        ])
        #expect(setup.app.screen == .important)
        #expect(setup.app.offers(on: .signIn) == ["google", "email"])
    }

    @Test func anActionWhileSignedOutIsRecordedAsIgnoredAndChangesNothing() throws {
        let setup = Self.make(signedIn: false)
        try setup.simulation.advance(by: .seconds(1))
        setup.app.addTask("Water the plants")
        setup.app.showImportantTasks()
        setup.app.signOut()
        let ignored = setup.simulation.events(named: "action.ignored")
        #expect(ignored.map { $0["action"]?.description } == ["add-task", "view-important", "sign-out"])
        #expect(ignored.allSatisfy { $0["reason"]?.description == "no one is signed in (the sign-in screens show)" })
        #expect(setup.store.state.tasks.isEmpty)
        #expect(setup.simulation.events(named: "form.shown").isEmpty)
    }

    @Test func aChangeDuringAnUploadGoesUpAfterIt() throws {
        let setup = Self.make()
        try setup.simulation.advance(by: .seconds(1))
        setup.app.addTask("One")
        try setup.simulation.advance(by: .milliseconds(100))   // the first upload is in flight
        setup.app.addTask("Two")
        try setup.simulation.advance(by: .seconds(1))
        #expect(setup.server.list(of: "anna").tasks.map(\.text) == ["Buy milk", "One", "Two"])
        #expect(setup.simulation.events(named: "tasks.uploaded").count == 2)
        #expect(!setup.app.state.hasUnsentChanges)
    }

    @Test func aDownloadNeverReplacesUnsentChanges() throws {
        // The app was closed with a change the server never got; at the next start it uploads it.
        let setup = Self.make(tasks: ["Old"])
        try setup.store.save(TaskListLocalState(account: "anna", tasks: [TaskItem(id: "t1", text: "Old"), TaskItem(id: "t2", text: "Made offline")], revision: 1, hasUnsentChanges: true, nextTaskNumber: 3))
        let restarted = TaskListApp(device: setup.phone.device, backend: setup.server, store: setup.store)
        restarted.start()
        try setup.simulation.advance(by: .seconds(2))
        #expect(setup.server.list(of: "anna").tasks.map(\.text) == ["Old", "Made offline"])
        #expect(restarted.state.tasks.map(\.text) == ["Old", "Made offline"])
    }

    /// One user action or connectivity change, some seconds after the previous one.
    enum Step: Sendable, CustomStringConvertible {
        case add, edit(Int), delete(Int), mark(Int), offline, online

        init(draw: Int) {
            switch draw % 8 {
            case 0, 1: self = .add
            case 2: self = .edit(draw / 8)
            case 3: self = .delete(draw / 8)
            case 4: self = .mark(draw / 8)
            case 5, 6: self = .offline
            default: self = .online
            }
        }

        var description: String {
            switch self {
            case .add: "add"
            case .edit(let n): "edit \(n)"
            case .delete(let n): "delete \(n)"
            case .mark(let n): "mark \(n)"
            case .offline: "offline"
            case .online: "online"
            }
        }
    }

    /// Random edits under random connectivity, the user retrying E2 whenever the internet is back:
    /// after the last upload the server holds exactly what the device holds, which is exactly what a
    /// plain list given the same edits holds.
    @Test func noEditIsLostUnderAnyConnectivityPattern() async {
        await propertyCheck(count: 120, input: Gen.int(in: 0...Int(Int32.max)).array(of: 1...60)) { draws in
            let setup = Self.make(tasks: [])
            var model: [TaskItem] = []
            var number = 0
            try setup.simulation.advance(by: .seconds(1))
            for draw in draws {
                let step = Step(draw: draw)
                switch step {
                case .add:
                    number += 1
                    setup.app.addTask("task \(number)")
                    model.append(TaskItem(id: "t\(model.count + 1)", text: "task \(number)"))   // ids checked below by text only
                case .edit(let n) where !model.isEmpty:
                    let index = n % model.count
                    setup.app.editTask(setup.app.state.tasks[index].id, text: "edited \(draw)")
                    model[index].text = "edited \(draw)"
                case .delete(let n) where !model.isEmpty:
                    let index = n % model.count
                    setup.app.deleteTask(setup.app.state.tasks[index].id)
                    model.remove(at: index)
                case .mark(let n) where !model.isEmpty:
                    let index = n % model.count
                    setup.app.markTask(setup.app.state.tasks[index].id)
                    model[index].important.toggle()
                case .offline:
                    setup.phone.setOnline(false)
                case .online:
                    setup.phone.setOnline(true)
                    setup.phone.answer(prompt: "upload-failed", with: "retry", after: .seconds(1))
                default:
                    break
                }
                #expect(setup.app.state.tasks.map(\.text) == model.map(\.text), "after \(step)")
                // Gaps from none (a change while an upload is in flight) to minutes.
                let gaps: [Duration] = [.zero, .milliseconds(50), .milliseconds(150), .milliseconds(250), .seconds(1), .seconds(5), .seconds(60), .seconds(300)]
                try setup.simulation.advance(by: gaps[(draw / 16) % gaps.count])
            }
            // The internet comes back for good and the user retries once more.
            setup.phone.setOnline(true)
            setup.phone.answer(prompt: "upload-failed", with: "retry", after: .seconds(1))
            try setup.simulation.advance(by: .seconds(600))
            let server = setup.server.list(of: "anna").tasks
            #expect(!setup.app.state.hasUnsentChanges)
            #expect(server == setup.app.state.tasks)
            #expect(server.map(\.text) == model.map(\.text) && server.map(\.important) == model.map(\.important))
            #expect(setup.store.state == setup.app.state, "the device's saved state is the app's")
        }
    }
}
