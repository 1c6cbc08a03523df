import DeviceSim
import DeviceSimTaskList
import DeviceSimTesting
import Testing

/// Issue 48, items 1 and 2: a read error at the start loses no unsent task, and a stopped app leaves
/// no dialog of its own on the screen.
@Suite struct Issue48TaskListTests {
    /// A store whose first `failingLoads` reads fail (the file itself intact).
    final class FlakyStore: TaskListStore {
        let kept: InMemoryTaskListStore
        var failingLoads: Int

        init(_ state: TaskListLocalState, failingLoads: Int) {
            kept = InMemoryTaskListStore(state)
            self.failingLoads = failingLoads
        }

        func load() throws(StorageError) -> TaskListLocalState {
            if failingLoads > 0 {
                failingLoads -= 1
                throw .readFailed(key: "task list", reason: "an I/O error while reading the database; try again")
            }
            return try kept.load()
        }

        func save(_ state: TaskListLocalState) throws(StorageError) { try kept.save(state) }
    }

    static let unsent = TaskListLocalState(
        account: "anna", tasks: [TaskItem(id: "t1", text: "Buy milk"), TaskItem(id: "t2", text: "Water the plants")], revision: 1,
        base: [TaskItem(id: "t1", text: "Buy milk")], hasUnsentChanges: true, nextTaskNumber: 3)

    static func make(failingLoads: Int) -> (TestSimulation, TestDevice, FlakyStore, TaskListApp) {
        let simulation = TestSimulation(seed: 1)
        let phone = simulation.addDevice("phone", at: GeoCoordinate(latitude: 69.65, longitude: 18.96), gpsOn: false)
        let server = SimulatedTaskServer(scheduler: simulation.scheduler, events: simulation.trace, lists: ["anna": [TaskItem(id: "t1", text: "Buy milk")]])
        let store = FlakyStore(unsent, failingLoads: failingLoads)
        let app = TaskListApp(device: phone.device, backend: server, store: store)
        return (simulation, phone, store, app)
    }

    @Test func aOneOffReadErrorAtTheStartReadsAgainAndKeepsTheUnsentTask() throws {
        let (simulation, _, store, app) = Self.make(failingLoads: 1)
        app.start()
        try simulation.advance(by: .seconds(5))
        #expect(app.state.account == "anna")
        #expect(store.kept.state.tasks.map(\.text) == ["Buy milk", "Water the plants"])
        #expect(!store.kept.state.hasUnsentChanges)   // sent
    }

    @Test func aDatabaseUnreadableTwiceIsNotOverwrittenByTheSignedOutStart() throws {
        let (simulation, _, store, app) = Self.make(failingLoads: 2)
        app.start()
        try simulation.advance(by: .seconds(5))
        #expect(app.state.account == nil)
        #expect(store.kept.state == Self.unsent)   // nothing saved over it
        #expect(simulation.events(named: "storage.failed").count == 2)
    }

    @Test func aStoppedAppWithdrawsItsSignInDialog() throws {
        let (simulation, _, _, app) = Self.make(failingLoads: 2)
        app.start()
        try simulation.advance(by: .seconds(1))
        #expect(simulation.events(named: "prompt.shown").count == 1)
        app.stop()
        try simulation.advance(by: .seconds(1))
        #expect(simulation.events(named: "prompt.withdrawn").count == 1)
    }
}
