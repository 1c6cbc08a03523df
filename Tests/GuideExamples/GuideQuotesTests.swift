import Foundation
import Testing

/// docs/testing-your-flows.md quotes the files of this target: each `<!-- example: PATH -->` block is
/// the whole file, each `<!-- excerpt: PATH -->` block a part of it, and every example file is quoted.
@Suite struct GuideQuotesTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let guide = "docs/testing-your-flows.md"

    struct Quote {
        let kind: String
        let path: String
        let code: String
    }

    static func quotes() throws -> [Quote] {
        let text = try String(contentsOf: repository.appendingPathComponent(guide), encoding: .utf8)
        let pattern = try Regex(#"<!-- (example|excerpt): (\S+) -->\n```swift\n((?:.|\n)*?)```"#)
        return text.matches(of: pattern).map { match in
            Quote(kind: String(match.output[1].substring!), path: String(match.output[2].substring!), code: String(match.output[3].substring!))
        }
    }

    @Test func everyQuoteIsTheFileItNames() throws {
        let quotes = try Self.quotes()
        #expect(quotes.count >= 7)
        for quote in quotes {
            let file = try String(contentsOf: Self.repository.appendingPathComponent(quote.path), encoding: .utf8)
            if quote.kind == "example" {
                #expect(quote.code == file, "\(Self.guide): the block quoting \(quote.path) differs from the file; copy the file into the page again")
            } else {
                #expect(file.contains(quote.code), "\(Self.guide): the excerpt of \(quote.path) is not in the file; copy it again")
            }
        }
    }

    @Test func everyExampleFileIsQuoted() throws {
        let quoted = Set(try Self.quotes().filter { $0.kind == "example" }.map(\.path))
        let folder = Self.repository.appendingPathComponent("Tests/GuideExamples")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix("Example.swift") }
            .map { "Tests/GuideExamples/\($0)" }
        #expect(files.count == 6)
        for file in files { #expect(quoted.contains(file), "\(Self.guide) does not quote \(file)") }
    }
}
