extension YAMLNode {
    /// The node as a mapping whose keys are names chosen by the author (accounts, sign-in methods),
    /// each checked by `key`; in file order.
    public func entries(what: String, key check: (YAMLNode, String) throws(ScenarioError) -> Void = { _, _ in }) throws(ScenarioError) -> [(key: String, value: YAMLNode)] {
        guard case .mapping(let mapping) = node else { throw error("expected a \(what) (a mapping of names)") }
        var entries: [(key: String, value: YAMLNode)] = []
        for (key, value) in mapping {
            let keyNode = YAMLNode(key, file: file, places: places)
            guard case .scalar(let scalar) = key, !scalar.string.isEmpty else { throw keyNode.error("the names in \(what) must be plain words") }
            try check(keyNode, scalar.string)
            entries.append((scalar.string, YAMLNode(value, file: file, places: places)))
        }
        return entries
    }
}
