import Foundation

/// A file a scenario names (its world, a track, a game file, the world's OpenStreetMap extract) as
/// errors show it: relative to the current folder when the file lies below it, as the user types the
/// scenario's own path, else absolute. The parser resolves those files against the scenario's folder,
/// which makes them absolute; an error naming `/home/ana/project/Scenarios/x.world.yaml` is shown as
/// `Scenarios/x.world.yaml` from `/home/ana/project`.
///
/// ```swift
/// // In /tmp/w48, with s.yaml saying `world: bad.world.yaml`:
/// ShownPath.of("/tmp/w48/bad.world.yaml")   // "bad.world.yaml"
/// ShownPath.of("/etc/passwd")               // "/etc/passwd"
/// ShownPath.of("Scenarios/a.yaml")          // "Scenarios/a.yaml" (relative paths stay as they are)
/// ```
public enum ShownPath {
    /// `path` relative to the current folder when it is absolute and lies below it; else `path`.
    public static func of(_ path: String) -> String {
        guard path.hasPrefix("/") else { return path }
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
        guard here != "/" else { return path }   // from the root, `/etc/passwd` reads better than `etc/passwd`
        let prefix = here + "/"
        return path.hasPrefix(prefix) && path.count > prefix.count ? String(path.dropFirst(prefix.count)) : path
    }

    /// `text` with every occurrence of the absolute `path` replaced by how errors show it.
    static func replacing(_ path: String, in text: String) -> String {
        let shown = of(path)
        return shown == path ? text : text.replacingOccurrences(of: path, with: shown)
    }
}
