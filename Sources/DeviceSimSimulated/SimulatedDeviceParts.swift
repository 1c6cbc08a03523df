import DeviceSimHAL
import DeviceSimTime

extension Device {
    /// Gives the device simulated notifications and prompts and a scripted connection (online), and
    /// returns them; scenarios and tests then answer prompts and switch connectivity through them.
    ///
    /// ```swift
    /// let (notifications, connectivity) = device.attachSimulatedNotificationsAndConnectivity()
    /// notifications.answer(prompt: "locate-precisely", with: "yes")
    /// ```
    @discardableResult
    public func attachSimulatedNotificationsAndConnectivity() -> (notifications: SimulatedNotifications, connectivity: SimulatedConnectivity) {
        let attached = (notifications: SimulatedNotifications(device: self), connectivity: SimulatedConnectivity())
        notifications = attached.notifications
        connectivity = attached.connectivity
        return attached
    }

    /// Gives the device simulated Wi-Fi and Bluetooth beacon ranging in `world`, both off, their noise
    /// split from the device's generator `random` (as `wifi` and `bluetooth`), and returns them.
    ///
    /// ```swift
    /// let radios = device.attachSimulatedRadios(motion: motion, world: index, random: root.split("device:alice"))
    /// radios.wifi.isEnabled = true
    /// ```
    @discardableResult
    public func attachSimulatedRadios(
        motion: DeviceMotion,
        world: WorldIndex,
        random: SeededRandomGenerator,
        wifi wifiConfiguration: SimulatedWiFi.Configuration = .init(),
        bluetooth bluetoothConfiguration: SimulatedBeaconRanging.Configuration = .init()
    ) -> (wifi: SimulatedWiFi, beacons: SimulatedBeaconRanging) {
        let attached = (
            wifi: SimulatedWiFi(scheduler: scheduler, motion: motion, world: world, configuration: wifiConfiguration, random: random.split("wifi")),
            beacons: SimulatedBeaconRanging(scheduler: scheduler, motion: motion, world: world, configuration: bluetoothConfiguration, random: random.split("bluetooth"))
        )
        wifi = attached.wifi
        beacons = attached.beacons
        bluetooth = SimulatedBluetoothScanner(
            scheduler: scheduler, motion: motion, world: world, ranging: attached.beacons, random: random.split("bluetooth-scan"))
        return attached
    }

    /// Records the device's beacon fence crossings in its trace, as `fence.entered` and `fence.left`
    /// with `fence`, and `beacon` and `rssi` when the crossing came from a reading: what scenario runs
    /// and `TestSimulation` both record, so their traces agree. Nil when the device has no beacon
    /// ranging. Keep the token for as long as they should be recorded.
    ///
    /// ```swift
    /// let fences = device.recordBeaconFenceCrossings()
    /// ```
    public func recordBeaconFenceCrossings() -> ObservationToken? {
        beacons?.observeFences { [weak self] event in
            var fields: [(key: String, value: TraceValue)] = [("fence", .string(event.fence))]
            if let beacon = event.beacon { fields.append(("beacon", .string(beacon.description))) }
            if let rssi = event.rssi { fields.append(("rssi", .double(rssi))) }
            self?.record(event.entered ? "fence.entered" : "fence.left", fields)
        }
    }
}
