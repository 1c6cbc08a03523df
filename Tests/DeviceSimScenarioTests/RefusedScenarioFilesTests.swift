import DeviceSim
import DeviceSimScenario
import Foundation
import Testing

/// Scenario files that `validate` must refuse, each at a line and column with a message: the `.yaml`
/// files of Tests/RefusedScenarios/, each starting with the line `# refused: LINE:COLUMN: MESSAGE` (the
/// message's beginning), or `# refused: FILE:LINE:COLUMN: MESSAGE` when the error is in a file the
/// scenario names (FILE relative to the scenario's folder; such files are in its `files/` folder).
/// A new misuse to pin is a new file there, named after the issue and item it comes from; the files
/// name the bundled worlds by relative paths, as bundled scenarios do.
@Suite struct RefusedScenarioFilesTests {
    static let folder = "Tests/RefusedScenarios"

    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    /// The files of the folder with what their first line says they are refused with.
    static func refusals() throws -> [(path: String, expected: String)] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".yaml") }.sorted()
        return try names.map { name in
            let path = folder + "/" + name
            let firstLine = try String(contentsOfFile: path, encoding: .utf8).prefix { $0 != "\n" }
            let marker = "# refused: "
            guard firstLine.hasPrefix(marker) else { throw RefusedFileError.noRefusalLine(path) }
            let expected = firstLine.dropFirst(marker.count)
            // Run from the repository's root (as the tests are), a file is named by its path from there.
            return (path, expected.first?.isNumber == true ? path + ":" + expected : folder + "/" + expected)
        }
    }

    enum RefusedFileError: Error { case noRefusalLine(String) }

    @Test func everyFileIsRefusedAtItsLineAndColumnWithItsMessage() throws {
        let refusals = try Self.refusals()
        #expect(refusals.count >= 10)
        for (path, expected) in refusals {
            let error = try #require(throws: ScenarioError.self, "\(path) was accepted") { try ScenarioParser.parse(contentsOf: path) }
            #expect(error.description.hasPrefix(expected), "\(path): \(error)")
        }
    }

    /// Each file is refused for its one mistake: mended, it is a valid scenario (so the refusal
    /// above cannot come from something else in the file, such as a world path gone wrong).
    @Test func mendedEachFileIsValid() throws {
        let mends = [
            "issue-48-5-a-world-of-osm-xml.yaml": ("world: files/xml-town.world.yaml", "world: ../../Simulator/worlds/aerobyen.yaml"),
            "issue-48-7-an-email-that-is-yaml-null.yaml": ("email: null", "email: \"\""),
            "issue-48-7-an-empty-search-text.yaml": ("text: \"\"", "text: vest"),
            "issue-48-7-an-unquoted-colon-after-a-comma.yaml": ("name: Tromsø, Norway: a walk past the cathedral", "name: \"Tromsø, Norway: a walk past the cathedral\""),
            "issue-48-9-cancel-that-is-not-true-or-false.yaml": ("cancel: maybe", "cancel: true"),
            "issue-48-10-an-any-of-of-one.yaml": ("      - { event: user-data.loaded, within: [0s, 1s] }", "      - { event: user-data.loaded, within: [0s, 1s] }\n      - { event: app.started, within: [0s, 1s] }"),
            "issue-48-11-columns-of-a-stored-query.yaml": ("    columns: [text]\n", ""),
            "issue-48-12-a-failure-window-that-is-empty.yaml": ("within: [1m, 1m]", "within: [1m, 2m]"),
            "issue-48-13-a-local-time-the-clocks-skip.yaml": ("02:30 local", "03:30 local"),
            "issue-48-15-a-drop-whose-interface-is-neither-up-nor-down.yaml": ("interface: sideways", "interface: up"),
        ]
        let names = try Self.refusals().map { ($0.path as NSString).lastPathComponent }
        #expect(Set(names) == Set(mends.keys), "every refused file has its mend here")
        for (name, (wrong, right)) in mends.sorted(by: { $0.key < $1.key }) {
            let path = Self.folder + "/" + name
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains(wrong), "\(name) no longer says '\(wrong)'")
            #expect(throws: Never.self, "\(name), mended") { try ScenarioParser.parse(text.replacingOccurrences(of: wrong, with: right), file: path) }
        }
    }
}
