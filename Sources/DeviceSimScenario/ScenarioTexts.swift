/// Every key and scalar value of a scenario outside its `expect:` list, collected on first use: a
/// large fleet's file (100,000 devices) pays for the pass only when an expectation needs it.
///
/// ```swift
/// let texts = ScenarioTexts(root: root)
/// if texts.all.contains("anna@gmail.com") { ... }
/// ```
final class ScenarioTexts {
    private let root: YAMLNode
    private var collected: Set<String>?

    init(root: YAMLNode) {
        self.root = root
    }

    /// The texts (collected once).
    var all: Set<String> {
        if let collected { return collected }
        let texts = root.texts(leavingOut: "expect")
        collected = texts
        return texts
    }
}
