import Foundation
import Testing

/// Symbolic links never lead devicesim outside the folders a user named: it neither deletes nor
/// writes through one, nor reads a file through one found in a folder it searched, and an error
/// about a file that is not ours quotes one short line of it at most (issue 38, item 6). Every
/// "outside" here is a folder of the test's own temporary folder.
@Suite struct SymlinkTests {
    /// A temporary folder holding `inside/` (what the user names) and `outside/` (what must not be touched).
    static func folders() throws -> (root: URL, inside: URL, outside: URL) {
        let root = try CLI.temporaryFolder()
        let inside = root.appendingPathComponent("inside"), outside = root.appendingPathComponent("outside")
        for folder in [inside, outside] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        return (root, inside, outside)
    }

    static let secret = "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\nSECOND-LINE-SECRET\n"

    @Test func aKeptDataFolderThatLinksOutsideIsNeitherEmptiedNorWritten() throws {
        let (root, inside, outside) = try Self.folders()
        defer { try? FileManager.default.removeItem(at: root) }
        let precious = outside.appendingPathComponent("walker.sqlite")
        try "precious".write(to: precious, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: inside.appendingPathComponent("07-placing-a-poo"), withDestinationURL: outside)
        let output = try CLI.run(["run", "Scenarios/dog-walk/07-placing-a-poo.yaml", "--keep-data", inside.path])
        #expect(output.status == 2, "\(output.standardOutput)\(output.standardError)")
        #expect(output.standardError.contains("--keep-data: \(inside.path)/07-placing-a-poo is a symbolic link to \(outside.path), outside \(inside.path)"), "\(output.standardError)")
        #expect(try String(contentsOf: precious, encoding: .utf8) == "precious")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path) == ["walker.sqlite"])
    }

    @Test func aTraceThatLinksOutsideIsNotWrittenThrough() throws {
        let (root, inside, outside) = try Self.folders()
        defer { try? FileManager.default.removeItem(at: root) }
        let precious = outside.appendingPathComponent("notes.txt")
        try "precious".write(to: precious, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: inside.appendingPathComponent("01-starting-the-app.jsonl"), withDestinationURL: precious)
        let output = try CLI.run(["run", "Scenarios/dog-walk/01-starting-the-app.yaml", "--trace", inside.path])
        #expect(output.status == 2, "\(output.standardOutput)\(output.standardError)")
        #expect(output.standardError.contains("--trace: \(inside.path)/01-starting-the-app.jsonl is a symbolic link to \(precious.path)"), "\(output.standardError)")
        #expect(try String(contentsOf: precious, encoding: .utf8) == "precious")
    }

    @Test func aScenarioFoundThroughALinkToOutsideIsRefusedWithoutQuotingIt() throws {
        let (root, inside, outside) = try Self.folders()
        defer { try? FileManager.default.removeItem(at: root) }
        let passwd = outside.appendingPathComponent("passwd")
        try Self.secret.write(to: passwd, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: inside.appendingPathComponent("passwd.yaml"), withDestinationURL: passwd)
        try "name: fine\nduration: 1s\ndevices:\n  - { id: walker, at: [52.5, 13.4] }\n".write(to: inside.appendingPathComponent("fine.yaml"), atomically: true, encoding: .utf8)
        for command in ["run", "validate"] {
            let output = try CLI.run([command, inside.path])
            #expect(output.status == 2, "\(command): \(output.standardOutput)\(output.standardError)")
            #expect(output.standardError.contains("\(inside.path)/passwd.yaml is a symbolic link to \(passwd.path), outside \(inside.path)"), "\(command): \(output.standardError)")
            #expect(!output.standardError.contains("root:x") && !output.standardOutput.contains("root:x"), "\(command): \(output.standardError)")
        }
        #expect(try CLI.run(["run", inside.path]).standardOutput.contains("PASS  fine.yaml"), "the other files still run")
    }

    @Test func aWorldOrTrackLinkedFromOutsideIsRefused() throws {
        let (root, inside, outside) = try Self.folders()
        defer { try? FileManager.default.removeItem(at: root) }
        try "name: far away\nplaces:\n  home: [52.5, 13.4]\n".write(to: outside.appendingPathComponent("world.yaml"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: inside.appendingPathComponent("world.yaml"), withDestinationURL: outside.appendingPathComponent("world.yaml"))
        try "name: linked world\nworld: world.yaml\nduration: 1s\ndevices:\n  - { id: walker, at: home }\n".write(to: inside.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        let output = try CLI.run(["validate", inside.appendingPathComponent("s.yaml").path])
        #expect(output.status == 2)
        #expect(output.standardError.contains("s.yaml:2:8: cannot read the world file: \(inside.path)/world.yaml is a symbolic link to \(outside.path)/world.yaml"), "\(output.standardError)")
    }

    @Test func anErrorAboutAFileThatIsNotOursQuotesOneShortLineOfIt() throws {
        let (root, inside, _) = try Self.folders()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = inside.appendingPathComponent("passwd.yaml")
        try Self.secret.write(to: file, atomically: true, encoding: .utf8)
        let output = try CLI.run(["validate", file.path])
        #expect(output.status == 2)
        #expect(output.standardError.contains("passwd.yaml:1:1: expected a scenario with keys"), "\(output.standardError)")
        #expect(output.standardError.contains("but this file starts with 'root:x:0:0:root:/root:/bin/bash'"), "\(output.standardError)")
        #expect(!output.standardError.contains("daemon") && !output.standardError.contains("SECOND-LINE-SECRET"), "\(output.standardError)")
        let long = inside.appendingPathComponent("long.yaml")
        try (String(repeating: "a", count: 300) + "\n" + Self.secret).write(to: long, atomically: true, encoding: .utf8)
        let cut = try CLI.run(["validate", long.path])
        #expect(cut.standardError.contains("starts with '" + String(repeating: "a", count: 120) + "… (180 more characters)'"), "\(cut.standardError)")
        #expect(!cut.standardError.contains("root:x"))
    }
}
