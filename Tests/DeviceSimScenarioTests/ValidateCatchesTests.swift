import DeviceSim
import DeviceSimHAL
import DeviceSimScenario
import Foundation
import Testing

/// What `validate` catches before a run (issue 36, item 6): event names and `where:` fields no app
/// records, an app's event expected on a device without the app; and the catalogue of events agrees
/// with what the bundled scenarios record.
@Suite struct ValidateCatchesTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    func scenario(_ expectation: String) -> String {
        """
        name: catches
        devices:
          - { id: walker, at: [52.5145, 13.3501], app: { name: dog-walk } }
          - { id: phone, at: [52.5145, 13.3501] }
        timeline:
          - { at: 0s, device: walker, do: start-service }
        expect:
        \(expectation)
        """
    }

    func error(_ expectation: String) throws -> String {
        try #require(throws: ScenarioError.self) { try ScenarioParser.parse(scenario(expectation), file: "catches.yaml") }.description
    }

    @Test func aMistypedEventNameGetsTheNearestName() throws {
        #expect(try error("  - { event: marker.movd }") == "catches.yaml:8:14: unknown event 'marker.movd'; did you mean 'marker.moved'? (Scenarios/README.md lists the events each app records)")
        let order = try error("  - order: [marker.shown, marker.movd]")
        #expect(order.contains("catches.yaml:8:27: unknown event 'marker.movd'; did you mean 'marker.moved'?"), "\(order)")
    }

    @Test func aMistypedFieldGetsTheNearestField() throws {
        let message = try error("  - { event: marker.moved, where: { acuracy: 4 } }")
        #expect(message == "catches.yaml:8:37: 'marker.moved' has no field 'acuracy'; did you mean 'accuracy'? (its fields: accuracy, lat, lon)", "\(message)")
        #expect(try error("  - { event: marker.moved, where: { latitude: 52.5 } }").contains("'marker.moved' has no field 'latitude' (its fields: accuracy, lat, lon)"))
        #expect(try error("  - { event: account.temporary-password-sent, capture: { pasword: temp } }").contains("has no field 'pasword'; did you mean 'password'?"))
    }

    @Test func anAppEventOnADeviceWithoutTheAppIsRefused() throws {
        #expect(try error("  - { event: marker.moved, device: phone }") == "catches.yaml:8:14: 'marker.moved' is recorded by the dog-walk app, and the device 'phone' runs no app")
        // Events of every device, and an app's event on its own device, are fine.
        _ = try ScenarioParser.parse(scenario("  - { event: prompt.shown, device: phone, never: true }\n  - { event: marker.moved, device: walker }"), file: "catches.yaml")
        #expect(try error("  - { event: route.shown }") == "catches.yaml:8:14: 'route.shown' is recorded by the routes app, which no device of this scenario runs")
    }

    @Test func everyEventOfTheBundledScenariosIsInTheCatalogueWithItsFields() throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: "Scenarios").filter { $0.hasSuffix(".yaml") }.sorted()
        var unknown: Set<String> = []
        var checked = 0
        for file in files {
            let path = "Scenarios/" + file
            guard YAMLFileKind(contentsOf: path) == .scenario, let scenario = try? ScenarioParser.parse(contentsOf: path) else { continue }
            let apps = Dictionary(uniqueKeysWithValues: scenario.devices.map { ($0.id, $0.app?.name) })
            for event in ScenarioRunner().run(scenario).events {
                checked += 1
                switch EventCatalogue.lookUp(event.name, running: Set(scenario.devices.compactMap { $0.app?.name })) {
                case .unknown, .unchecked: unknown.insert("\(event.name) (\(file))")
                case .known(let fields, let recorders):
                    if let device = event.device, !recorders.isEmpty, !recorders.contains(apps[device].flatMap { $0 } ?? "") {
                        unknown.insert("\(event.name) on a device running \(apps[device].flatMap { $0 } ?? "no app") (\(file))")
                    }
                    for field in event.fields.map(\.key) where fields.map({ !$0.contains(field) }) ?? false {
                        unknown.insert("\(event.name).\(field) (\(file))")
                    }
                }
            }
        }
        #expect(checked > 5_000)
        #expect(unknown.isEmpty, "\(unknown.sorted())")
    }

    @Test func swappedLatitudeAndLongitudeAreCaught() throws {
        let file = FileManager.default.currentDirectoryPath + "/Scenarios/language/swapped.yaml"
        let text = "name: x\nworld: kaartinkaupunki.yaml\ndevices:\n  - { id: a, at: [24.93960, 60.16925] }\n"
        let error = try #require(throws: ScenarioError.self) { try ScenarioParser.parse(text, file: file) }
        #expect(error.description.hasSuffix("swapped.yaml:4:18: [24.9396, 60.16925] lies far from the world's places, and [60.16925, 24.9396] among them: are latitude and longitude swapped? Positions are written [latitude, longitude]"), "\(error)")
        // The right way round, and a place far away in another world that is no swap, are fine.
        _ = try ScenarioParser.parse(text.replacingOccurrences(of: "[24.93960, 60.16925]", with: "[60.16925, 24.93960]"), file: file)
        _ = try ScenarioParser.parse(text.replacingOccurrences(of: "[24.93960, 60.16925]", with: "[52.5, 13.4]"), file: file)
    }

    @Test func yamlSyntaxErrorsShowTheLineAndACaret() throws {
        let indented = try #require(throws: ScenarioError.self) { try ScenarioParser.parse("name: x\ndevices:\n  - id: a\n   at: [1, 2]\n", file: "y.yaml") }
        #expect(indented.description == """
            y.yaml:4:4: invalid YAML: while parsing a block collection did not find expected '-' indicator; check this line's indentation against the lines above it (each level of a list or mapping lines up)
                   at: [1, 2]
                   ^
            """, "\(indented)")
        let tab = try #require(throws: ScenarioError.self) { try ScenarioParser.parse("name: x\ndevices:\n\t- id: a\n", file: "y.yaml") }
        #expect(tab.description.hasPrefix("y.yaml:3:1: invalid YAML: "), "\(tab)")
        #expect(tab.description.hasSuffix("; this line has a tab: YAML indents with spaces only\n    \t- id: a\n    ^"), "\(tab)")
    }
}
