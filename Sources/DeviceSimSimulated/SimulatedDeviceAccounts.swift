import DeviceSimHAL
import DeviceSimTime

/// The device's account manager in a simulation: accounts by sign-in method, given by the scenario,
/// and the system's "add account" screen, which stays open until the scenario (the user) finishes or
/// cancels it.
///
/// Events (device's trace): `accounts.add-opened` (`method`), `accounts.added` (`method`,
/// `account`), `accounts.add-cancelled` (`method`).
///
/// ```swift
/// let accounts = SimulatedDeviceAccounts(device: device, accounts: ["google": ["anna@gmail.com"]])
/// accounts.finishAdding(method: "google", account: "boris@gmail.com")
/// ```
public final class SimulatedDeviceAccounts: DeviceAccounts {
    private unowned let device: Device
    private var byMethod: [String: [String]]
    private var pending: [String: [(String?) -> Void]] = [:]

    /// An account manager holding `accounts` (by method).
    public init(device: Device, accounts: [String: [String]] = [:]) {
        self.device = device
        self.byMethod = accounts
    }

    public func accounts(for method: String) -> [String] {
        byMethod[method] ?? []
    }

    public func requestNewAccount(for method: String, completion: @escaping (String?) -> Void) {
        pending[method, default: []].append(completion)
        device.record("accounts.add-opened", [("method", .string(method))])
    }

    /// Whether the "add account" screen of `method` is open.
    public func isAdding(method: String) -> Bool { !(pending[method] ?? []).isEmpty }

    /// The user finishes adding `account` for `method`: it joins the device's accounts, and an open
    /// "add account" screen of that method closes with it. Returns whether a screen was open.
    @discardableResult
    public func finishAdding(method: String, account: String) -> Bool {
        if !(byMethod[method] ?? []).contains(account) { byMethod[method, default: []].append(account) }
        device.record("accounts.added", [("method", .string(method)), ("account", .string(account))])
        let waiting = pending.removeValue(forKey: method) ?? []
        for completion in waiting { completion(account) }
        return !waiting.isEmpty
    }

    /// The user cancels the open "add account" screen of `method`. Returns whether one was open.
    @discardableResult
    public func cancelAdding(method: String) -> Bool {
        let waiting = pending.removeValue(forKey: method) ?? []
        guard !waiting.isEmpty else { return false }
        device.record("accounts.add-cancelled", [("method", .string(method))])
        for completion in waiting { completion(nil) }
        return true
    }
}
