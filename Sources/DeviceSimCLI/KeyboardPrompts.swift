import DeviceSimHAL
import DeviceSimScenario
import DeviceSimSimulated
import DeviceSimTime
import Foundation

/// The prompts showing on a live device, shared between the simulation's thread (which shows and
/// closes them) and the keyboard's and the status line's threads (which read them).
final class PromptBoard: @unchecked Sendable {
    /// A prompt showing, with its number and its wall-clock deadline (nil: no timeout).
    struct Entry: Sendable {
        var token: Int
        var prompt: UserPrompt
        var deadline: ContinuousClock.Instant?
    }

    private let lock = NSLock()
    private var entries: [Entry] = []

    /// The prompts showing, oldest first.
    var showing: [Entry] { lock.withLock { entries } }

    /// The oldest prompt showing: the one a keypress answers.
    var oldest: Entry? { lock.withLock { entries.first } }

    func add(_ entry: Entry) { lock.withLock { entries.append(entry) } }

    func remove(_ token: Int) { lock.withLock { entries.removeAll { $0.token == token } } }

    func contains(_ token: Int) -> Bool { lock.withLock { entries.contains { $0.token == token } } }

    /// "1) yes  2) no" for `prompt`.
    static func numberedChoices(_ prompt: UserPrompt) -> String {
        prompt.choices.enumerated().map { "\($0.offset + 1)) \($0.element)" }.joined(separator: "  ")
    }
}

/// A device's prompts answered by a person at the keyboard, for any app: it stands in front of the
/// device's simulated notifications, shows each prompt on the console with numbered choices, and
/// passes a keypress on as the user's answer, so the trace gets the same `prompt.shown`,
/// `prompt.answered` and `prompt.timed-out` events as from a scenario's scripted answers. The app's
/// timeout still applies.
///
/// ```swift
/// let prompts = KeyboardPrompts(notifications: simulated.notifications, scheduler: scheduler, console: console)
/// simulated.device.notifications = prompts        // before the apps start
/// KeyboardInput(onKey: prompts.keyHandler).start()
/// ```
final class KeyboardPrompts: NotificationPresenting {
    /// The prompts showing, for the status line.
    let board = PromptBoard()
    private let notifications: SimulatedNotifications
    fileprivate let scheduler: EventScheduler
    private let console: LiveConsole
    private var nextToken = 0

    init(notifications: SimulatedNotifications, scheduler: EventScheduler, console: LiveConsole) {
        self.notifications = notifications
        self.scheduler = scheduler
        self.console = console
    }

    @discardableResult
    func ask(_ prompt: UserPrompt, timeout: Duration?, answer: @escaping (String?) -> Void) -> PromptWithdrawal {
        let token = nextToken
        nextToken += 1
        board.add(PromptBoard.Entry(token: token, prompt: prompt, deadline: timeout.map { ContinuousClock.now + $0 }))
        let withdrawal = notifications.ask(prompt, timeout: timeout) { [board] choice in
            board.remove(token)
            answer(choice)
        }
        let limit = timeout.map { " (\(DurationText.format($0)) to answer)" } ?? ""
        console.line("? \(prompt.message)  \(PromptBoard.numberedChoices(prompt))  press 1-\(prompt.choices.count)\(limit)")
        return PromptWithdrawal { [board, console] in
            guard board.contains(token) else { return }
            board.remove(token)
            withdrawal.withdraw()
            console.line("  (the question \"\(prompt.message)\" no longer applies)")
        }
    }

    func notify(id: String, message: String) {
        notifications.notify(id: id, message: message)
    }

    /// Answers the prompt `token` if it is still showing (it may have timed out since the keypress).
    fileprivate func answer(_ token: Int, _ prompt: UserPrompt, with choice: String) {
        guard board.contains(token) else { return }
        // The simulated notifications answer the oldest prompt showing with this id: the board keeps the
        // same order, so that is this one.
        notifications.answer(prompt: prompt.id, with: choice)
    }
}

/// A weak reference to the prompts that crosses to the simulation's thread; dereferenced only there.
private final class KeyboardPromptsReference: @unchecked Sendable {
    weak var value: KeyboardPrompts?

    init(_ value: KeyboardPrompts) {
        self.value = value
    }
}

extension KeyboardPrompts {
    /// What the keyboard thread calls with each key: a digit answers the oldest prompt showing with
    /// that choice, on the simulation's thread; other keys, and digits with no such choice, are
    /// ignored.
    var keyHandler: @Sendable (UInt8) -> Void {
        let board = board
        let executor = scheduler.executor
        let target = KeyboardPromptsReference(self)
        return { key in
            guard (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(key), let entry = board.oldest else { return }
            let index = Int(key - UInt8(ascii: "1"))
            guard index < entry.prompt.choices.count else { return }
            executor.submit { target.value?.answer(entry.token, entry.prompt, with: entry.prompt.choices[index]) }
        }
    }
}
