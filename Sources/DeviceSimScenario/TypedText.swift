extension YAMLMapping {
    /// The text of `key` as a user types it into a form (an e-mail address, a date of birth, a name,
    /// a task's text): any text, empty or spaces included, because the app decides what it accepts and
    /// its own refusal is what a scenario checks. Only YAML's null written out (`~`, `null`) is
    /// refused, with how to quote it: it reads as no value, not as text typed.
    ///
    /// ```swift
    /// let email = try step.typedText("email")        // "not-an-address" and "" are kept as typed
    /// ```
    public func typedText(_ key: String) throws(ScenarioError) -> String {
        try required(key).typedText(key)
    }

    /// ``typedText(_:)`` for a key that may be left out (nil: the user leaves the field as it is).
    public func optionalTypedText(_ key: String) throws(ScenarioError) -> String? {
        try optional(key)?.typedText(key)
    }
}

extension YAMLNode {
    /// The node as text a user types (see ``YAMLMapping/typedText(_:)``); `key` names it in errors.
    public func typedText(_ key: String) throws(ScenarioError) -> String {
        if isNull {
            let text = scalarText ?? ""
            throw error("\(key) is \(text), YAML's empty value, not text the user types; for an empty field write \(key): \"\", for the text '\(text)' quote it: \(key): \"\(text)\"")
        }
        return try string(what: "the text the user types (any text; quote it if it holds ': ' or starts with a symbol)")
    }
}
