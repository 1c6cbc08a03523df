import Foundation
import Testing

/// Issue 48, item 5's last point, through the command line: an error in a file a scenario names (its
/// world, the world's OpenStreetMap extract, a game file, a track) names that file relative to the
/// current folder, as the scenario's own errors are named, never by the absolute path the parser
/// resolved it to.
@Suite struct Issue48ShownPathTests {
    /// A folder with a scenario per named file, each file wrong in its own way.
    func folderOfBadFiles() throws -> URL {
        let folder = try CLI.temporaryFolder()
        let files = [
            "worlds/bad.world.yaml": "name: bad\nplaces:\n  x: [1]\n",
            "worlds/roads.world.yaml": "name: roads\nroads: { osm: missing.osm.pbf }\n",
            "bad.game.yaml": "name: g\nobjectives: []\n",
            "tracks/bad.gpx": "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"t\">\n<trk><trkseg>\n<trkpt lat=\"95\" lon=\"1\"/>\n</trkseg></trk></gpx>\n",
            "scenarios/world.yaml": "name: s\nworld: ../worlds/bad.world.yaml\ndevices:\n  - { id: a, at: [0, 0] }\n",
            "scenarios/osm.yaml": "name: s\nworld: ../worlds/roads.world.yaml\ndevices:\n  - { id: a, at: [0, 0] }\n",
            "scenarios/game.yaml": "name: s\ndevices:\n  - { id: a, at: [0, 0], app: { name: campus-game, settings: { game: ../bad.game.yaml } } }\n",
            "scenarios/gpx.yaml": "name: s\ndevices:\n  - { id: a, track: { file: ../tracks/bad.gpx } }\n",
            "scenarios/nmea.yaml": "name: s\ndevices:\n  - { id: a, track: { file: ../tracks/none.nmea } }\n",
            "worlds/good.world.yaml": "name: good\nplaces:\n  home: [0, 0]\n",
            "scenarios/good.yaml": "name: s\nworld: ../worlds/good.world.yaml\nduration: 1s\ndevices:\n  - { id: a, at: home }\n",
        ]
        for (name, text) in files {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return folder
    }

    @Test func errorsInNamedFilesNameThemRelativeToTheCurrentFolder() throws {
        let folder = try folderOfBadFiles()
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = [
            "world": "worlds/bad.world.yaml:3:6: expected [latitude, longitude], found a list of 1",
            "osm": "worlds/roads.world.yaml:2:15: no OpenStreetMap extract at worlds/missing.osm.pbf",
            "game": "bad.game.yaml:2:13: a game needs at least one objective",
            "gpx": "scenarios/gpx.yaml:3:29: in the GPX file: tracks/bad.gpx:4:24: <trkpt> has an invalid position",
            "nmea": "scenarios/nmea.yaml:3:29: the track file tracks/none.nmea does not exist",
        ]
        for (scenario, message) in expected.sorted(by: { $0.key < $1.key }) {
            let output = try CLI.run(["validate", "scenarios/\(scenario).yaml"], in: folder)
            #expect(output.status == 2, "\(scenario): \(output.standardError)")
            #expect(output.standardError.hasPrefix(message), "\(scenario): \(output.standardError)")
            #expect(!output.standardError.contains(folder.path), "\(scenario): \(output.standardError)")
        }
    }

    @Test func anOutputOverANamedFileNamesItRelativeToTheCurrentFolder() throws {
        let folder = try folderOfBadFiles()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try CLI.run(["run", "scenarios/good.yaml", "--junit", "worlds/good.world.yaml"], in: folder)
        #expect(output.status == 2)
        #expect(output.standardError.contains("--junit worlds/good.world.yaml is a file scenarios/good.yaml reads worlds/good.world.yaml: writing it would destroy what the command reads"), "\(output.standardError)")
        #expect(!output.standardError.contains(folder.path), "\(output.standardError)")
    }

    @Test func fromAnotherFolderTheyAreNamedAsThatFolderSeesThem() throws {
        let folder = try folderOfBadFiles()
        defer { try? FileManager.default.removeItem(at: folder) }
        // From the scenario's own folder the world is outside it: named by its absolute path.
        let outside = try CLI.run(["validate", "world.yaml"], in: folder.appendingPathComponent("scenarios"))
        #expect(outside.standardError.hasPrefix(folder.appendingPathComponent("worlds/bad.world.yaml").standardizedFileURL.path + ":3:6: "), "\(outside.standardError)")
        // From the world's folder it is its bare name.
        let inside = try CLI.run(["validate", "../scenarios/world.yaml"], in: folder.appendingPathComponent("worlds"))
        #expect(inside.standardError.hasPrefix("bad.world.yaml:3:6: "), "\(inside.standardError)")
    }
}
