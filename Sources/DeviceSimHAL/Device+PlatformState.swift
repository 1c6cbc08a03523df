extension Device {
    /// The device's one instance of `State`, made by `make` on first use: state that belongs to the
    /// phone rather than to one object of an API (the app's location authorization, which every
    /// `CLLocationManager` on the phone shares; the phone's notification center).
    ///
    /// ```swift
    /// let authorization = device.platformState(LocationAuthorization.self) { LocationAuthorization(device: device) }
    /// ```
    public func platformState<State: AnyObject>(_ type: State.Type, make: () -> State) -> State {
        let key = ObjectIdentifier(type)
        if let existing = platformStates[key] { return existing as! State }
        let made = make()
        platformStates[key] = made
        return made
    }
}
