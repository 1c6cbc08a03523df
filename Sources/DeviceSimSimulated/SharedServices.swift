/// One instance of each service type that everything in a simulation shares (an app's server), made
/// the first time it is asked for: what `ScenarioSimulation` and `TestSimulation` hand their apps.
///
/// ```swift
/// var services = SharedServices()
/// let server = services.service { TaskServer(scheduler: scheduler) }   // the same one every time
/// ```
public struct SharedServices {
    private var services: [ObjectIdentifier: AnyObject] = [:]

    /// None made yet.
    public init() {}

    /// The one instance of `Service`, made by `make` the first time.
    public mutating func service<Service: AnyObject>(_ make: () -> Service) -> Service {
        let key = ObjectIdentifier(Service.self)
        if let existing = services[key] as? Service { return existing }
        let made = make()
        services[key] = made
        return made
    }
}
