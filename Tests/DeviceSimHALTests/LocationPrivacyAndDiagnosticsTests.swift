import DeviceSimHAL
import DeviceSimTime
import Testing

/// A location source that never reports (the tests here need a device, not its position).
private final class SilentLocation: LocationProvider {
    var currentFix: LocationFix? { nil }
    func observe(_ observer: @escaping (LocationUpdate) -> Void) -> ObservationToken { ObservationToken {} }
}

@Suite struct LocationPrivacyAndDiagnosticsTests {
    func makeDevice() -> (Device, TraceRecorder) {
        let trace = TraceRecorder()
        return (Device(id: "phone", scheduler: EventScheduler(), location: SilentLocation(), events: trace), trace)
    }

    @Test func theSettingsArePerPhoneTracedOnChangeOnlyAndObserved() {
        let (device, trace) = makeDevice()
        var changes = 0
        let token = device.locationPrivacy.observe { changes += 1 }
        #expect(device.locationPrivacy === device.locationPrivacy)
        #expect(device.locationPrivacy.appAuthorization == .notDetermined && device.locationPrivacy.servicesEnabled)
        device.locationPrivacy.appAuthorization = .whenInUse
        device.locationPrivacy.appAuthorization = .whenInUse          // no change: no event
        device.locationPrivacy.servicesEnabled = false
        #expect(changes == 2)
        #expect(trace.events.map(\.name) == ["location.authorization", "location.services"])
        #expect(trace.events.first?.fields.first?.value == .string("when-in-use"))
        token.cancel()
        device.locationPrivacy.restricted = true
        #expect(changes == 2)
    }

    @Test func aDiagnosticIsTracedAndTakenOnce() {
        let (device, trace) = makeDevice()
        device.reportAPIDiagnostic(api: "CLLocationManagerDelegate", message: "implement locationManager(_:didUpdateLocations:)")
        #expect(trace.events.map(\.name) == ["api.diagnostic"])
        let taken = device.takeAPIDiagnostics()
        #expect(taken.map(\.api) == ["CLLocationManagerDelegate"])
        #expect(taken.first?.description.contains("phone at") == true)
        #expect(device.takeAPIDiagnostics().isEmpty)
    }
}
