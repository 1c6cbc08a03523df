import DeviceSim
import DeviceSimDogWalk
import DeviceSimScenario
import DeviceSimStorage
import DeviceSimTestSupport
import DeviceSimTime
import Testing

/// Random interleavings of record adds and deletes and dog-profile edits on two or three phones of
/// one account, connectivity drops (also mid-request), kills at any write and restarts, run as
/// scenario files through the real runner. After the last sync: every record a phone said it placed
/// and nobody deleted is on the server and on every phone, no deleted record is anywhere, nothing is
/// there twice or from nowhere, every phone holds the server's dog profile, and no phone has changes
/// left to send.
@Suite struct DogWalkSyncPropertyTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    static let account = "kati@example.ee"
    /// Where the phones stand when they place records (Tartu): a few spots, so records overlap.
    static let spots = [(58.38000, 26.71900), (58.38030, 26.72220), (58.38250, 26.72600), (58.38004, 26.71903)]
    static let names = ["Muri", "Mura", "Miu", "Pontu"]

    /// A random scenario: its YAML and its device ids.
    static func scenario(seed: UInt64) -> (yaml: String, devices: [String]) {
        var random = SeededRandomGenerator(seed: seed)
        func pick(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }
        let devices = Array(["phone", "tablet", "watch"].prefix(2 + pick(2)))
        var lines: [String] = []
        var time = 0
        var placed = 1
        func step(_ device: String, _ rest: String) { lines.append("  - { at: \(time)s, device: \(device), \(rest) }") }
        for device in devices { step(device, "do: start-app") }
        for _ in 0..<30 {
            time += 1 + pick(40)
            let device = devices[pick(devices.count)]
            let roll = pick(100)
            switch roll {
            case 0..<30:
                let spot = spots[pick(spots.count)]
                step(device, "do: teleport, to: [\(spot.0), \(spot.1)]")
                time += 2
                step(device, "do: close-menu")
                step(device, "do: click-marker")
                step(device, "do: click-\(pick(2) == 0 ? "pee" : "poo")")
                placed += 1
            case 30..<46:
                // A record at a spot, or the one of yesterday (record 1 on every phone).
                let spot = pick(3) == 0 ? (58.38100, 26.71900) : spots[pick(spots.count)]
                step(device, "do: click-record, near: [\(spot.0), \(spot.1)]")
                step(device, "do: open-record-list")
                step(device, "do: select-record, record: \(pick(3) == 0 ? 1 : 1 + pick(placed + 1))")
                step(device, "do: delete-record")
                step(device, "do: answer, prompt: delete-record, choice: \"yes\", after: 1s, when: next")
                step(device, "do: close-record-list")
            case 46..<56:
                step(device, "do: edit-dog-profile")
                switch pick(3) {
                case 0: step(device, "do: fill-dog-profile, name: \(names[pick(names.count)])")
                case 1: step(device, "do: fill-dog-profile, sex: \(pick(2) == 0 ? "female" : "male")")
                default: step(device, "do: fill-dog-profile, clear: [\(pick(2) == 0 ? "sex" : "date-of-birth")]")
                }
                time += 1 + pick(3)
                step(device, "do: confirm-dog-profile")
            case 56..<65: step(device, "do: go-offline")
            case 65..<74: step(device, "do: go-online")
            case 74..<84: step(device, "do: drop-connection" + (pick(3) == 0 ? "" : ", lose: \(pick(2) == 0 ? "request" : "reply")"))
            case 84..<92: step(device, "do: kill-app, during: \(pick(2) == 0 ? "now" : "next-write")")
            default: step(device, "do: restart-app")
            }
            if roll < 56, pick(3) == 0 {
                // The connection drops while the change's sync is on its way (it takes 200 ms).
                lines.append("  - { at: \(time).1s, device: \(device), do: drop-connection, lose: \(pick(2) == 0 ? "request" : "reply") }")
            }
        }
        // The last sync: everyone online, then every app restarted three times (each restart syncs):
        // the first round sends what each phone kept, the next ones bring everyone the result.
        time += 60
        for device in devices { step(device, "do: go-online") }
        for round in 1...3 {
            time += 60 * round
            for device in devices { step(device, "do: restart-app") }
        }
        let dog = "{ name: Muri, sex: female, date-of-birth: 2021-02-03 }"
        let record = "{ kind: pee, at: [58.38100, 26.71900], ago: 1d }"
        // The phones after the first may start offline: their first sync (the data they had) goes up late.
        let online = devices.indices.map { $0 == 0 || pick(2) == 0 }
        let deviceLines = devices.enumerated().map { index, id in
            var lines = [
                "  - id: \(id)", "    at: [\(spots[index].0), \(spots[index].1)]", "    online: \(online[index])", "    app:", "      name: dog-walk", "      settings:",
                "        user-data: { account: \(account), dogs: [\(dog)], records: [\(record)] }",
            ]
            if index == 0 {
                lines.append("        server-accounts: [{ email: \(account), password: Muri-2026!, dogs: [\(dog)], records: [\(record)] }]")
            }
            return lines.joined(separator: "\n")
        }
        let yaml = """
            name: random dog-walk sync \(seed)
            seed: \(seed)
            time-zone: Europe/Tallinn
            duration: \(time + 120)s
            devices:
            \(deviceLines.joined(separator: "\n"))
            timeline:
            \(lines.joined(separator: "\n"))
            """
        return (yaml, devices)
    }

    /// 120 random cases with the slow suites (`DEVICESIM_SLOW_TESTS=1`, `.ci/run`), the first 30 in the default `swift test`.
    @Test(arguments: 1...(SlowTests.run ? 120 : 30) as ClosedRange<UInt64>)
    func everyPhoneAndTheServerEndWithTheSameDataAndNothingLostOrDoubled(seed: UInt64) throws {
        let (yaml, devices) = Self.scenario(seed: seed)
        let scenario = try ScenarioParser.parse(yaml, file: "random-\(seed).yaml")
        let simulation = ScenarioSimulation(scenario)
        try simulation.run()
        var madeHere = false
        let server = simulation.sharedService { () -> SimulatedAccountServer in
            madeHere = true
            return SimulatedAccountServer(scheduler: simulation.scheduler, events: simulation.trace)
        }
        #expect(!madeHere, "the scenario made no account server")
        let kept = try #require(server.accounts[Self.account])
        let onServer = kept.data.records.compactMap(\.uid)
        let context = "seed \(seed)\n\(yaml)"

        // Nothing twice, nothing from nowhere.
        #expect(Set(onServer).count == onServer.count, "a record is on the server twice: \(onServer)\n\(context)")
        let events = simulation.trace.events
        let told = Set(events.filter { $0.name == "record.placed" }.compactMap { $0["uid"]?.description })
        let deleted = Set(events.filter { $0.name == "record.deleted" }.compactMap { $0["uid"]?.description })
        for uid in onServer {
            #expect(told.contains(uid) || uid == "seed-r1", "\(uid) is on the server but no phone placed it\n\(context)")
        }
        // Nothing lost, nothing deleted comes back.
        let expected = told.union(["seed-r1"]).subtracting(deleted)
        #expect(Set(onServer) == expected, "the server holds \(onServer.sorted()), the phones placed and kept \(expected.sorted())\n\(context)")
        #expect(kept.data.dogs.count == 1, "the server has \(kept.data.dogs.count) dogs\n\(context)")

        // The dog profile: each attribute the server holds is the seed's or a value a phone saved; and an
        // attribute only one phone changed (the user was told it was saved, and no other phone's edit
        // competed) holds that phone's last saved value.
        let dog = try #require(kept.data.dogs.first)
        let seed = DogProfile(name: "Muri", sex: .female, dateOfBirth: "2021-02-03")
        var changedBy: [DogProfile.Attribute: [String: String?]] = [:]   // attribute -> device -> its last saved value
        var shown: [String: [DogProfile.Attribute: String?]] = [:]       // the dialog each phone opened
        func value(_ event: TraceEvent, _ attribute: DogProfile.Attribute) -> String? {
            event[attribute.rawValue].flatMap { $0 == .null ? nil : $0.description }
        }
        for event in events {
            guard let device = event.device else { continue }
            if event.name == "dog-profile.dialog-shown" {
                shown[device] = Dictionary(uniqueKeysWithValues: DogProfile.Attribute.allCases.map { ($0, value(event, $0)) })
            } else if event.name == "dog-profile.updated", let before = shown[device] {
                for attribute in DogProfile.Attribute.allCases where before[attribute] != value(event, attribute) {
                    changedBy[attribute, default: [:]][device] = value(event, attribute)
                }
            }
        }
        for attribute in DogProfile.Attribute.allCases {
            let saved = Set((changedBy[attribute] ?? [:]).values)
            #expect(dog[attribute] == seed[attribute] || saved.contains(dog[attribute]),
                    "the server's \(attribute.rawValue) \(dog[attribute] ?? "nil") was never saved\n\(context)")
            if let only = changedBy[attribute], only.count == 1, let (device, last) = only.first {
                #expect(dog[attribute] == last, "only \(device) changed the \(attribute.rawValue), to \(last ?? "nil"); the server has \(dog[attribute] ?? "nil")\n\(context)")
            }
        }

        // Every phone holds the server's data, with nothing left to send.
        for id in devices {
            let database = try #require(simulation.device(id)?.databases.first { $0.fileName == "\(id).sqlite" })
            let store = SQLiteUserDataStore(database: database)
            let data = try #require(try store.load())
            let uids = data.records.compactMap(\.uid)
            #expect(Set(uids).count == uids.count, "\(id) holds a record twice: \(uids)\n\(context)")
            #expect(Set(uids) == Set(onServer), "\(id) holds \(uids.sorted()), the server \(onServer.sorted())\n\(context)")
            #expect(data.dogs.map { [$0.uid, $0.name, $0.sex?.rawValue, $0.dateOfBirth] } == kept.data.dogs.map { [$0.uid, $0.name, $0.sex?.rawValue, $0.dateOfBirth] },
                    "\(id) holds \(data.dogs), the server \(kept.data.dogs)\n\(context)")
            #expect(try store.pendingChanges().isEmpty, "\(id) still has changes to send\n\(context)")
        }
    }
}
