import DeviceSim
import DeviceSimSimulated
@testable import DeviceSimScenario
import Foundation
import Testing

/// How a batch's workers pick their next pair, and what they read to decide it.
@Suite struct BatchSchedulingTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("batch-scheduling-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A pair that would wait (for a world another worker is reading) is passed over for the next
    /// one that would not, and taken later; pairs stay within the delivery window.
    @Test func aPairThatWouldWaitIsTakenAfterTheNextOneThatWouldNot() {
        let state = BatchState(count: 6, window: 4)
        var waiting: Set<Int> = [0, 1]
        #expect(state.claimNext { waiting.contains($0) } == 2)
        #expect(state.claimNext { waiting.contains($0) } == 3)
        // Nothing in the window (0 to 3) that would not wait: the first pair not taken, which waits.
        #expect(state.claimNext { waiting.contains($0) } == 0)
        waiting = []
        #expect(state.claimNext { waiting.contains($0) } == 1)
        // Pairs 4 and 5 are past the window until the first ones are delivered.
        state.finish(0, nil)
        _ = state.take(0)
        #expect(state.claimNext { _ in false } == 4)
        state.cancel()
        #expect(state.claimNext { _ in false } == nil)
    }

    @Test func withNothingToAvoidPairsAreTakenInOrder() {
        let state = BatchState(count: 3, window: 16)
        #expect((0..<3).map { _ in state.claimNext { _ in false } } == [0, 1, 2])
        #expect(state.claimNext { _ in false } == nil)
    }

    /// The world a scenario file names, read from its `world:` line and resolved as the parser
    /// resolves it.
    @Test func theWorldHintIsResolvedAsTheParserResolvesIt() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let worlds = folder.appendingPathComponent("worlds")
        try FileManager.default.createDirectory(at: worlds, withIntermediateDirectories: true)
        let scenarios = folder.appendingPathComponent("scenarios")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        let expected = worlds.appendingPathComponent("w.yaml").standardizedFileURL.path
        let lines = [
            "world: ../worlds/w.yaml", "world: \"../worlds/w.yaml\"   # quoted", "world:   '../worlds/w.yaml'", "world: \(expected) # absolute",
        ]
        for (index, line) in lines.enumerated() {
            for newline in ["\n", "\r\n"] {
                let file = scenarios.appendingPathComponent("s\(index).yaml")
                try "name: s\(newline)\(line)\(newline)devices:\(newline)  - { id: a }\(newline)".write(to: file, atomically: true, encoding: .utf8)
                #expect(ScenarioBatch.worldFile(namedBy: file.path) == expected, "\(line)")
            }
        }
        let none = scenarios.appendingPathComponent("none.yaml")
        try "name: s\ndevices:\n  - { id: a, world: nested-is-not-top-level.yaml }\n".write(to: none, atomically: true, encoding: .utf8)
        #expect(ScenarioBatch.worldFile(namedBy: none.path) == nil)
        #expect(ScenarioBatch.worldFile(namedBy: folder.appendingPathComponent("missing.yaml").path) == nil)
    }

    /// A world is ready once it has been parsed; nothing is being made while no thread reads one.
    @Test func aWorldIsReadyOnceParsed() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("world.yaml")
        try Data("name: w\nplaces:\n  home: [60.17, 24.94]\n".utf8).write(to: file)
        #expect(!ParsedFileCache.worlds.isReady(at: file.path))
        _ = try WorldParser.parse(contentsOf: file.path)
        #expect(ParsedFileCache.worlds.isReady(at: file.path))
    }

    /// Discovery compares files by their standardized absolute paths, made without a URL when
    /// nothing needs standardizing: the same as Foundation's.
    @Test func standardizedPathsAreFoundationsOnes() {
        let here = FileManager.default.currentDirectoryPath
        let paths = [
            "Scenarios/a.yaml", "./Scenarios/a.yaml", "Scenarios/../Scenarios/a.yaml", "Scenarios//a.yaml", "/tmp/x/y.yaml",
            "/tmp/x/../y.yaml", "/tmp/./x.yaml", "/tmp/x/", "a.yaml", "..", ".", "/", "/tmp/x/..",
        ]
        for path in paths {
            #expect(ScenarioDiscovery.standardizedPath(path, currentDirectory: here) == URL(fileURLWithPath: path).standardizedFileURL.path, "\(path)")
        }
    }

    @Test func fileBytesAreTheFilesBytes() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for size in [0, 1, 4_095, 70_000, 300_001] {
            let file = folder.appendingPathComponent("f\(size)")
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            try Data(bytes).write(to: file)
            #expect(FileBytes.contents(atPath: file.path) == bytes, "\(size) bytes")
        }
        #expect(FileBytes.contents(atPath: folder.path) == nil)
        #expect(FileBytes.contents(atPath: folder.appendingPathComponent("missing").path) == nil)
    }

    @Test func fileStatusIsFoundationsSizeAndDate() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("f")
        try Data(repeating: 7, count: 1_234).write(to: file)
        let status = try #require(FileBytes.status(atPath: file.path))
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect(status.size == 1_234 && status.size == (attributes[.size] as? NSNumber)?.intValue)
        let modified = try #require(attributes[.modificationDate] as? Date).timeIntervalSince1970
        #expect(abs(Double(status.modifiedSeconds) + Double(status.modifiedNanoseconds) / 1e9 - modified) < 1e-6)
        #expect(FileBytes.status(atPath: folder.appendingPathComponent("missing").path) == nil)
    }

    @Test func aDirectoryWalkListsWhatFileManagersEnumeratorLists() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = FileManager.default
        for path in ["sub/deeper", "empty", "sub/.hidden-folder"] {
            try files.createDirectory(at: folder.appendingPathComponent(path), withIntermediateDirectories: true)
        }
        for path in ["a.yaml", ".hidden.yaml", "sub/b.yml", "sub/notes.txt", "sub/deeper/c.yaml", "sub/.hidden-folder/d.yaml", "näme with space.yaml"] {
            try Data("x: 1\n".utf8).write(to: folder.appendingPathComponent(path))
        }
        // A link to a folder is listed, not entered; a link to a file is listed.
        try files.createSymbolicLink(atPath: folder.appendingPathComponent("link-to-sub").path, withDestinationPath: folder.appendingPathComponent("sub").path)
        try files.createSymbolicLink(atPath: folder.appendingPathComponent("link.yaml").path, withDestinationPath: "a.yaml")
        let enumerated = try #require(files.enumerator(atPath: folder.path)).compactMap { $0 as? String }.filter { item in
            var status = stat()
            return lstat(folder.path + "/" + item, &status) == 0 && (status.st_mode & S_IFMT) != S_IFDIR
        }
        let walked = try #require(DirectoryWalk.files(under: folder.path))
        #expect(walked.sorted() == enumerated.sorted())
        #expect(walked.count == 9)
        #expect(Set(try #require(DirectoryWalk.files(under: folder.path + "/"))) == Set(walked))
        #expect(DirectoryWalk.files(under: folder.appendingPathComponent("missing").path) == nil)
    }
}
