import Foundation

/// A monitored area: a ``CLCircularRegion`` or a ``CLBeaconRegion``.
///
/// ```swift
/// region.notifyOnExit = false   // entries only
/// ```
open class CLRegion: NSObject, @unchecked Sendable {
    /// The app's name for the region; a region with the same identifier replaces it when monitored.
    public let identifier: String
    /// Whether entering is reported (true by default).
    open var notifyOnEntry = true
    /// Whether leaving is reported (true by default).
    open var notifyOnExit = true

    init(identifier: String) {
        self.identifier = identifier
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CLRegion else { return false }
        return type(of: other) == type(of: self) && other.identifier == identifier
    }

    open override var hash: Int { identifier.hashValue }
}
