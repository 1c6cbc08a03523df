/// Accounts the device holds, by sign-in method (`google`, `email`, ...), which apps may sign in with;
/// adding one is something the user does in the system's own screens, which takes time and can be
/// cancelled.
///
/// ```swift
/// let accounts = device.accounts?.accounts(for: "google") ?? []
/// device.accounts?.requestNewAccount(for: "google") { added in ... }   // nil: the user cancelled
/// ```
public protocol DeviceAccounts: AnyObject {
    /// The accounts of `method`, in the order they were added.
    func accounts(for method: String) -> [String]
    /// Opens the system's "add account" screen for `method`; `completion` gets the new account, or nil
    /// when the user cancels.
    func requestNewAccount(for method: String, completion: @escaping (String?) -> Void)
}
