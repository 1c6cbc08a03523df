import DeviceSimSimulated

/// Timeline step errors that say what to write instead: an answer to a prompt the app never shows, a
/// key the step's app action does not take.
extension ScenarioParser {
    /// The `prompt:` of a `do: answer` step, checked against the prompts the device's app can show (when
    /// the app lists them): an answer to a prompt that never shows would otherwise wait silently.
    static func promptID(_ node: YAMLNode, device: DeviceSpec) throws(ScenarioError) -> String {
        let id = try node.string(what: "a prompt id")
        guard let appName = device.app?.name, let prompts = ScenarioAppRegistry.app(named: appName)?.prompts, !prompts.contains(id) else { return id }
        guard !prompts.isEmpty else { throw node.error("the \(appName) app shows no prompts to answer") }
        var message = "unknown prompt '\(MessageText.excerpt(id))' for the \(appName) app"
        if let suggestion = NearestWord.suggest(for: id, among: prompts) ?? prompts.first(where: { $0.contains(id) || id.contains($0) }) { message += "; did you mean '\(suggestion)'?" }
        throw node.error(message + " (its prompts: \(prompts.joined(separator: ", ")))")
    }
}

extension ScenarioParser {
    /// For a timeline step with a key no action takes, an error that names the keys of the step's own
    /// app action (`unknown key 'query' for the action 'search' (it takes: text)`) instead of every key
    /// of every action; nil when the step's action is not an app action of its device.
    static func unknownStepKeyError(_ node: YAMLNode, allowed: [String], devices: ScenarioDeviceIndex) -> ScenarioError? {
        guard let keys = try? node.fieldNames(), let unknown = keys.first(where: { !allowed.contains($0) }),
              let map = try? node.mapping(allowing: keys, what: "timeline step"), let action = map.optional("do")?.scalarText else { return nil }
        let deviceID = map.optional("device")?.scalarText ?? devices.onlyID
        guard let appName = deviceID.flatMap({ devices[$0] })?.app?.name,
              let own = ScenarioAppRegistry.app(named: appName)?.actions[action], let keyNode = map.keyNode(unknown) else { return nil }
        var message = "unknown key '\(MessageText.excerpt(unknown))' for the action '\(MessageText.excerpt(action))'"
        message += NearestWord.didYouMean(unknown, among: own)
        message += own.isEmpty ? " (it takes no keys besides at, device and do)" : " (it takes: \(own.joined(separator: ", ")))"
        return keyNode.error(message)
    }
}
