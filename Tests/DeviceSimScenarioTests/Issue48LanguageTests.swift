import DeviceSim
@testable import DeviceSimScenario
import Foundation
import Testing

/// Issue 48: what validate refuses (with line:column) and accepts in the scenario language, and that
/// the event catalogue knows every event Scenarios/README.md documents with its fields.
@Suite struct Issue48LanguageTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    func dogWalk(_ step: String) -> String {
        """
        name: issue 48
        devices:
          - { id: walker, at: [69.6492, 18.9558], app: { name: dog-walk } }
        timeline:
        \(step)
        """
    }

    func error(_ text: String) throws -> String {
        try #require(throws: ScenarioError.self) { try ScenarioParser.parse(text, file: "s.yaml") }.description
    }

    @Test func anEmailThatIsYAMLsNullIsRefusedAndAnEmptyOneIsWhatWasTyped() throws {
        let null = try error(dogWalk("  - { at: 1s, do: sign-up, email: null }"))
        #expect(null.hasPrefix("s.yaml:5:35: email is null, YAML's empty value"), "\(null)")
        // An empty field is what the user typed: the app decides (item 8).
        _ = try ScenarioParser.parse(dogWalk("  - { at: 1s, do: enter-credential, email: \"\", password: x }"), file: "s.yaml")
        // Quoted, "null" is what she typed.
        _ = try ScenarioParser.parse(dogWalk("  - { at: 1s, do: sign-up, email: \"null\" }"), file: "s.yaml")
    }

    @Test func anEmptySearchTextIsRefused() throws {
        let text = """
            name: issue 48
            devices:
              - { id: phone, at: [69.6492, 18.9558], app: { name: routes } }
            timeline:
              - { at: 1s, do: search, text: "" }
            """
        let message = try error(text)
        #expect(message.contains("text must not be empty"), "\(message)")
    }

    @Test func anUnquotedColonAfterACommaInABlockValueIsToldToBeQuoted() throws {
        let text = """
            name: Tromsø, Norway: a walk
            devices:
              - { id: phone, at: [69.6492, 18.9558] }
            """
        let message = try error(text)
        #expect(message.contains("must be quoted"), "\(message)")
        #expect(message.contains("name: \"Tromsø, Norway: a walk\""), "\(message)")
    }

    @Test func everyEventTheReadmeDocumentsIsInTheCatalogueWithItsFields() throws {
        let readme = try String(contentsOfFile: "Scenarios/README.md", encoding: .utf8)
        let table = readme.components(separatedBy: "## Events in the trace")[1].components(separatedBy: "\n## ")[0]
        var missing: [String] = []
        var checked = 0
        // The bundled apps only: other tests of this process register apps of their own, without a catalogue.
        let everyApp = Set(BundledApps.all.map { $0.name })
        for line in table.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 3 else { continue }
            // Each name is the first `quoted` word of an item (`map.centered` with `source: record`).
            let names = cells[1].split(separator: ",").compactMap { item in item.split(separator: "`", omittingEmptySubsequences: false).dropFirst().first.map(String.init) }
                .filter { !$0.contains(" ") }
            for name in names where !name.isEmpty {
                checked += 1
                switch EventCatalogue.lookUp(name, running: everyApp) {
                case .unknown, .unchecked: missing.append(name)
                case .known: break
                }
            }
        }
        #expect(checked > 100)
        #expect(missing.isEmpty, "documented in Scenarios/README.md but not in the catalogue: \(missing)")
    }
}

/// Issue 48, item 13: `at:` and `within:` on the scenario's local clock.
@Suite struct Issue48LocalClockTests {
    func scenario(_ at: String, timeZone: String = "Europe/Oslo", start: String = "2026-10-24T21:50:00Z") -> String {
        """
        name: local clock
        start-time: \(start)
        time-zone: \(timeZone)
        devices:
          - { id: phone, at: [69.6492, 18.9558] }
        timeline:
          - { at: \(at), do: go-offline }
        expect:
          - { event: step, within: [\(at), \(at)] }
        """
    }

    @Test func aLocalClockTimeIsItsOffsetFromTheStartDaylightSavingIncluded() throws {
        // 04:00 CET on 2026-10-25 is 03:00 UTC: 5 h 10 min after 21:50 UTC.
        let parsed = try ScenarioParser.parse(scenario("2026-10-25 04:00 local"), file: "s.yaml")
        #expect(parsed.timeline.first?.at == .seconds(5 * 3600 + 600))
        let utc = try ScenarioParser.parse(scenario("2026-10-25 04:00 local", timeZone: "UTC"), file: "s.yaml")
        #expect(utc.timeline.first?.at == .seconds(6 * 3600 + 600))
    }

    @Test func skippedTwiceShownEarlyAndMalformedTimesAreRefusedWhereWritten() throws {
        func error(_ text: String) throws -> String {
            try #require(throws: ScenarioError.self) { try ScenarioParser.parse(text, file: "s.yaml") }.description
        }
        let twice = try error(scenario("2026-10-25 02:30 local"))
        #expect(twice.hasPrefix("s.yaml:7:11: '2026-10-25 02:30' happens twice in Europe/Oslo"), "\(twice)")
        let skipped = try error(scenario("2027-03-28 02:30 local", start: "2027-03-27T20:00:00Z"))
        #expect(skipped.hasPrefix("s.yaml:7:11: '2027-03-28 02:30' does not happen in Europe/Oslo"), "\(skipped)")
        let early = try error(scenario("2026-10-24 20:00 local"))
        #expect(early.hasPrefix("s.yaml:7:11: '2026-10-24 20:00' (Europe/Oslo) is before the scenario's start-time"), "\(early)")
        let malformed = try error(scenario("2026-10-25 4h local"))
        #expect(malformed.hasPrefix("s.yaml:7:11: expected a local clock time such as 2026-09-06 00:00 local"), "\(malformed)")
    }
}
