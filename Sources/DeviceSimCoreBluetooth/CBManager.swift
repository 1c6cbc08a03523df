import Foundation

/// What central and peripheral managers share (CBManager.h): their state and the app's authorization.
///
/// ```swift
/// let manager = CBCentralManager(delegate: self, queue: nil)
/// manager.state            // .unknown until the first centralManagerDidUpdateState
/// CBManager.authorization  // .allowedAlways
/// ```
open class CBManager: NSObject {
    /// The manager's state: `.unknown` until the first state update, delivered at the next virtual instant.
    open internal(set) var state: CBManagerState = .unknown

    /// The app's Bluetooth authorization (iOS 13.1): always `.allowedAlways` in DeviceSim.
    open class var authorization: CBManagerAuthorization { .allowedAlways }

    /// The app's Bluetooth authorization, per manager (iOS 13.0, deprecated in 13.1 for the class property).
    @available(*, deprecated, message: "Use CBManager.authorization")
    open var authorization: CBManagerAuthorization { Self.authorization }

    override init() {
        super.init()
    }
}
