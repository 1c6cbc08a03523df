import DeviceSimHAL
import DeviceSimSimulated

extension World {
    /// The hotspots as the backend describes them to apps.
    public var hotspotInfos: [HotspotInfo] {
        hotspots.map { hotspot in
            var beacons: [BeaconIdentifier: GeoCoordinate] = [:]
            if let fence = hotspot.fence {
                for beacon in self.beacons where beacon.fence == fence { beacons[beacon.id] = beacon.position }
            }
            return HotspotInfo(
                name: hotspot.name, center: hotspot.area.center, area: hotspot.area, accessPoints: Set(hotspot.accessPoints.map(\.bssid)),
                fence: hotspot.fence, beacons: beacons)
        }
    }
}
