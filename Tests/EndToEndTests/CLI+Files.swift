import Foundation
import Testing

extension CLI {
    /// A fresh folder with `files` (name: text) written into it.
    static func folder(_ files: [String: String]) throws -> URL {
        let folder = try CLI.temporaryFolder()
        for (name, text) in files {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return folder
    }

    /// `devicesim run` and `devicesim validate` of `file` both exit 2 with `message` on standard error.
    static func expectRunAndValidateRefuse(_ file: URL, saying message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for command in ["run", "validate"] {
            let output = try CLI.run([command, file.path], timeout: 60)
            #expect(output.status == 2, "\(command): \(output.standardOutput)\(output.standardError)", sourceLocation: sourceLocation)
            #expect(output.standardError.contains(message), "\(command): \(output.standardError)", sourceLocation: sourceLocation)
        }
    }
}
