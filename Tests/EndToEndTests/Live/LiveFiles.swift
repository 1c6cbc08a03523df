import Foundation

/// Checks on what a live run leaves behind.
enum LiveFiles {
    /// The trace's events as JSON objects; throws when a line is not a whole JSON object.
    static func traceEvents(_ url: URL) throws -> [[String: Any]] {
        let text = try String(contentsOf: url, encoding: .utf8)
        guard text.hasSuffix("\n") else { throw LiveFileError.invalid("\(url.lastPathComponent) does not end with a whole line") }
        return try text.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw LiveFileError.invalid("not a JSON object: \(line)")
            }
            return object
        }
    }

    /// The recording's sentences; throws when a line is not a whole NMEA sentence with a correct
    /// checksum, ended by CR LF.
    static func nmeaSentences(_ url: URL) throws -> [String] {
        let text = try String(contentsOf: url, encoding: .utf8)
        guard text.hasSuffix("\r\n") else { throw LiveFileError.invalid("\(url.lastPathComponent) does not end with a whole sentence") }
        return try text.components(separatedBy: "\r\n").dropLast().map { sentence in
            guard sentence.first == "$" || sentence.first == "!", let star = sentence.lastIndex(of: "*"),
                let expected = UInt8(sentence[sentence.index(after: star)...], radix: 16)
            else { throw LiveFileError.invalid("not an NMEA sentence: \(sentence)") }
            let body = sentence.utf8.dropFirst().prefix { $0 != UInt8(ascii: "*") }
            guard body.reduce(0, ^) == expected else { throw LiveFileError.invalid("bad checksum: \(sentence)") }
            return sentence
        }
    }

    /// An NMEA log of a receiver that sees satellites but has no fix (GGA quality 0, GSA mode 1, RMC
    /// status V), one epoch a second for a minute.
    static func noFixLog() -> String {
        var log = ""
        for second in 0..<60 {
            let time = String(format: "1200%02d.00", second)
            for body in [
                "GPGGA,\(time),,,,,0,00,99.99,,,,,,", "GPGSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99",
                "GPGSV,1,1,03,05,40,120,20,12,30,200,18,20,10,300,15", "GPRMC,\(time),V,,,,,,,231126,,,N",
            ] {
                let checksum = body.utf8.reduce(UInt8(0), ^)
                log += "$\(body)*\(String(format: "%02X", checksum))\r\n"
            }
        }
        return log
    }
}

extension LiveFiles {
    /// Writes into `folder` a world with a library hotspot where the bt-q818 receiver stands (in
    /// California: a live device's radios are where its fixes say it is) and the in-the-library
    /// scenario on it; returns the scenario's path.
    static func libraryAtTheReceiver(in folder: URL) throws -> URL {
        let world = """
            name: at the receiver
            places:
              library: [34.03294, -117.74712]
              far-away: [34.04500, -117.73000]
            hotspots:
              - name: library
                area: { center: library, radius: 40 }
                access-points:
                  - { ssid: eduroam, bssid: "02:00:00:00:01:01", at: [34.03297, -117.74708], power: 15, channel: 1 }
            """
        let bundled = try String(contentsOf: CLI.repositoryRoot.appendingPathComponent("Scenarios/friend-locator/in-the-library.yaml"), encoding: .utf8)
        let scenario = bundled.replacingOccurrences(of: "world: ../../Simulator/worlds/campus.yaml", with: "world: receiver-world.yaml")
        precondition(scenario != bundled, "the bundled library scenario no longer names the campus world")
        try world.write(to: folder.appendingPathComponent("receiver-world.yaml"), atomically: true, encoding: .utf8)
        let url = folder.appendingPathComponent("in-the-library.yaml")
        try scenario.write(to: url, atomically: true, encoding: .utf8)
        return url
    }
}

enum LiveFileError: Error {
    case invalid(String)
}
