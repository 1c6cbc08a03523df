/// The sound a notification plays, as UserNotifications' `UNNotificationSound`.
///
/// ```swift
/// content.sound = .default
/// ```
public final class UNNotificationSound: @unchecked Sendable, Hashable, CustomStringConvertible {
    /// The sound file's name (`"default"` for the system sound).
    let name: String

    /// The system's default notification sound.
    public static var `default`: UNNotificationSound { UNNotificationSound(name: "default") }

    /// A sound file of the app's bundle.
    public convenience init(named name: UNNotificationSoundName) {
        self.init(name: name.rawValue)
    }

    init(name: String) { self.name = name }

    public static func == (a: UNNotificationSound, b: UNNotificationSound) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    public var description: String { name }
}

/// The name of a sound file, as UserNotifications' `UNNotificationSoundName`.
public struct UNNotificationSoundName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
}
