@testable import DeviceSimScenario
import Foundation
import Testing
import Yams

/// The scenario reader drives libyaml's events into its own flat document (``YAMLReader``) instead of
/// composing Yams's tree: the same nodes (text, quoted or not, place) and the same refusals (problem,
/// line and column), checked here against Yams itself, on the bundled scenarios and on hand-made texts.
@Suite struct YAMLReaderTests {
    /// Every node of Yams's tree and of ours, side by side: kind, text, style and place.
    static func expectSameNodes(_ yams: Node, _ ours: YAMLNode, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(ours.location.line == yams.mark?.line && ours.location.column == yams.mark?.column, "place of \(yams)", sourceLocation: sourceLocation)
        switch yams {
        case .scalar(let scalar):
            #expect(ours.scalarText == scalar.string, sourceLocation: sourceLocation)
            #expect(ours.isPlainScalar == (scalar.style == .plain), "style of '\(scalar.string)'", sourceLocation: sourceLocation)
        case .mapping(let mapping):
            let pairs = ours.pairs ?? []
            #expect(pairs.count == mapping.count, sourceLocation: sourceLocation)
            for ((key, value), pair) in zip(mapping, pairs) {
                expectSameNodes(key, pair.key, sourceLocation: sourceLocation)
                expectSameNodes(value, pair.value, sourceLocation: sourceLocation)
            }
        case .sequence(let sequence):
            let items = ours.items ?? []
            #expect(items.count == sequence.count, sourceLocation: sourceLocation)
            for (yamsItem, item) in zip(sequence, items) { expectSameNodes(yamsItem, item, sourceLocation: sourceLocation) }
        case .alias:
            Issue.record("Yams found an alias", sourceLocation: sourceLocation)
        }
    }

    /// The YAML shapes scenario files use, and the ones whose reading must not change: quoted and plain
    /// scalars, null, tags, block and folded texts, flow collections, escapes, comments, a byte order
    /// mark, CRLF lines, characters beyond ASCII (columns count characters).
    static let texts = [
        "name: walk\nseed: 7\n",
        "rows: [[1, '1', \"1\", ~, null, Null, '', \"\"]]\n",
        "a: !!str 1\nb: !!int '2'\nc: ! x\n",
        "text: |\n  two\n  lines\nfolded: >-\n  one\n  line\n\nkept: |+\n  end\n\n",
        "flow: { a: [1, 2, { b: c }], 'q': \"d\\te\\u00e9\" }\n",
        "# comment\nlist:\n  - one   # after\n  - - nested\n    - list\n  -\n  - { }\n",
        "\u{FEFF}name: bom\n",
        "name: crlf\r\nlist:\r\n  - x\r\n",
        "ünï: çödé\nname: 'ä: b'\nπ: [α, β]\n",
        "key: plain multi\n  line value\nnext: \"double\n  quoted\"\n",
        "? complex\n: key\n",
        "---\nname: explicit\n...\n",
        "- a\n- b\n",
        "just a scalar\n",
        "",
        "# only a comment\n",
        "---\n",
    ]

    @Test(arguments: texts) func readsEveryNodeAsYamsComposesIt(text: String) throws {
        let yams = try Yams.compose(yaml: text, .basic)
        guard let yams else {
            #expect(throws: ScenarioError.self) { try YAMLNode.parse(text, file: "t.yaml") }
            return
        }
        Self.expectSameNodes(yams, try YAMLNode.parse(text, file: "t.yaml"))
    }

