import DeviceSim
@testable import DeviceSimFriendLocator
import DeviceSimScenario
import Foundation
import Testing

@Suite struct ScenarioParserTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    let minimal = """
        name: minimal
        devices:
          - id: walker
            at: [52.5, 13.4]
            app: { name: dog-walk }
        timeline:
          - { at: 0s, do: start-service }
        expect:
          - event: marker.shown
            within: [0s, 1s]
        """

    func error(in text: String) -> ScenarioError? {
        do {
            _ = try ScenarioParser.parse(text, file: "test.yaml")
            return nil
        } catch {
            return error
        }
    }

    @Test func aMinimalScenarioParsesWithDefaults() throws {
        let scenario = try ScenarioParser.parse(minimal, file: "test.yaml")
        #expect(scenario.name == "minimal")
        #expect(scenario.seed == 1)
        #expect(scenario.devices.map(\.id) == ["walker"])
        #expect(scenario.devices[0].gps.interval == .seconds(1))
        #expect(scenario.timeline.map(\.action.name) == ["start-service"])
        // No duration given: the last time mentioned plus one minute.
        #expect(scenario.duration == .seconds(61))
    }

    @Test func aDeviceWithACountStandsForThatManyDevicesAlike() throws {
        let text = minimal.replacingOccurrences(of: "  - id: walker\n", with: "  - id: walker\n    count: 3\n")
            .replacingOccurrences(of: "do: start-service", with: "device: walker-2, do: start-service")
        let scenario = try ScenarioParser.parse(text, file: "test.yaml")
        #expect(scenario.devices.map(\.id) == ["walker-1", "walker-2", "walker-3"])
        #expect(scenario.devices.map(\.account) == ["walker-1", "walker-2", "walker-3"])
        #expect(Set(scenario.devices.map(\.start)).count == 1)
        #expect(scenario.servers["friend-locator"] == nil, "no device runs the friend locator and the file has no backend")
        let zero = error(in: text.replacingOccurrences(of: "count: 3", with: "count: 0"))
        #expect(zero?.description.contains("1 to 1000000, found 0") == true)
        let clash = error(in: text.replacingOccurrences(of: "timeline:", with: "  - { id: walker-2, at: [52.5, 13.4] }\ntimeline:"))
        #expect(clash?.description.contains("a second device named 'walker-2'") == true)
    }

    @Test func unknownKeysAreRejectedWithTheNearestValidKey() {
        let text = minimal.replacingOccurrences(of: "    at: [52.5, 13.4]", with: "    at: [52.5, 13.4]\n    rute: {}")
        let error = error(in: text)
        #expect(error?.description == "test.yaml:5:5: unknown key 'rute' in device; did you mean 'route'?")
    }

    @Test func unknownActionsSuggestTheNearestAction() {
        let text = minimal.replacingOccurrences(of: "do: start-service", with: "do: start-servce")
        #expect(error(in: text)?.description == "test.yaml:7:19: unknown action 'start-servce'; did you mean 'start-service'?")
    }

    @Test func malformedYAMLGivesItsPosition() {
        let error = error(in: "name: x\ndevices: [\n")
        #expect(error?.location?.line == 3)
        #expect(error?.message.hasPrefix("invalid YAML") == true)
    }

    @Test func wrongTypesSayWhatWasExpected() {
        let text = minimal.replacingOccurrences(of: "within: [0s, 1s]", with: "within: [0s, soon]")
        #expect(error(in: text)?.description == "test.yaml:10:18: expected a duration such as 90s, 5m, 1h30m or 250ms, found the value 'soon'")
    }

    @Test func outOfRangeCoordinatesAreRejected() {
        let text = minimal.replacingOccurrences(of: "[52.5, 13.4]", with: "[52.5, 213.4]")
        #expect(error(in: text)?.message == "longitude 213.4 is outside -180...180")
    }

    @Test func stepsOnUnknownDevicesAndForeignKeysAreRejected() {
        let unknownDevice = minimal.replacingOccurrences(of: "{ at: 0s, do: start-service }", with: "{ at: 0s, device: bob, do: start-service }")
        #expect(error(in: unknownDevice)?.message == "unknown device 'bob'; expected one of: walker")
        let foreignKey = minimal.replacingOccurrences(of: "{ at: 0s, do: start-service }", with: "{ at: 0s, do: start-service, for: 5s }")
        #expect(error(in: foreignKey)?.message == "'for' does not apply to the action 'start-service'")
    }

    @Test func aDurationBeyondTheLimitIsRejected() {
        #expect(error(in: minimal + "\nduration: 400d")?.message.contains("longer than the limit") == true)
        #expect(error(in: minimal + "\nduration: 0s")?.message == "duration must be greater than zero")
    }

    @Test func aliasesAreRefused() {
        let text = "name: &n x\ndescription: *n\ndevices: [{ id: a, at: [0, 0] }]\n"
        #expect(error(in: text)?.description == "test.yaml:1:7: YAML anchors (&name) are not supported in scenario files")
        let emphasis = "name: x\ndescription: |\n  *really* fine & so\ndevices: [{ id: a, at: [0, 0] }]\n"
        #expect(error(in: emphasis) == nil)
        // CRLF line ends (one Character in a Swift String): still read line by line, so a comment on
        // the first line does not hide the aliases after it.
        let crlf = "name: x # a comment\r\ndevices:\r\n  - &a { id: a, at: [0, 0] }\r\n  - *a\r\n"
        #expect(error(in: crlf)?.description == "test.yaml:3:5: YAML anchors (&name) are not supported in scenario files")
        // Columns count characters, not bytes; a lone CR ends a line; a name may start beyond ASCII.
        let wide = "name: x\rdescription: \"Grüße ✓\"\ndevices: [{ id: a, at: [0, 0] }] # ✓ *not\nseed: *ünd\n"
        #expect(error(in: wide)?.description == "test.yaml:4:7: YAML aliases (*name) are not supported in scenario files")
        let blockThenAlias = "name: x\ndescription: >-\n  & * é\n\n  *also fine\ndevices: [{ id: a, at: [0, 0] }]\nseed: *s\n"
        #expect(error(in: blockThenAlias)?.description == "test.yaml:7:7: YAML aliases (*name) are not supported in scenario files")
        // Inside a plain scalar `&` and `*` are text; where a node starts they are still refused, after a tag too.
        let plain = "name: Tom &Jerry\ndescription: 2 * 3 *is* six, & so on\ndevices: [{ id: a, at: [0, 0] }]\n"
        #expect(error(in: plain) == nil)
        #expect((try? ScenarioParser.parse(plain, file: "test.yaml"))?.name == "Tom &Jerry")
        let afterTag = "name: !!str &n x\ndevices: [{ id: a, at: [0, 0] }]\n"
        #expect(error(in: afterTag)?.description == "test.yaml:1:13: YAML anchors (&name) are not supported in scenario files")
        let inFlow = "name: x\ndevices: [{ id: a, at: [0, 0] }, *d]\n"
        #expect(error(in: inFlow)?.description == "test.yaml:2:34: YAML aliases (*name) are not supported in scenario files")
    }

    @Test func emptyAndNonMappingFilesAreRejected() {
        #expect(error(in: "")?.message == "the file is empty; expected a YAML mapping")
        #expect(error(in: "- a\n- b\n")?.message.hasPrefix("expected a scenario with keys") == true)
    }

    @Test func durationsReadAndPrintInTheSameNotation() {
        #expect(DurationText.parse("1h30m") == .seconds(5_400))
        #expect(DurationText.parse("250ms") == .milliseconds(250))
        #expect(DurationText.parse("2.5") == .milliseconds(2_500))
        #expect(DurationText.parse("2d") == .seconds(172_800))
        #expect(DurationText.parse("5 parsecs") == nil)
        #expect(DurationText.parse("-5") == nil)
        #expect(DurationText.format(.seconds(5_430)) == "1h30m30s")
    }

    @Test func theFriendLocatorServerHasAnAccountForEveryDeviceUnlessTheBackendListsThem() throws {
        let text = minimal.replacingOccurrences(of: "  - id: walker\n", with: "  - id: walker\n    count: 3\n")
            .replacingOccurrences(of: "app: { name: dog-walk }", with: "app: { name: friend-locator }")
            .replacingOccurrences(of: "do: start-service", with: "device: walker-2, do: find-friends")
            .replacingOccurrences(of: "event: marker.shown", with: "event: app.started")
        let scenario = try ScenarioParser.parse(text, file: "test.yaml")
        let server = try #require(scenario.servers["friend-locator"] as? FriendLocatorServerSpec)
        #expect(server.accounts.map(\.id) == ["walker-1", "walker-2", "walker-3"])
        let allFriends = server.accounts.allSatisfy { $0.friendOfEveryone }
        #expect(allFriends)

        let listed = text.replacingOccurrences(of: "devices:\n", with: "backend:\n  accounts: [{ id: walker-1 }]\ndevices:\n")
        let error = try #require(throws: ScenarioError.self) { try ScenarioParser.parse(listed, file: "test.yaml") }
        #expect(error.description.contains("device 'walker-2' uses the account 'walker-2', which the backend does not list"))
    }

    @Test func anEmptyAccountIsRefusedAtItsLineAndColumn() throws {
        for written in ["\"\"", "\"   \"", "''"] {
            let text = minimal.replacingOccurrences(of: "    at: [52.5, 13.4]", with: "    at: [52.5, 13.4]\n    account: \(written)")
            let error = try #require(self.error(in: text), "account: \(written) was accepted")
            #expect(error.description == "test.yaml:5:14: a device's account cannot be empty: give the account it uses (account: alice), or leave 'account' out to use the device id 'walker'")
        }
        let named = minimal.replacingOccurrences(of: "    at: [52.5, 13.4]", with: "    at: [52.5, 13.4]\n    account: alice")
        #expect(try ScenarioParser.parse(named, file: "test.yaml").devices.map(\.account) == ["alice"])
    }

    @Test func theFriendLocatorsBackendFailuresRefuseWindowsAndCountsThatFailNothing() throws {
        let text = minimal.replacingOccurrences(of: "app: { name: dog-walk }", with: "app: { name: friend-locator }")
            .replacingOccurrences(of: "do: start-service", with: "do: find-friends")
            .replacingOccurrences(of: "event: marker.shown", with: "event: app.started")
        func failures(_ rule: String) -> String {
            let withFailures = text.replacingOccurrences(of: "devices:\n", with: "backend:\n  failures: [\(rule)]\ndevices:\n")
            return error(in: withFailures)?.description ?? "parsed"
        }
        #expect(failures("{ operation: ping, within: [0s, 10m], count: 2 }") == "parsed")
        #expect(failures("{ operation: ping, within: [1m, 10s] }")
            == "test.yaml:3:41: the failure window [1m, 10s] ends before it starts: write [from, until] with the earlier time first, e.g. [10s, 1m]")
        #expect(failures("{ operation: ping, within: [10s, 10s] }").hasPrefix("test.yaml:3:41: the failure window [10s, 10s] is empty"))
        #expect(failures("{ operation: ping, count: 0 }")
            == "test.yaml:3:40: a failure's count is how many requests fail, at least 1; found 0 (leave 'count' out to fail every request in the window)")
        #expect(failures("{ operation: ping, count: -1 }").hasPrefix("test.yaml:3:40: a failure's count is how many requests fail, at least 1; found -1"))
    }

    /// A dog walk in Tartu (Scenarios/dog-walk-more/tartu.yaml) whose positions are its place names.
    static let placedDogWalk = """
        name: places
        world: tartu.yaml
        devices:
          - id: phone
            at: town-hall-square
            gps: { noise: false }
            app:
              name: dog-walk
              settings:
                user-data: { account: offline, dogs: [{ name: Rex }], records: [{ kind: pee, at: toome-hill, ago: 1h }] }
        timeline:
          - { at: 0s, do: start-app }
          - { at: 5s, do: teleport, to: toome-hill }
          - { at: 10s, do: click-record, near: toome-hill }
        expect:
          - { event: statistics.shown, within: [10s, 10s] }
        """

    @Test func everyPositionOfAScenarioMayBeAPlaceOfItsWorld() throws {
        let file = FileManager.default.currentDirectoryPath + "/Scenarios/dog-walk-more/places.yaml"
        let result = ScenarioRunner().run(try ScenarioParser.parse(Self.placedDogWalk, file: file))
        #expect(result.passed, "the record placed at toome-hill is the one clicked near toome-hill: \(result.outcomes)")

        func message(_ from: String, _ to: String, world: Bool = true) throws -> String {
            var text = Self.placedDogWalk.replacingOccurrences(of: from, with: to)
            if !world { text = text.replacingOccurrences(of: "world: tartu.yaml\n", with: "").replacingOccurrences(of: "at: town-hall-square", with: "at: [58.3803, 26.7222]") }
            return try #require(throws: ScenarioError.self) { try ScenarioParser.parse(text, file: file) }.message
        }
        let forms = "a position is [latitude, longitude], { lat: …, lon: … } or a place name of the scenario's world"
        #expect(try message("near: toome-hill", "near: tome-hill") == "unknown place 'tome-hill'; did you mean 'toome-hill'? (\(forms): river-bank, toome-hill, town-hall-square)")
        #expect(try message("at: toome-hill, ago", "at: 58.38, ago") == "expected a position, found '58.38' (\(forms): river-bank, toome-hill, town-hall-square)")
        #expect(try message("near: toome-hill", "near: toome-hill", world: false) == "unknown place 'toome-hill' (\(forms); place names come from the `places:` of the file `world:` names, and this scenario has none)")
    }

    @Test func aValueWithAColonAndASpaceIsToldToBeQuoted() throws {
        let block = try #require(error(in: "name: foo forgets database: task-list\ndevices:\n  - { id: p, at: [1, 2] }\n"))
        #expect(block.message == "invalid YAML: mapping values are not allowed in this context; a value containing ': ' must be quoted, or YAML reads a second key: name: \"foo forgets database: task-list\"")
        let flow = try #require(error(in: "name: x\ndevices:\n  - { id: p, at: [1, 2] }\ntimeline:\n  - { at: 1s, do: gps-off, text: a: b }\n"))
        #expect(flow.message.hasSuffix("; a value containing ': ' must be quoted, or YAML reads a second key: text: \"a: b\""), "\(flow.message)")
        #expect(flow.location?.column == 35)
        // A line indented too far is still told to line up.
        let indented = try #require(error(in: "name: foo\ndevices:\n  - id: p\n     at: [1, 2]\n"))
        #expect(indented.message.hasSuffix("check this line's indentation against the lines above it (each level of a list or mapping lines up)"), "\(indented.message)")
    }

    @Test func theQuotedLineOfAYAMLErrorHasItsControlCharactersEscaped() {
        let error = ScenarioError("duplicate key a in one mapping", at: SourceLocation(file: "t.yaml", line: 2, column: 9), sourceLine: "a: \u{1B}[2J b: 1")
        // The caret stays under column 9, the 'b', after the escape.
        #expect(error.description == "t.yaml:2:9: duplicate key a in one mapping\n    a: \\u{1B}[2J b: 1\n    " + String(repeating: " ", count: 13) + "^")
    }

    @Test func aTaskTextIsWhatTheUserTypedAndOnlyYAMLsNullIsRefused() throws {
        func scenario(_ text: String) -> String {
            """
            name: texts
            devices:
              - { id: phone, at: [50.06, 19.93], app: { name: task-list, settings: { signed-in: ola@onet.pl } } }
            timeline:
              - { at: 1s, do: add-task, text: \(text) }
            """
        }
        // Typed text is data: the app's form decides (it refuses a text of only spaces).
        #expect(error(in: scenario("\"\"")) == nil)
        #expect(error(in: scenario("\"   \"")) == nil)
        #expect(error(in: scenario("null"))?.description == "test.yaml:5:35: text is null, YAML's empty value, not text the user types; for an empty field write text: \"\", for the text 'null' quote it: text: \"null\"")
        #expect(error(in: scenario("~"))?.message.hasPrefix("text is ~, YAML's empty value") == true)
        let quoted = try ScenarioParser.parse(scenario("\"null\""), file: "test.yaml")
        #expect(quoted.timeline.count == 1, "a quoted null is the text 'null'")
        #expect(error(in: scenario("Call mom")) == nil)

        // The tasks already on the server say something too.
        func onServer(_ tasks: String) -> String {
            """
            name: texts
            devices:
              - { id: phone, at: [50.06, 19.93], app: { name: task-list, settings: { signed-in: a@b.c, server-tasks: { a@b.c: [\(tasks)] } } } }
            """
        }
        #expect(error(in: onServer("Milk, \"  \""))?.message == "a task's text must not be empty or only spaces")
        #expect(error(in: onServer("Milk, ~"))?.message.hasPrefix("a task is ~, YAML's empty value") == true)
        #expect(error(in: onServer("{ text: \" \" }"))?.message == "text must not be only spaces")
        #expect(error(in: onServer("Milk, { text: Call mom, important: true }")) == nil)
    }

    @Test func wrongValuesAStrangerWroteAreRefusedWithWhatToWrite() throws {
        func message(_ from: String, _ to: String) -> String? {
            error(in: minimal.replacingOccurrences(of: from, with: to))?.message
        }
        #expect(message("name: minimal", "name: minimal\nstart-time: 2025-02-29T06:00:00Z")
            == "start-time '2025-02-29T06:00:00Z' is not a time a run can start at: 2025-02 has 28 days")
        #expect(message("name: minimal", "name: minimal\nstart-time: 0000-06-01T06:00:00Z")?.hasSuffix("the year must be within 1900...9999") == true)
        #expect(message("name: minimal", "name: minimal\nstart-time: 2024-02-29T06:00:00Z") == nil)
        #expect(message("do: start-service }", "do: start-service }\n  - { at: 1s, do: fill-dog-profile, name: null }")
            == "name is null, YAML's empty value; to empty it write clear: [name], or to mean the text 'null' quote it: name: \"null\"")
        #expect(message("app: { name: dog-walk }", "app: { name: dog-walk, settings: { user-data: { account: \"  \" } } }")
            == "user-data's account is 'offline' or the e-mail address of the signed-in account, found '  '")
        #expect(message("app: { name: dog-walk }", "app: { name: dog-walk, settings: { server-accounts: [{ email: not an email, password: x }] } }")
            == "expected an e-mail address (name@domain), found 'not an email'")
        #expect(message("app: { name: dog-walk }", "app: { name: dog-walk, settings: { server-accounts: [{ email: a@b.ee, password: \"\" }] } }")
            == "password must not be empty")
        #expect(message("    within: [0s, 1s]", "    within: [0s, 1s]\n  - { server: dog-walk, table: dog, at: 1s, rows: [] }")
            == "the dog-walk server has no table 'dog' (it has accounts, deleted, dogs, records); did you mean 'dogs'?")
        #expect(message("do: start-service }", "do: start-service }\n  - { at: 1s, do: storage-fault, kind: write-error }")?
            .hasSuffix("'for: 30s' (a window) or 'count: 1' (the next operations); give one") == true)
        #expect(message("do: start-service }", "do: start-service }\n  - { at: 1s, do: storage-fault, kind: write-error, for: 36500d }")
            == "36500d is longer than any duration can be (about 31 years; a scenario runs at most 30 days)")
        #expect(message("    within: [0s, 1s]", "    within: [0s, 1s]\n  - { server: task-list, table: tasks, at: 1s, rows: [] }")
            == "no device runs task-list, so it has no server to read (the devices run dog-walk)")
        func taskList(_ settings: String) -> String? {
            message("app: { name: dog-walk }", "app: { name: task-list, settings: { \(settings) } }")
        }
        #expect(taskList("device-accounts: { gogle: [a@b.ru] }")
            == "'gogle' is not one of the app's sign-in methods (google, email), so its accounts could never be chosen; did you mean 'google'? (sign-in-methods: lists them)")
        #expect(taskList("device-accounts: { google: [a@b.ru, a@b.ru] }") == "a@b.ru is listed twice for google")
        #expect(taskList("signed-in: \"\"") == "signed-in is the account signed in at the start (anna@gmail.com); leave it out to start signed out")
    }

}
