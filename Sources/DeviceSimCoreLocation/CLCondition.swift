/// A condition a ``CLMonitor`` monitors: ``CLMonitor/CircularGeographicCondition`` or
/// ``CLMonitor/BeaconIdentityCondition``.
///
/// ```swift
/// let condition: any CLCondition = CLMonitor.CircularGeographicCondition(center: cafe, radius: 100)
/// ```
public protocol CLCondition: Sendable {}
