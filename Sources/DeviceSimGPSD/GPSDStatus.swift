/// What is wrong with gpsd or the receiver right now, in words a user can act on.
///
/// Problems are ordered by how far down the chain they are: gpsd unreachable, then no receiver
/// reporting through it, then a receiver without a fix (never had one, or lost it).
public enum GPSDProblem: Sendable, Hashable, CustomStringConvertible {
    /// gpsd cannot be reached (not running, wrong address) or the connection broke.
    case unreachable(GPSDError)
    /// gpsd answers, but the client dropped the connection for what it sent; it reconnects, waiting
    /// longer each time, until gpsd sends usable reports.
    case misbehaving(GPSDEndpoint, GPSDUnusableInput)
    /// gpsd answers, but no receiver (or not the one asked for) reports through it.
    case noReceiver(GPSDEndpoint, device: String?)
    /// A receiver reports, but has had no fix yet (mode 1).
    case noFix(device: String)
    /// The receiver had a fix and lost it; `reason` says how it showed.
    case fixLost(device: String, reason: String)

    /// 0 for the first link in the chain (gpsd), 2 for the last (the fix).
    public var depth: Int {
        switch self {
        case .unreachable, .misbehaving: 0
        case .noReceiver: 1
        case .noFix, .fixLost: 2
        }
    }

    /// Whether `other` is the same problem (details such as the error text may differ).
    func isSameKind(as other: GPSDProblem) -> Bool {
        switch (self, other) {
        case (.unreachable, .unreachable), (.misbehaving, .misbehaving), (.noReceiver, .noReceiver), (.noFix, .noFix), (.fixLost, .fixLost): true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .unreachable(let error):
            switch error {
            case .connectionLost: "\(error); reconnecting"
            default: "\(error); retrying"
            }
        case .misbehaving(let endpoint, let input):
            "dropped the connection to gpsd at \(endpoint): it sent \(input). Reconnecting, waiting longer each time (up to \(GPSDSocket.seconds(GPSDBackoff.maximumWhileMisbehaving)) s) while it goes on; what cannot be used is counted in the summary"
        case .noReceiver(let endpoint, let device?):
            "gpsd at \(endpoint) answers, but receiver \(device) is not reporting: is it plugged in, and was gpsd started with it ('gpsd -N -n \(device)')?"
        case .noReceiver(let endpoint, nil):
            "gpsd at \(endpoint) answers, but no receiver is reporting: plug one in, or start gpsd with it, e.g. 'gpsd -N -n /dev/ttyACM0'"
        case .noFix(let device):
            "receiver \(device) has no fix yet (mode 1): waiting for satellites; outdoors with a clear view of the sky a first fix takes up to a minute"
        case .fixLost(let device, let reason):
            "fix lost on \(device): \(reason)"
        }
    }
}

/// A problem starting or ending, or a notice of something gpsd sent that could not be used, as
/// `devicesim live` and `devicesim record` report it.
public struct GPSDStatusChange: Sendable, Hashable, CustomStringConvertible {
    /// Whether the problem started or ended, or this is a notice.
    public enum Kind: Sendable, Hashable {
        case started, ended
        /// Something gpsd sent could not be used and was skipped (said once for each kind).
        case notice
    }

    public var kind: Kind
    /// The problem that started or ended (nil for a notice).
    public var problem: GPSDProblem?
    /// The words shown to the user.
    public var description: String
}

/// gpsd's and the receiver's state as one client sees it: fed with a ``GPSDReader``'s events, it keeps
/// the latest fix and sky and tells when a ``GPSDProblem`` starts and when it ends. One source of
/// these words for every command.
///
/// A value type: the owner feeds it on one thread or behind a lock (``GPSDStatusMonitor`` does that).
///
/// ```swift
/// var status = GPSDStatus(endpoint: endpoint)
/// for change in status.observe(event, at: .now) { print(change) }
/// for change in status.check(at: .now) { print(change) }   // once in a while: silence is news too
/// ```
public struct GPSDStatus: Sendable {
    /// Where gpsd is.
    public let endpoint: GPSDEndpoint
    /// The receiver asked for (nil: any).
    public let device: String?
    /// A fix older than this counts as lost.
    public let staleAfter: Duration
    /// Connected but no report from a receiver for this long: no receiver.
    public let quietAfter: Duration

    /// The problem now (nil: all is well, or nothing is known yet).
    public private(set) var problem: GPSDProblem?
    /// Whether the client is connected to gpsd.
    public private(set) var isConnected = false
    /// The latest TPV report (with or without a position).
    public private(set) var latestReport: GPSDFix?
    /// The latest report with a position, and when it came.
    public private(set) var latestFix: GPSDFix?
    public private(set) var latestFixAt: ContinuousClock.Instant?
    /// Satellites used in the fix and seen, from the latest SKY report.
    public private(set) var satellitesUsed: Int?
    public private(set) var satellitesSeen: Int?
    /// The receiver that reported last.
    public private(set) var receiver: String?

    private var connectedAt: ContinuousClock.Instant?
    private var latestReportAt: ContinuousClock.Instant?
    private var lostFixAt: ContinuousClock.Instant?
    private var hadFix = false

    /// Creates the state of a client of gpsd at `endpoint` before it connects.
    public init(endpoint: GPSDEndpoint, device: String? = nil, staleAfter: Duration = .seconds(5), quietAfter: Duration = .seconds(5)) {
        self.endpoint = endpoint
        self.device = device
        self.staleAfter = staleAfter
        self.quietAfter = quietAfter
    }

