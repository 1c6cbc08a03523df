import DeviceSimCampusGame
import DeviceSimScenario
import Foundation
import Testing

/// Issue 47, item 6: a game file's duplicate-id check scanned every earlier objective (60,000
/// objectives took 9.3 s of CPU, 200,000 minutes); it is one set lookup per objective.
@Suite struct GameFileSizeTests {
    static func game(objectives count: Int, duplicateLast: Bool) -> String {
        var text = "name: big\nobjectives:\n"
        text.reserveCapacity(count * 64)
        for index in 0..<count {
            let id = duplicateLast && index == count - 1 ? "o0" : "o\(index)"
            text += "  - { id: \(id), at: [52.5, 13.4], radius: 10, points: 1 }\n"
        }
        return text
    }

    @Test func manyObjectivesAreReadAndALateDuplicateIsNamed() throws {
        let count = 20_000
        let game = try GameFileParser.parse(Self.game(objectives: count, duplicateLast: false), file: "big.yaml")
        #expect(game.objectives.count == count)
        #expect(Set(game.objectives.map(\.id)).count == count)
        #expect(throws: ScenarioError.self) { try GameFileParser.parse(Self.game(objectives: count, duplicateLast: true), file: "big.yaml") }
        do {
            _ = try GameFileParser.parse(Self.game(objectives: count, duplicateLast: true), file: "big.yaml")
        } catch {
            #expect(error.description.contains("two objectives have the id 'o0'"), "\(error)")
        }
    }

    @Test func aGameFileOverItsLimitIsRefusedNamingTheLimit() throws {
        let path = NSTemporaryDirectory() + "game-over-limit-\(getpid()).yaml"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let header = "name: big\ntime-zone: Europe/Berlin\nobjectives: []\n"
        let text = header + "#" + String(repeating: " ", count: GameFileParser.maximumFileSize - header.utf8.count)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let error = try #require(throws: ScenarioError.self) { try GameFileParser.parse(contentsOf: path) }
        #expect(error.description.contains("game files are limited to 8388608 bytes (8 MiB)"), "\(error)")
    }
}