    @Test func readsEveryBundledScenarioAndWorldAsYamsComposesIt() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var files: [URL] = []
        for folder in ["Scenarios", "Simulator/worlds"] {
            let enumerator = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                if url.pathExtension == "yaml" { files.append(url) }
            }
        }
        #expect(files.count > 20)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            guard let yams = try Yams.compose(yaml: text, .basic) else { continue }
            Self.expectSameNodes(yams, try YAMLNode.parse(text, file: file.path))
        }
    }

    /// Texts Yams refuses, each with its problem and place.
    static let broken = [
        "name: a\n\tseed: 1\n",
        "name: foo forgets database: task-list\n",
        "devices:\n  - id: a\n   at: b\n",
        "list: [a, b\n",
        "a: 'unclosed\n",
        "a: b\n---\nc: d\n",
        "key: value\n  other: x\n",
        "- a\nb: c\n",
        "a: \"\\q\"\n",
        "a: @b\n",
        "{ text: a: b }\n",
        "a: b\u{01}\n",
    ]

    @Test(arguments: broken) func refusesWhatYamsRefusesWithTheSameProblemAndPlace(text: String) throws {
        var yamsProblem: (text: String, line: Int, column: Int)?
        do {
            _ = try Yams.compose(yaml: text, .basic)
        } catch let error as YamlError {
            switch error {
            case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _), .composer(let context, let problem, let mark, _):
                yamsProblem = ("invalid YAML: \(context.map { "\($0.text) " } ?? "")\(problem)", mark.line, mark.column)
            case .reader:
                yamsProblem = ("invalid YAML: \(error)", 1, 1)
            default:
                Issue.record("unexpected \(error)")
            }
        }
        let expected = try #require(yamsProblem)
        let error = try #require(throws: ScenarioError.self) { try YAMLNode.parse(text, file: "t.yaml") }
        #expect(error.message.hasPrefix(expected.text), "\(error.message)")
        #expect(error.location?.line == expected.line && error.location?.column == expected.column)
    }

    @Test(arguments: [
        ("a: 1\nb: 2\na: 3\n", "a", 1, 1),
        ("a: 1\n'a': 2\n", "a", 1, 1),
        ("x:\n  b: 1\n  a: 2\n  b: 3\n  a: 4\n", "a, b", 3, 3),
        ("a: 1\n!!str a: 2\n", "a", 1, 1),
    ])
    func refusesADuplicateKeyAsYamsDoes(text: String, keys: String, line: Int, column: Int) throws {
        do {
            _ = try Yams.compose(yaml: text, .basic)
            Issue.record("Yams read it")
        } catch let error as YamlError {
            guard case .duplicatedKeysInMapping(let duplicates, let context) = error else { throw error }
            #expect(duplicates.joined(separator: ", ") == keys && context.mark.line == line && context.mark.column == column)
        }
        let error = try #require(throws: ScenarioError.self) { try YAMLNode.parse(text, file: "t.yaml") }
        #expect(error.message == "duplicate key \(keys) in one mapping")
        #expect(error.location?.line == line && error.location?.column == column)
    }

    @Test func keysOfAnotherTagAreNotDuplicates() throws {
        #expect(try Yams.compose(yaml: "1: a\n!!int 1: b\n", .basic) != nil)
        #expect(try YAMLNode.parse("1: a\n!!int 1: b\n", file: "t.yaml").pairs?.count == 2)
    }

    @Test func aMappingOfManyKeysFindsItsOneDuplicate() throws {
        let keys = (0..<5_000).map { "place-\($0): [1, 2]\n" }
        #expect(try YAMLNode.parse(keys.joined(), file: "t.yaml").pairs?.count == 5_000)
        let error = try #require(throws: ScenarioError.self) { try YAMLNode.parse(keys.joined() + "place-4321: [3, 4]\n", file: "t.yaml") }
        #expect(error.message == "duplicate key place-4321 in one mapping")
        #expect(error.location?.line == 4_322)
    }

    @Test func anAnchorOrAliasIsRefusedAtItsPlace() throws {
        let anchor = try #require(throws: ScenarioError.self) { try YAMLNode.parse("a: &x 1\nb: 2\n", file: "t.yaml") }
        #expect(anchor.message == "YAML anchors (&name) are not supported in scenario files")
        #expect(anchor.location?.line == 1 && anchor.location?.column == 4)
    }

    @Test func aStepWithVariablesKeepsOnlyItsOwnNodes() throws {
        let root = try YAMLNode.parse("big: [\(Array(repeating: "x", count: 1_000).joined(separator: ", "))]\nstep: { at: 1s, text: \"${v}\" }\n", file: "t.yaml")
        let step = try #require(root.pairs?[1].value)
        let copy = try #require(try step.copy(file: step.file, places: nil))
        #expect(copy.source.document.records.count == 5)
        #expect(copy.location == step.location)
        let template = StepTemplate(step: copy, variables: ["v"])
        let filled = try #require(template.node(file: "t.yaml", values: ["v": "hello"], places: [:]))
        #expect(try filled.mapping(allowing: ["at", "text"]).required("text").scalarText == "hello")
        #expect(template.node(file: "t.yaml", values: [:], places: [:]) == nil)
    }
}
