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

    /// Creates an error.
    public init(_ message: String, at location: SourceLocation?) {
        self.message = message
        self.location = location
    }

    public var description: String {
        if let location { return "\(location): \(message)" }
        return message
    }
}