    /// Takes in one reader event; returns the problems that started or ended with it, or the notice
    /// of something gpsd sent that could not be used.
    public mutating func observe(_ event: GPSDReader.Event, at now: ContinuousClock.Instant) -> [GPSDStatusChange] {
        switch event {
        case .disconnected(.unusableInput(let endpoint, let input), _):
            isConnected = false
            connectedAt = nil
            return become(.misbehaving(endpoint, input), at: now)
        case .connectFailed(let error, _), .disconnected(let error, _):
            isConnected = false
            connectedAt = nil
            return become(.unreachable(error), at: now)
        case .unusable(let input):
            return [GPSDStatusChange(kind: .notice, problem: nil, description: "gpsd at \(endpoint) sent \(input); any more like it are only counted (in the summary at the end)")]
        case .connected:
            // gpsd counts as back with its first words (its VERSION line): a gpsd that is shutting
            // down may still accept a connection, and then closes it unanswered.
            isConnected = true
            connectedAt = now
            latestReportAt = nil
            return []
        case .line(let line):
            if case .unreachable? = problem {
                let changes = become(nil, at: now)
                return changes + observe(.line(line), at: now)
            }
            // A gpsd whose connections were dropped counts as back with its first usable report.
            if case .misbehaving? = problem { return [] }
            // gpsd lists its receivers when the watch starts, and says when one goes away.
            if line.hasPrefix("{\"class\":\"DEVICES\""), !line.contains("\"path\"") {
                return become(.noReceiver(endpoint, device: device), at: now)
            }
            if line.hasPrefix("{\"class\":\"DEVICE\","), line.contains("\"activated\":0") {
                latestReportAt = nil
                return become(.noReceiver(endpoint, device: device), at: now)
            }
            return []
        case .satellites(let satellites, let device):
            latestReportAt = now
            receiver = device
            satellitesSeen = satellites.count
            satellitesUsed = satellites.count { $0.used }
            switch problem {
            case .noReceiver?, .misbehaving?: return become(nil, at: now)
            default: return []
            }
        case .fix(let fix, let device, _):
            latestReportAt = now
            receiver = device
            latestReport = fix
            if fix.hasPosition {
                let changes = become(nil, at: now, fix: fix)
                hadFix = true
                latestFix = fix
                latestFixAt = now
                return changes
            }
            if fix.mode <= 1 {
                return become(hadFix ? .fixLost(device: device, reason: "the receiver reports no fix (mode 1)") : .noFix(device: device), at: now)
            }
            return []
        }
    }

    /// Looks for problems that show only as silence (no receiver reporting, a fix gone stale); returns
    /// the changes. Call it every second or so.
    public mutating func check(at now: ContinuousClock.Instant) -> [GPSDStatusChange] {
        guard isConnected else { return [] }
        switch problem {
        case .unreachable?, .misbehaving?: return []  // connected, but gpsd has not spoken (usably) yet
        default: break
        }
        if let since = latestReportAt ?? connectedAt, since.duration(to: now) >= quietAfter {
            return become(.noReceiver(endpoint, device: device), at: now)
        }
        // After a reconnection the receiver gets its time again before its fix counts as lost.
        if problem == nil, let latestFixAt, let receiver {
            let since = max(latestFixAt, connectedAt ?? latestFixAt)
            if since.duration(to: now) >= staleAfter {
                return become(.fixLost(device: receiver, reason: "no position for \(Self.seconds(since.duration(to: now))) s"), at: now)
            }
        }
        return []
    }

    /// Moves to `next`; a problem ends when the chain works again past it, so a deeper problem
    /// replacing a shallower one ends it, while a shallower one replacing a deeper one does not.
    private mutating func become(_ next: GPSDProblem?, at now: ContinuousClock.Instant, fix: GPSDFix? = nil) -> [GPSDStatusChange] {
        if let next, let problem, next.isSameKind(as: problem) { return [] }
        if next == nil, problem == nil { return [] }
        var changes: [GPSDStatusChange] = []
        if let old = problem, next.map({ $0.depth > old.depth }) ?? true {
            changes.append(GPSDStatusChange(kind: .ended, problem: old, description: ended(old, at: now, fix: fix)))
        }
        if case .fixLost = next { lostFixAt = now }
        if let next { changes.append(GPSDStatusChange(kind: .started, problem: next, description: next.description)) }
        problem = next
        return changes
    }

    private func ended(_ problem: GPSDProblem, at now: ContinuousClock.Instant, fix: GPSDFix?) -> String {
        switch problem {
        case .unreachable: return "connected to gpsd at \(endpoint)"
        case .misbehaving: return "gpsd at \(endpoint) sends usable reports again"
        case .noReceiver: return "receiver \(receiver ?? device ?? "") is reporting"
        case .noFix(let device): return "first fix from \(device): \(fix.map(Self.summary) ?? "")"
        case .fixLost(let device, _):
            let after = lostFixAt.map { " after \(Self.seconds($0.duration(to: now))) s" } ?? ""
            return "fix back on \(device)\(after): \(fix.map(Self.summary) ?? "")"
        }
    }

    /// "3D, 7 satellites" or "2D".
    static func summary(_ fix: GPSDFix) -> String {
        var text = fix.mode >= 3 ? "3D" : "2D"
        if let used = fix.satellitesUsed { text += ", \(used) satellites" }
        return text
    }

    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let tenths = (Double(seconds) + Double(attoseconds) / 1e18) * 10
        return String(Double(tenths.rounded()) / 10)
    }
}
