import DeviceSim
import DeviceSimScenario
import DeviceSimTaskList
import DeviceSimTestSupport
import DeviceSimTime
import Testing

/// Random interleavings of edits on two or three devices of one account, connectivity drops (a third
/// of the changes have their upload's request or reply lost in flight), kills at any write and restarts, run as scenario files through the real runner; after
/// the last sync every device and the server hold the same list, every task a user was told was added
/// and nobody deleted is there, and nothing is there twice.
@Suite struct TaskListSyncPropertyTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    static let account = "anna@gmail.com"
    static let seeded = ["Buy milk", "Pay rent"]

    /// A random scenario: its YAML and its device ids.
    static func scenario(seed: UInt64) -> (yaml: String, devices: [String]) {
        var random = SeededRandomGenerator(seed: seed)
        let devices = Array(["phone", "tablet", "laptop"].prefix(2 + Int(random.next() % 2)))
        var lines: [String] = []
        var texts = seeded
        var added = 0
        var time = 0
        func step(_ device: String, _ rest: String) { lines.append("  - { at: \(time)s, device: \(device), \(rest) }") }
        for _ in 0..<30 {
            time += 1 + Int(random.next() % 40)
            let device = devices[Int(random.next() % UInt64(devices.count))]
            let roll = random.next() % 100
            defer {
                // A third of the changes have their upload caught in flight (the server's latency is
                // 200 ms): the connection drops 100 ms later, losing the request or its reply.
                if roll < 52, random.next() % 3 == 0 {
                    lines.append("  - { at: \(time).1s, device: \(device), do: drop-connection, lose: \(random.next() % 2 == 0 ? "request" : "reply") }")
                }
            }
            switch roll {
            case 0..<34:
                added += 1
                let text = "\(device) task \(added)"
                texts.append(text)
                step(device, "do: add-task, text: \(text)")
            case 34..<44: step(device, "do: delete-task, task: \(texts[Int(random.next() % UInt64(texts.count))])")
            case 44..<52: step(device, "do: mark-important, task: \(texts[Int(random.next() % UInt64(texts.count))])")
            case 52..<60: step(device, "do: go-offline")
            case 60..<68: step(device, "do: go-online")
            case 68..<76: step(device, "do: drop-connection" + (random.next() % 3 == 0 ? "" : ", lose: \(random.next() % 2 == 0 ? "request" : "reply")"))
            case 76..<82: step(device, "do: kill-app, during: \(random.next() % 2 == 0 ? "now" : "next-write")")
            case 82..<88: step(device, "do: restart-app")
            case 88..<94: step(device, "do: answer, prompt: upload-failed, choice: retry, when: showing, after: 1s")
            default: step(device, "do: answer, prompt: download-failed, choice: retry, when: showing, after: 1s")
            }
        }
        // The last sync: everyone online, open dialogs answered, then every app restarted three times:
        // the first round sends what each device kept (merging), the next ones bring everyone the
        // result (a device that uploaded in a round has its list read by the others in the next).
        time += 60
        for device in devices { step(device, "do: go-online") }
        for device in devices { step(device, "do: answer, prompt: upload-failed, choice: retry, when: showing, after: 1s") }
        for round in 1...3 {
            time += 120 * round
            for device in devices { step(device, "do: restart-app") }
        }
        let deviceLines = devices.enumerated().map { index, id in
            """
              - id: \(id)
                at: [60.17, 24.94]
                app: { name: task-list, settings: { signed-in: \(account)\(index == 0 ? ", server-tasks: { \(account): [\(seeded.joined(separator: ", "))] }" : "") } }
                account: \(account)
            """
        }
        let yaml = """
            name: random sync \(seed)
            seed: \(seed)
            duration: \(time + 300)s
            devices:
            \(deviceLines.joined(separator: "\n"))
            timeline:
            \(lines.joined(separator: "\n"))
            """
        return (yaml, devices)
    }

    /// 150 random cases with the slow suites (`DEVICESIM_SLOW_TESTS=1`, `.ci/run`), the first 30 in the default `swift test`.
    @Test(arguments: 1...(SlowTests.run ? 150 : 30) as ClosedRange<UInt64>)
    func everyDeviceAndTheServerEndWithTheSameListAndNothingLostOrDoubled(seed: UInt64) throws {
        let (yaml, devices) = Self.scenario(seed: seed)
        let scenario = try ScenarioParser.parse(yaml, file: "random-\(seed).yaml")
        let simulation = ScenarioSimulation(scenario)
        try simulation.run()
        var madeHere = false
        let server = simulation.sharedService { () -> SimulatedTaskServer in
            madeHere = true
            return SimulatedTaskServer(scheduler: simulation.scheduler, events: simulation.trace)
        }
        #expect(!madeHere, "the scenario made no task server")
        let onServer = server.list(of: Self.account).tasks
        let texts = onServer.map(\.text)

        // Nothing twice.
        #expect(Set(texts).count == texts.count, "seed \(seed): a task is on the server twice: \(texts)")
        #expect(Set(onServer.map(\.id)).count == onServer.count, "seed \(seed): two tasks share an id: \(onServer)")

        // Nothing lost: every task the app said it added, that no device deleted, is on the server.
        let events = simulation.trace.events
        let told = Set(events.filter { $0.name == "task.added" }.compactMap { $0["text"]?.description })
        let deleted = Set(events.filter { $0.name == "task.deleted" }.compactMap { $0["text"]?.description })
        for text in told.union(Self.seeded).subtracting(deleted) {
            #expect(texts.contains(text), "seed \(seed): '\(text)' was added, never deleted, and is not on the server \(texts)\n\(yaml)")
        }
        for text in texts {
            #expect(told.contains(text) || Self.seeded.contains(text), "seed \(seed): '\(text)' is on the server but nobody added it")
        }

        // Every device holds the server's list, with nothing left unsent.
        for id in devices {
            let database = try #require(simulation.device(id)?.databases.first { $0.fileName.hasSuffix(".task-list.sqlite") })
            let state = try SQLiteTaskListStore(database: database).load()
            #expect(state.tasks == onServer, "seed \(seed): \(id) holds \(state.tasks.map(\.text)), the server \(texts)\n\(yaml)")
            #expect(!state.hasUnsentChanges, "seed \(seed): \(id) still has unsent changes")
        }
    }
}
