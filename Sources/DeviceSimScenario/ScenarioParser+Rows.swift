import DeviceSimSimulated

extension RowsCheck {
    /// The keys a `stored:` or `server:` expectation may add to `rows:` (``RowsCheck``).
    static let keys = ["contains", "count", "order", "columns", "same-as"]
}

extension ScenarioParser {
    /// A list of rows, each a list of values: `[[Buy milk, 0]]`. An unquoted number is a number, an
    /// unquoted `null` NULL, anything else text (``StoredValue``).
    static func parseRows(_ node: YAMLNode) throws(ScenarioError) -> [[StoredValue]] {
        var rows: [[StoredValue]] = []
        for row in try node.sequence(what: "list of rows, each a list of values: [[Buy milk, 0]]") {
            rows.append(try row.sequence(what: "a row: a list of values").map { (value) throws(ScenarioError) in try StoredValue.written(value) })
        }
        return rows
    }

    /// The server table a `server:` expectation (or a `same-as:` of one) reads: `server:` (an app a
    /// device runs), `table:` (one of its server's), `account:` (optional: one the scenario names) and
    /// `columns:` (optional: a subset of the table's, by name; their places are returned).
    static func parseServerSource(_ map: YAMLMapping, devices: ScenarioDeviceIndex, scenarioTexts: ScenarioTexts) throws(ScenarioError) -> (StoredProbe.Source, [Int]?) {
        let appNode = try map.required("server")
        let app = try appNode.choice(ScenarioAppRegistry.names, what: "an app")
        guard devices.runningApps.contains(app) else {
            let running = devices.runningApps.sorted()
            throw appNode.error("no device runs \(app), so it has no server to read" + (running.isEmpty ? "" : " (the devices run \(running.joined(separator: ", ")))"))
        }
        let tableNode = try map.required("table")
        let table = try tableNode.string(what: "a table of the app's server")
        let definition = ScenarioAppRegistry.app(named: app)
        if let tables = definition?.serverTables, !tables.contains(table) {
            var message = "the \(app) server has no table '\(MessageText.excerpt(table))' (it has \(tables.joined(separator: ", ")))"
            message += NearestWord.didYouMean(table, among: tables)
            throw tableNode.error(message)
        }
        let accountNode = map.optional("account")
        let account = try accountNode?.string(what: "an account")
        if let account, let accountNode, !devices.hasAccountOrID(account) {
            // An account that exists nowhere in the scenario (a typo) made "nothing is there" pass.
            let texts = scenarioTexts.all
            if !texts.contains(account) {
                let candidates = Set(devices.devices.map(\.account) + texts.filter { $0.contains("@") }).sorted()
                throw accountNode.error("no device has the account '\(MessageText.excerpt(account))' and the scenario names it nowhere else, so the \(app) server cannot hold rows of it" + NearestWord.didYouMean(account, among: candidates))
            }
        }
        var places: [Int]?
        if let columnsNode = map.optional("columns") {
            guard let known = definition?.serverTableColumns?[table] else {
                throw columnsNode.error("the \(app) server does not say the columns of '\(MessageText.excerpt(table))'; leave out columns: and list every column")
            }
            let names = try columnsNode.sequence(what: "a list of the table's columns: [text, important]")
            guard !names.isEmpty else { throw columnsNode.error("columns: needs one column or more (the table has \(known.joined(separator: ", ")))") }
            places = []
            for nameNode in names {
                let name = try nameNode.string(what: "a column")
                guard let place = known.firstIndex(of: name) else {
                    throw nameNode.error("the \(app) server's table \(table) has no column '\(MessageText.excerpt(name))' (it has \(known.joined(separator: ", ")))" + NearestWord.didYouMean(name, among: known))
                }
                places?.append(place)
            }
        }
        return (.server(app: app, table: table, account: account), places)
    }

    /// The ``RowsCheck`` of a `stored:` or `server:` expectation (with `rows:` alone: exact rows in
    /// order). Refused at its line and column: none of `rows:`, `contains:`,
    /// `count:`, `same-as:`; `order:` other than `any` or without `rows:` or `same-as:`; a `same-as:`
    /// that reads nothing comparable.
    static func parseRowsCheck(
        _ map: YAMLMapping, rows: [[StoredValue]]?, source: StoredProbe.Source, node: YAMLNode, devices: ScenarioDeviceIndex, scenarioTexts: ScenarioTexts
    ) throws(ScenarioError) -> RowsCheck {
        let given = RowsCheck.keys.filter { map.optional($0) != nil && $0 != "columns" }
        var check = RowsCheck()
        check.rows = rows
        guard !given.isEmpty else {
            guard rows != nil else {
                throw node.error("say what the rows read must be: rows: (all of them, in order), contains: (some of them), count: (how many) or same-as: (another database or the server)")
            }
            return check
        }
        if let n = map.optional("contains") {
            check.contains = try parseRows(n)
            guard !check.contains.isEmpty else { throw n.error("contains: needs one row or more; for no rows at all write count: 0") }
        }
        if let n = map.optional("count") { check.count = try nonNegative(n) }
        if let n = map.optional("order") {
            _ = try n.choice(["any"], what: "the order of the rows (any: compared without their order)")
            guard rows != nil || map.optional("same-as") != nil else {
                throw n.error("order: any compares rows: or same-as: without their order; give one of them (contains: is already order-free)")
            }
            check.anyOrder = true
        }
        if let n = map.optional("same-as") {
            let keys = (try? n.fieldNames()) ?? []
            if keys.contains("server") {
                let other = try n.mapping(allowing: ["server", "table", "account", "columns"], what: "same-as (a server table: server, table, account, columns)")
                let (otherSource, columns) = try parseServerSource(other, devices: devices, scenarioTexts: scenarioTexts)
                check.sameAs = RowsSource(source: otherSource, columns: columns)
            } else {
                let other = try n.mapping(allowing: ["device"], what: "same-as (another device: { device: b }, or a server table: { server: app, table: t })")
                let deviceNode = try other.required("device")
                let id = try devices.deviceID(named: deviceNode)
                guard case .database(let own, let file, let query) = source else {
                    throw deviceNode.error("same-as: { device: ... } runs a stored: query on another device; a server: expectation compares with another server table")
                }
                guard id != own else { throw deviceNode.error("same-as names the device the query already reads (\(own)); name another device") }
                let suffix = file.hasPrefix(own) ? String(file.dropFirst(own.count)) : ".sqlite"
                let otherDevice = devices[id]!
                guard otherDevice.app?.name == devices[own]?.app?.name else {
                    throw deviceNode.error("\(id) runs \(otherDevice.app?.name ?? "no app"), not the app whose database \(own)'s query reads")
                }
                check.sameAs = RowsSource(source: .database(device: id, file: id + suffix, query: query), columns: nil)
            }
        }
        return check
    }
}
