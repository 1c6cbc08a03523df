/// Whether the app gets precise or approximate locations (iOS 14).
///
/// ```swift
/// if manager.accuracyAuthorization == .reducedAccuracy { showApproximateBanner() }
/// ```
public enum CLAccuracyAuthorization: Int, Sendable, Hashable {
    /// Precise locations.
    case fullAccuracy = 0
    /// Approximate locations ("Precise Location" off).
    case reducedAccuracy = 1
}
