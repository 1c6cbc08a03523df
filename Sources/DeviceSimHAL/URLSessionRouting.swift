/// A type that, once installed, sends the `URLSession` requests of code running on a simulated device
/// through the simulation: DeviceSimNetwork's `SimulatedURLProtocol`.
///
/// The scenario runner does not link it, so that a `devicesim` whose apps make no request loads no URL
/// loading system (FoundationNetworking, libcurl and the libraries they bring). When FoundationNetworking
/// is in the process, the runner finds this type by name and installs it before any app starts; if it
/// is missing, every run fails, saying to link DeviceSimNetwork, instead of letting requests reach the
/// real network.
///
/// ```swift
/// if let routing = _typeByName("DeviceSimNetwork.SimulatedURLProtocol") as? any URLSessionRouting.Type {
///     routing.install()
/// }
/// ```
public protocol URLSessionRouting {
    /// Puts the simulation in front of `URLSession.shared`. Safe to call many times.
    static func install()
}
