import DeviceSimSimulated

/// A place in an input file, 1-based, as editors and compilers print it.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file's path as the user gave it.
    public var file: String
    /// Line, from 1.
    public var line: Int
    /// Column, from 1.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }
}

/// Invalid input: what was expected, and where.
///
/// Its description reads `file:line:column: message`, which editors and CI logs turn into links.
public struct ScenarioError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is (nil when it concerns the whole file).
    public var location: SourceLocation?
    /// What is wrong and what was expected instead.
    public var message: String
    /// The line of the file the location is on, shown under the message with a caret at the column
    /// (YAML syntax errors, whose message alone rarely says what to change).
    public var sourceLine: String?

    /// Creates an error.
    public init(_ message: String, at location: SourceLocation?, sourceLine: String? = nil) {
        self.message = message
        self.location = location
        self.sourceLine = sourceLine
    }

    public var description: String {
        guard let location else { return message }
        guard let sourceLine else { return "\(location): \(message)" }
        // The file's line with its control characters escaped (it must not move the cursor); tabs
        // before the column stay tabs, so the caret lines up under the character in a terminal.
        let shown = MessageText.escapingControls(sourceLine)
        let before = MessageText.escapingControls(String(sourceLine.prefix(max(0, location.column - 1))))
        let caret = String(before.map { $0 == "\t" ? "\t" : " " }) + "^"
        return "\(location): \(message)\n    \(shown)\n    \(caret)"
    }
}
