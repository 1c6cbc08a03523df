import DeviceSimClock

extension LocationProvider {
    /// Waits for the next fix from this source, on the simulation's executor; returns nil if the
    /// waiting task is cancelled first.
    ///
    /// ```swift
    /// let fix = await device.location.nextFix(on: device.scheduling.executor)
    /// ```
    public func nextFix(on executor: any SimulationExecuting) async -> LocationFix? {
        let source = SimulationBound(self as any LocationProvider, executor: executor)
        return await waitForCallback(on: executor, cancelled: nil) { finish in
            let subscription = source.value.observe { update in
                if case .fix(let fix) = update { finish(fix) }
            }
            return { subscription.cancel() }
        }
    }
}
