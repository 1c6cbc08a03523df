extension ScenarioAppContext {
    /// Runs `body` on the main actor with this context and returns what it made: for the adapter of an app
    /// that ``ScenarioApp/runsOnMainActor``, which the runner launches on the main actor, to create its
    /// `@MainActor` view model with the device. (Elsewhere it stops the program, as
    /// `MainActor.assumeIsolated` does.)
    ///
    /// ```swift
    /// init(context: ScenarioAppContext, settings: Settings) {
    ///     model = context.onMainActor { context in CheckInViewModel(clock: context.device.clock) }
    /// }
    /// func perform(_ action: Action) {
    ///     MainActor.assumeIsolated { [model] in model.leave() }
    /// }
    /// ```
    public func onMainActor<Result>(_ body: @MainActor (ScenarioAppContext) -> Result) -> Result {
        let context = MainActorHandOver(self)
        return MainActor.assumeIsolated { MainActorHandOver(body(context.value)) }.value
    }
}

/// Values handed to the main actor and back by an app's adapter, which the runner calls only on the main
/// actor when the app runs there (the simulation's thread in such a run), so nothing else touches them meanwhile.
struct MainActorHandOver<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
