import Foundation
import Testing

@Suite struct KeepDataTests {
    /// `sqlite3`'s output for `sql` on `file`, or nil when the sqlite3 shell is not installed.
    func sqlite3(_ file: String, _ sql: String) throws -> String? {
        let shell = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/opt/homebrew/bin/sqlite3"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let shell else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = [file, sql]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func keepDataLeavesEachDevicesDatabaseForSqlite3AndARunWithoutItLeavesNothing() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let kept = folder.appendingPathComponent("data")
        let privateTemporary = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: privateTemporary, withIntermediateDirectories: true)
        let files = ["Scenarios/dog-walk/07-placing-a-poo.yaml", "Scenarios/dog-walk/storage-killed-while-writing.yaml"]
        for _ in 1...2 {   // the second run starts from fresh databases, not the first run's
            let output = try CLI.run(["run"] + files + ["--keep-data", kept.path])
            #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
        }
        let poo = kept.appendingPathComponent("07-placing-a-poo/walker.sqlite").path
        let killed = kept.appendingPathComponent("storage-killed-while-writing/walker.sqlite").path
        #expect(FileManager.default.fileExists(atPath: poo))
        if let rows = try sqlite3(poo, "SELECT kind, local_time FROM business_records") {
            #expect(rows == "poo|2026-05-01T08:00:30+02:00")
            #expect(try sqlite3(killed, "PRAGMA integrity_check; SELECT group_concat(kind) FROM business_records;") == "ok\npee,poo,pee")
        }

        let output = try CLI.run(["run", files[0]], environment: ["TMPDIR": privateTemporary.path])
        #expect(output.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: privateTemporary.path) == [])
    }
}
