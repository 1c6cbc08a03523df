extension ScenarioParser {
    /// The `prompt:` of a `do: answer` step, checked against the prompts the device's app can show (when
    /// the app lists them): an answer to a prompt that never shows would otherwise wait silently.
    static func promptID(_ node: YAMLNode, device: DeviceSpec) throws(ScenarioError) -> String {
        let id = try node.string(what: "a prompt id")
        guard let appName = device.app?.name, let prompts = ScenarioAppRegistry.app(named: appName)?.prompts, !prompts.contains(id) else { return id }
        guard !prompts.isEmpty else { throw node.error("the \(appName) app shows no prompts to answer") }
        var message = "unknown prompt '\(id)' for the \(appName) app"
        if let suggestion = NearestWord.suggest(for: id, among: prompts) ?? prompts.first(where: { $0.contains(id) || id.contains($0) }) { message += "; did you mean '\(suggestion)'?" }
        throw node.error(message + " (its prompts: \(prompts.joined(separator: ", ")))")
    }
}
