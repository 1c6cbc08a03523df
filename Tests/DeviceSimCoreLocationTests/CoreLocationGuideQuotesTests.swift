import Foundation
import Testing

/// docs/your-corelocation-code.md quotes files of this target: each `<!-- example: PATH -->` block is the
/// whole file, so the guide's worked example is the code CI compiles and runs.
@Suite struct CoreLocationGuideQuotesTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func everyQuotedExampleIsTheFileItNames() throws {
        let guide = "docs/your-corelocation-code.md"
        let text = try String(contentsOf: Self.repository.appendingPathComponent(guide), encoding: .utf8)
        let pattern = try Regex(#"<!-- example: (\S+) -->\n```swift\n((?:.|\n)*?)```"#)
        let quotes = text.matches(of: pattern).map { (String($0.output[1].substring!), String($0.output[2].substring!)) }
        #expect(quotes.count == 2)
        for (path, code) in quotes {
            let file = try String(contentsOf: Self.repository.appendingPathComponent(path), encoding: .utf8)
            #expect(code == file, "\(guide): the block quoting \(path) differs from the file; copy the file into the page again")
        }
    }

    @Test func theGuideLinksTheTablesAndTheREADMELinksTheGuide() throws {
        let guide = try String(contentsOf: Self.repository.appendingPathComponent("docs/your-corelocation-code.md"), encoding: .utf8)
        #expect(guide.contains("](apple-apis/CoreLocation.md)") && guide.contains("CoreBluetooth: see [apple-apis/CoreBluetooth.md](apple-apis/CoreBluetooth.md)"))
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("](docs/your-corelocation-code.md)"))
        #expect(FileManager.default.fileExists(atPath: Self.repository.appendingPathComponent("docs/apple-apis/CoreLocation.md").path))
    }
}
