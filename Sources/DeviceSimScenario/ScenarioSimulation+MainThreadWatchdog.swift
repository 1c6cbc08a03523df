import DeviceSimTime

extension ScenarioSimulation {
    /// The scenario's apps and where each is started ("'cafe-check-in' on phone at check-in.yaml:7"):
    /// the file:line a message about the app's code can always name (a stack may have none).
    var appsAndWhereTheyAreStarted: String {
        var launched: [String: String] = [:]
        for spec in scenario.devices { if let app = spec.app, launched[app.name] == nil { launched[app.name] = "'\(app.name)' on \(spec.id) at \(spec.location)" } }
        return launched.keys.sorted().compactMap { launched[$0] }.joined(separator: ", ")
    }

    /// Stops the run, left behind on the blocked main thread, saying why (see ``MainThreadWatchdog``).
    func stopForTheBlockedMainThread(_ block: MainThreadBlock) -> SchedulerError {
        let limit = DurationText.format(MainThreadWatchdog.limit)
        let reason: String
        switch block {
        case .now(let duration, let frame):
            // Read while the main thread is blocked, so nothing changes them meanwhile.
            let step = mainActorActivity.current.withLock { $0 }
            var text = "the main thread has been blocked for \(DurationText.format(duration)) (the limit is \(limit)) by main-actor work of the app's code (\(appsAndWhereTheyAreStarted))"
            if let frame { text += ", in \(frame)" }
            text += ", which started at \(DurationText.format(scheduler.now.offset))"
            if let step { text += " during \(step)" }
            reason = text + ": nothing else runs on the main actor meanwhile, so the run cannot go on. Do not wait on the main thread "
                + "(Thread.sleep, a semaphore or lock, DispatchQueue.main.sync, a busy loop): sleep on the clock the app is given "
                + "(`context.device.clock`) and move long work off the main actor. If the work is only slow, raise the limit with "
                + "\(MainThreadWatchdog.environmentVariable) (e.g. =30s)"
        case .byAnEarlierRun(let earlier):
            reason = "not run: the scenario's app runs on the main actor, and the main thread is still held by an earlier scenario's app "
                + "(\(earlier)), so nothing can run there"
        }
        let first = appCodeProblem.reason.withLock { found in
            defer { if found == nil { found = reason } }
            return found == nil
        }
        // If the main thread ever comes back, the run left behind stops at its next event.
        let scheduler = WeakScheduler(self.scheduler)
        if first { self.scheduler.executor.submit { scheduler.value?.stop(because: reason) } }
        return .stopped(reason: reason, at: self.scheduler.now)
    }
}
