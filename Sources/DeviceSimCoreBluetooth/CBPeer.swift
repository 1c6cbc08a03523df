import Foundation

/// A remote Bluetooth device (CBPeer.h): its identifier.
///
/// ```swift
/// let id: UUID = peripheral.identifier
/// ```
open class CBPeer: NSObject {
    /// The identifier the phone gives the peer: stable on one phone, different on another (iOS hides
    /// the peer's address).
    public let identifier: UUID

    init(identifier: UUID) {
        self.identifier = identifier
        super.init()
    }
}
