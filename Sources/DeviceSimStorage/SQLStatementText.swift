/// Statement boundaries in SQL text, found without a database: strings ('…'), quoted names ("…",
/// `…`, […]) and comments (`--`, `/* */`) are skipped, so a `;` inside them ends nothing.
///
/// ```swift
/// SQLStatementText.secondStatementOffset(in: "SELECT 1; DROP TABLE tasks")   // 10
/// SQLStatementText.secondStatementOffset(in: "SELECT ';'; -- done")          // nil
/// ```
public enum SQLStatementText {
    /// The UTF-8 offset where a second statement starts (the first character after a `;` that is
    /// neither a space, a comment nor another `;`); nil when the text holds one statement.
    public static func secondStatementOffset(in sql: String) -> Int? {
        let bytes = Array(sql.utf8)
        var index = 0
        var ended = false
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "["):
                if ended { return index }
                let close = byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : byte
                index += 1
                while index < bytes.count, bytes[index] != close { index += 1 }
                index += 1
            case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-"):
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                index += 2
                while index + 1 < bytes.count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) { index += 1 }
                index += 2
            case UInt8(ascii: ";"):
                ended = true
                index += 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0C:
                index += 1
            default:
                if ended { return index }
                index += 1
            }
        }
        return nil
    }

    /// The line and column (both from 1, the column in characters) of the UTF-8 offset `offset` of `text`.
    public static func lineAndColumn(of offset: Int, in text: String) -> (line: Int, column: Int) {
        let before = String(decoding: text.utf8.prefix(offset), as: UTF8.self)
        let lines = before.split(separator: "\n", omittingEmptySubsequences: false)
        return (lines.count, (lines.last?.count ?? 0) + 1)
    }
}
