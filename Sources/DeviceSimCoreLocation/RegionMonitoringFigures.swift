import DeviceSimHAL

/// When a monitored region's entry or exit is reported (a DeviceSim setting, per phone: see
/// ``DeviceSimHAL/Device/regionMonitoringFigures``).
///
/// Apple, "Region Monitoring and iBeacon" (Location and Maps Programming Guide): "the user's location must
/// cross the region boundary, move away from the boundary by a minimum distance, and remain at that
/// minimum distance for at least 20 seconds before the notifications are reported. [...] for testing
/// purposes, you can assume that the minimum distance is approximately 200 meters." The defaults are
/// those figures. A circle smaller than twice the margin cannot be entered by a margin: it counts as
/// entered at half its radius from the centre (DeviceSim's rule).
///
/// ```swift
/// phone.device.regionMonitoringFigures = RegionMonitoringFigures(boundaryMargin: 50, confirmation: .seconds(20))
/// ```
public struct RegionMonitoringFigures: Sendable, Hashable {
    /// How far past the boundary the device must be (metres; Apple: about 200 m).
    public var boundaryMargin: Double
    /// How long it must stay there before the event (Apple: at least 20 s).
    public var confirmation: Duration
    /// How long after the last sighting of its beacons a beacon region is left (DeviceSim's figure:
    /// Apple publishes none).
    public var beaconExitDelay: Duration
    /// `maximumRegionMonitoringDistance` (DeviceSim's figure: Apple publishes none).
    public var maximumRegionMonitoringDistance: Double
    /// The most regions an app monitors at once (Apple: 20).
    public var maximumRegions: Int

    /// The documented defaults.
    public init(
        boundaryMargin: Double = 200, confirmation: Duration = .seconds(20), beaconExitDelay: Duration = .seconds(30),
        maximumRegionMonitoringDistance: Double = 100_000, maximumRegions: Int = 20
    ) {
        self.boundaryMargin = boundaryMargin
        self.confirmation = confirmation
        self.beaconExitDelay = beaconExitDelay
        self.maximumRegionMonitoringDistance = maximumRegionMonitoringDistance
        self.maximumRegions = maximumRegions
    }
}

extension Device {
    /// When this phone reports region entries and exits to `CLLocationManager` delegates (Apple's
    /// figures by default: 200 m past the boundary for 20 s).
    public var regionMonitoringFigures: RegionMonitoringFigures {
        get { locationServices.figures }
        set { locationServices.figures = newValue }
    }

    /// The phone's CoreLocation state (authorization prompt, monitored regions).
    var locationServices: PhoneLocationServices {
        platformState(PhoneLocationServices.self) { PhoneLocationServices(device: self) }
    }
}
