import DeviceSimClock

// The HAL's observations as async sequences on the small protocols themselves, so that app code can
// take `any LocationProvider`, `any BeaconRanging`, `any GeofenceMonitoring`, `any ConnectivityMonitor`,
// `any WiFiRadio` and `any NotificationPresenting` (and `any Clock<Duration>`), and write `for await`,
// without a `Device`. Names follow CoreLocation's modern API where one exists.

extension LocationUpdate {
    /// The fix this update carries, if it is one (CoreLocation's `CLLocationUpdate.location`).
    public var location: LocationFix? {
        if case .fix(let fix) = self { return fix }
        return nil
    }
}

extension LocationProvider {
    /// Every later location update, as an async sequence: the shape of CoreLocation's
    /// `CLLocationUpdate.liveUpdates()`.
    ///
    /// ```swift
    /// for await update in location.liveUpdates() {
    ///     if let fix = update.location { marker = fix.coordinate }
    /// }
    /// ```
    public func liveUpdates(
        bufferingPolicy: AsyncStream<LocationUpdate>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<LocationUpdate> {
        ObservationStream.make(bufferingPolicy: bufferingPolicy) { observe($0) }
    }

    /// Only the fixes of ``liveUpdates(bufferingPolicy:)``.
    ///
    /// ```swift
    /// for await fix in location.fixes() where fix.coordinate.distance(to: shop) < 30 { ... }
    /// ```
    public func fixes() -> AsyncStream<LocationFix> {
        ObservationStream.make { yield in observe { update in if let fix = update.location { yield(fix) } } }
    }
}

extension BeaconRanging {
    /// Ranging reports, one a second while Bluetooth is on (each the beacons heard, with their proximity
    /// and estimated distance), as an async sequence.
    ///
    /// ```swift
    /// for await report in beacons.rangingReports() where report.contains(where: { $0.proximity == .immediate }) { ... }
    /// ```
    public func rangingReports(
        bufferingPolicy: AsyncStream<[BeaconSighting]>.Continuation.BufferingPolicy = .bufferingNewest(64)
    ) -> AsyncStream<[BeaconSighting]> {
        ObservationStream.make(bufferingPolicy: bufferingPolicy) { observeRanging($0) }
    }

    /// Beacon fences entered and left (left after the exit delay without a sighting, or when Bluetooth
    /// goes off), as an async sequence: the beacon side of CoreLocation's `CLMonitor` events.
    ///
    /// ```swift
    /// for await event in beacons.fenceEvents() where event.entered { greet(event.fence) }
    /// ```
    public func fenceEvents() -> AsyncStream<BeaconFenceEvent> {
        ObservationStream.make { observeFences($0) }
    }
}

extension GeofenceMonitoring {
    /// Every later transition of the monitored regions, as an async sequence: the shape of
    /// CoreLocation's `CLMonitor.events`.
    ///
    /// ```swift
    /// try geofences.startMonitoring(GeofenceRegion(id: "office", center: office, radius: 150))
    /// for await event in geofences.events() where event.transition == .enter { ... }
    /// ```
    public func events() -> AsyncStream<GeofenceEvent> {
        ObservationStream.make { observe($0) }
    }
}

extension ConnectivityMonitor {
    /// Every later change of connectivity, as an async sequence (the current state is ``state``).
    ///
    /// ```swift
    /// for await state in connectivity.changes() where state == .online { await uploadPending() }
    /// ```
    public func changes() -> AsyncStream<ConnectivityState> {
        ObservationStream.make { observe($0) }
    }
}

extension WiFiRadio {
    /// Every delivered scan, as an async sequence (a throttled request repeats the previous results with
    /// `resultsUpdated` false).
    ///
    /// ```swift
    /// for await scan in wifi.scans() where scan.resultsUpdated { presence.update(with: scan.results) }
    /// ```
    public func scans() -> AsyncStream<WiFiScan> {
        ObservationStream.make { observeScans($0) }
    }
}
