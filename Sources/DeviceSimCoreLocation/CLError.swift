import Foundation

/// CoreLocation's errors (domain `kCLErrorDomain`), as Swift imports an `NSError` domain: a struct with
/// a ``Code``, usable in `catch` patterns and `switch`es on the code.
///
/// ```swift
/// func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
///     if let error = error as? CLError, error.code == .denied { showSettingsHint() }
/// }
/// do { throw CLError(.denied) } catch CLError.denied { ... }
/// ```
public struct CLError: CustomNSError, Hashable, @unchecked Sendable {
    /// The error codes of CLErrorDomain.h.
    public enum Code: Int, Sendable, Hashable, Equatable {
        case locationUnknown = 0
        case denied = 1
        case network = 2
        case headingFailure = 3
        case regionMonitoringDenied = 4
        case regionMonitoringFailure = 5
        case regionMonitoringSetupDelayed = 6
        case regionMonitoringResponseDelayed = 7
        case geocodeFoundNoResult = 8
        case geocodeFoundPartialResult = 9
        case geocodeCanceled = 10
        case deferredFailed = 11
        case deferredNotUpdatingLocation = 12
        case deferredAccuracyTooLow = 13
        case deferredDistanceFiltered = 14
        case deferredCanceled = 15
        case rangingUnavailable = 16
        case rangingFailure = 17
        case promptDeclined = 18
        case historicalLocationError = 19
    }

    /// What went wrong.
    public let code: Code
    /// Extra information (DeviceSim puts what happened under `NSLocalizedDescriptionKey`).
    public let userInfo: [String: Any]

    /// An error with `code`.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        self.userInfo = userInfo
    }

    /// `kCLErrorDomain`.
    public static var errorDomain: String { kCLErrorDomain }
    /// The code's number.
    public var errorCode: Int { code.rawValue }
    /// The user info.
    public var errorUserInfo: [String: Any] { userInfo }

    public static func == (lhs: CLError, rhs: CLError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public static var locationUnknown: Code { .locationUnknown }
    public static var denied: Code { .denied }
    public static var network: Code { .network }
    public static var headingFailure: Code { .headingFailure }
    public static var regionMonitoringDenied: Code { .regionMonitoringDenied }
    public static var regionMonitoringFailure: Code { .regionMonitoringFailure }
    public static var regionMonitoringSetupDelayed: Code { .regionMonitoringSetupDelayed }
    public static var regionMonitoringResponseDelayed: Code { .regionMonitoringResponseDelayed }
    public static var geocodeFoundNoResult: Code { .geocodeFoundNoResult }
    public static var geocodeFoundPartialResult: Code { .geocodeFoundPartialResult }
    public static var geocodeCanceled: Code { .geocodeCanceled }
    public static var deferredFailed: Code { .deferredFailed }
    public static var deferredNotUpdatingLocation: Code { .deferredNotUpdatingLocation }
    public static var deferredAccuracyTooLow: Code { .deferredAccuracyTooLow }
    public static var deferredDistanceFiltered: Code { .deferredDistanceFiltered }
    public static var deferredCanceled: Code { .deferredCanceled }
    public static var rangingUnavailable: Code { .rangingUnavailable }
    public static var rangingFailure: Code { .rangingFailure }
    public static var promptDeclined: Code { .promptDeclined }
    public static var historicalLocationError: Code { .historicalLocationError }

    /// An error whose description says what happened (DeviceSim's text).
    static func with(_ code: Code, _ description: String) -> CLError {
        CLError(code, userInfo: [NSLocalizedDescriptionKey: description])
    }
}

extension CLError.Code {
    /// Matches an error of CoreLocation's domain with `match`'s code (`catch CLError.denied`).
    public static func ~= (match: CLError.Code, error: any Error) -> Bool {
        (error as? CLError)?.code == match
    }
}
