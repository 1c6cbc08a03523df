import DeviceSimHAL
#if canImport(Glibc)
import Glibc
#endif

/// Makes sure the apps' `URLSession` requests in this process go through the simulation, without the
/// runner linking the URL loading system itself.
///
/// The shipped `devicesim` has no app that makes requests, and FoundationNetworking (with libcurl and
/// about 30 more libraries) costs about 6.5 ms of CPU at every start, so DeviceSimScenario does not depend
/// on DeviceSimNetwork. An executable whose app uses `URLSession` links FoundationNetworking; then the
/// runner looks up DeviceSimNetwork's ``DeviceSimHAL/URLSessionRouting`` by name and installs it, once per
/// process, before any app starts. When FoundationNetworking is there and DeviceSimNetwork is not, every
/// run fails with ``setupError``: a request would otherwise reach the real network, unseen.
///
/// ```swift
/// if let error = SimulatedNetworkInstallation.processOutcome.setupError { setupErrors.append(error) }
/// ```
enum SimulatedNetworkInstallation: Equatable {
    /// No `URLSession` in the process: no app can make a request.
    case urlSessionNotLinked
    /// The simulated transport is installed in front of `URLSession.shared`.
    case installed
    /// `URLSession` is linked, the simulated transport is not.
    case transportMissing

    /// What this process has, decided (and the transport installed) the first time a scenario is set up.
    static let processOutcome = install(urlSessionLinked: urlSessionIsLinked(), routing: linkedRouting())

    /// The name the runner looks DeviceSimNetwork's transport up by.
    static let routingTypeName = "DeviceSimNetwork.SimulatedURLProtocol"

    /// Installs `routing` when `URLSession` is linked; says what is missing otherwise.
    static func install(urlSessionLinked: Bool, routing: (any URLSessionRouting.Type)?) -> Self {
        guard urlSessionLinked else { return .urlSessionNotLinked }
        guard let routing else { return .transportMissing }
        routing.install()
        return .installed
    }

    /// Why a run cannot start, and what to add (nil when it can).
    var setupError: String? {
        guard self == .transportMissing else { return nil }
        return "this program links URLSession (FoundationNetworking) but not DeviceSimNetwork, so an app's requests would reach the real network, "
            + "outside the simulation: add .product(name: \"DeviceSimNetwork\", package: \"DeviceSim\") to the dependencies of the executable "
            + "that runs the scenarios (or of its app's target) in Package.swift"
    }

    /// DeviceSimNetwork's transport, when the process links it.
    static func linkedRouting() -> (any URLSessionRouting.Type)? {
        _typeByName(routingTypeName) as? any URLSessionRouting.Type
    }

    /// Whether `URLSession` is in the process. On Apple's platforms it is part of Foundation; elsewhere it
    /// is FoundationNetworking's, a library of its own (or, in a binary linked with `-static-stdlib`, a
    /// module of the binary).
    static func urlSessionIsLinked() -> Bool {
        #if canImport(FoundationNetworking)
        #if canImport(Glibc)
        if let foundation = dlopen("libFoundation.so", RTLD_LAZY | RTLD_NOLOAD) {
            dlclose(foundation)
            guard let networking = dlopen("libFoundationNetworking.so", RTLD_LAZY | RTLD_NOLOAD) else { return false }
            dlclose(networking)
            return true
        }
        #endif
        return _typeByName("FoundationNetworking.URLSession") != nil
        #else
        return true
        #endif
    }
}
