extension YAMLNode {
    /// The node as a mapping whose keys are names chosen by the author (accounts, sign-in methods),
    /// each checked by `key`; in file order.
    public func entries(what: String, key check: (YAMLNode, String) throws(ScenarioError) -> Void = { _, _ in }) throws(ScenarioError) -> [(key: String, value: YAMLNode)] {
        guard let pairs else { throw error("expected a \(what) (a mapping of names)") }
        var entries: [(key: String, value: YAMLNode)] = []
        entries.reserveCapacity(pairs.count)
        for (keyNode, value) in pairs {
            guard let name = keyNode.scalarText, !name.isEmpty else { throw keyNode.error("the names in \(what) must be plain words") }
            try check(keyNode, name)
            entries.append((name, value))
        }
        return entries
    }
}
