import DeviceSimHAL

/// The events that say a step did not do what its author meant: an action the screen did not offer,
/// a setting left out, an answer the prompt refused, a step that could not act, a task that was not
/// found. When a scenario fails, the first of them are shown with its first failed expectation, since
/// they are usually why.
///
/// ```
/// ✗ expected at least 1 'signed-in' ...; observed 0 found; ...; the run also recorded: 7s phone
///   prompt.answer-rejected (prompt=sign-in-method, choice=Google, reason=not one of google|email)
/// ```
enum RunDiagnostics {
    /// The names of such events.
    static let names: Set<String> = ["action.ignored", "settings.ignored", "prompt.answer-rejected", "step.skipped", "task.not-found"]
    /// How many are shown.
    static let shown = 3

    /// `outcomes` with the first failed one told about `diagnostics` (events named in ``names``, in
    /// trace order; `total` of them in the run).
    static func annotate(_ outcomes: [ExpectationOutcome], with diagnostics: [TraceEvent], total: Int) -> [ExpectationOutcome] {
        guard !diagnostics.isEmpty, let index = outcomes.firstIndex(where: { !$0.passed }) else { return outcomes }
        var annotated = outcomes
        let listed = diagnostics.prefix(shown).map { event in
            let fields = event.fields.map { "\($0.key)=\($0.value.description)" }.joined(separator: ", ")
            return "\(DurationText.format(event.time.offset))\(event.device.map { " \($0)" } ?? "") \(event.name) (\(fields))"
        }
        var note = "; the run also recorded: " + listed.joined(separator: "; ")
        if total > listed.count { note += "; and \(total - listed.count) more" }
        annotated[index].observed += note
        return annotated
    }
}

/// Keeps the first few diagnostic events of a run (see ``RunDiagnostics``) and counts them all.
final class DiagnosticEventsRecorder: EventSink {
    private(set) var events: [TraceEvent] = []
    private(set) var count = 0

    func record(_ event: TraceEvent) {
        guard records(eventsNamed: event.name) else { return }
        count += 1
        if events.count < RunDiagnostics.shown { events.append(event) }
    }

    func records(eventsNamed name: String) -> Bool {
        RunDiagnostics.names.contains(name)
    }
}
