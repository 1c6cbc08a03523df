import DeviceSimClock

extension Device {
    /// The device's location updates as an async sequence, for flows written with `for await`.
    ///
    /// Values are delivered on the simulation's executor in the order the source sends them; the
    /// observation ends when the consuming task stops iterating or is cancelled.
    ///
    /// ```swift
    /// for await update in device.locationUpdates() {
    ///     if case .fix(let fix) = update { marker = fix.coordinate }
    /// }
    /// ```
    public func locationUpdates(
        bufferingPolicy: AsyncStream<LocationUpdate>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<LocationUpdate> {
        stream(of: LocationUpdate.self, bufferingPolicy: bufferingPolicy) { location.observe($0) }
    }

    /// The Wi-Fi radio's delivered scans as an async sequence (empty, finished at once, without Wi-Fi).
    ///
    /// ```swift
    /// for await scan in device.wifiScans() where scan.resultsUpdated { presence.update(with: scan.results) }
    /// ```
    ///
    /// Scans are delivered on the simulation's executor in order and buffered without bound; the
    /// observation ends when the consuming task stops iterating or is cancelled (scans still buffered
    /// then are dropped, as the sequence ends at once).
    public func wifiScans() -> AsyncStream<WiFiScan> {
        let queue = ObservationQueue<WiFiScan>()
        guard let observation = wifi?.observeScans({ queue.send($0) }) else {
            return stream(of: WiFiScan.self, bufferingPolicy: .unbounded) { _ in nil }
        }
        let subscription = SimulationBound(observation, executor: scheduling.executor)
        let executor = scheduling.executor
        queue.onTermination { executor.submit { subscription.value.cancel() } }
        return queue.stream()
    }

    /// Bluetooth ranging reports, one a second while Bluetooth is on (finished at once without it).
    ///
    /// ```swift
    /// for await report in device.rangingReports() where !report.isEmpty { ... }
    /// ```
    public func rangingReports() -> AsyncStream<[BeaconSighting]> {
        stream(of: [BeaconSighting].self, bufferingPolicy: .bufferingNewest(64)) { beacons?.observeRanging($0) }
    }

    /// Beacon fences entered and left (finished at once without Bluetooth).
    public func fenceEvents() -> AsyncStream<BeaconFenceEvent> {
        stream(of: BeaconFenceEvent.self, bufferingPolicy: .unbounded) { beacons?.observeFences($0) }
    }

    /// Connectivity changes (finished at once without a connectivity driver).
    public func connectivityChanges() -> AsyncStream<ConnectivityState> {
        stream(of: ConnectivityState.self, bufferingPolicy: .unbounded) { connectivity?.observe($0) }
    }

    /// An observation turned into an async sequence whose values arrive on the simulation's executor;
    /// it ends when the consumer stops or is cancelled, or at once when `observe` returns nil.
    private func stream<Value: Sendable>(
        of type: Value.Type,
        bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy,
        _ observe: (@escaping (Value) -> Void) -> ObservationToken?
    ) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: bufferingPolicy)
        guard let observation = observe({ continuation.yield($0) }) else {
            continuation.finish()
            return stream
        }
        let subscription = SimulationBound(observation, executor: scheduling.executor)
        let executor = scheduling.executor
        continuation.onTermination = { _ in executor.submit { subscription.value.cancel() } }
        return stream
    }

    /// Only the fixes of ``locationUpdates(bufferingPolicy:)``.
    ///
    /// ```swift
    /// for await fix in device.locationFixes() { ... }
    /// ```
    public func locationFixes() -> AsyncCompactMapSequence<AsyncStream<LocationUpdate>, LocationFix> {
        locationUpdates().compactMap { update in
            if case .fix(let fix) = update { return fix }
            return nil
        }
    }
}
