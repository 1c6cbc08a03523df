import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Symbolic links that lead outside the folder a user named: devicesim never deletes or writes
/// through one (a `--keep-data` or `--trace` folder whose per-scenario entry links elsewhere), and
/// never reads a file through one found in a folder it searched (`passwd.yaml -> /etc/passwd`).
///
/// ```swift
/// ContainedPath.escape(of: "dog-walk/walk", under: "out/data")   // nil, or why it leads outside
/// ContainedPath.linkEscape(of: "Scenarios/passwd.yaml")           // "... is a symbolic link to /etc/passwd, ..."
/// ```
package enum ContainedPath {
    /// The path with every link resolved (`realpath`); nil when it does not exist.
    package static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether `path` (resolved) is `folder` (resolved) or inside it.
    static func isInside(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// Why `relative` under the folder `root` leads outside `root` through a symbolic link: the
    /// first of its existing components (the last included) that is a link resolving outside `root`,
    /// or a link to nothing (writing through it would create its target wherever it points). Nil
    /// when it stays inside (or `root` does not exist yet, so nothing under it does).
    package static func escape(of relative: String, under root: String) -> String? {
        guard let rootResolved = resolved(root) else { return nil }
        var current = root.hasSuffix("/") ? String(root.dropLast()) : root
        for component in relative.split(separator: "/") where component != "." {
            current += "/" + component
            var status = stat()
            guard lstat(current, &status) == 0 else { return nil }   // nothing further exists
            guard (status.st_mode & S_IFMT) == S_IFLNK else { continue }
            guard let target = resolved(current) else {
                return "\(current) is a symbolic link to a file that does not exist; devicesim does not write through it: remove the link"
            }
            guard isInside(target, rootResolved) else {
                return "\(current) is a symbolic link to \(target), outside \(root); devicesim neither deletes nor writes anything through it: remove the link, or name a folder without it"
            }
        }
        return nil
    }

    /// Why the file `relative`, written in a file of the folder `folder`, is not read: one of its
    /// folders is a symbolic link whose target lies outside the folder that holds the link (the rule
    /// ``linkEscape(of:folder:)`` applies to the file itself, for every link on the way:
    /// `world: sub/creds.yaml` with `sub -> ../outside` is refused). Nil for an absolute path (the
    /// user wrote where it is) and for folders that are not links or stay inside.
    package static func folderLinkEscape(of relative: String, from folder: String) -> String? {
        guard !relative.hasPrefix("/") else { return nil }
        var current = folder.isEmpty ? "." : folder
        let components = relative.split(separator: "/").map(String.init)
        for component in components.dropLast() where component != "." {
            let holder = current
            current += "/" + component
            var status = stat()
            guard lstat(current, &status) == 0 else { return nil }
            guard (status.st_mode & S_IFMT) == S_IFLNK else { continue }
            guard let target = resolved(current), let holderResolved = resolved(holder) else { return nil }
            if component == ".." { continue }
            guard isInside(target, holderResolved) else {
                return "\(current) is a symbolic link to \(target), outside \(holder): a file read through a link must lie in the link's folder (name the file itself instead)"
            }
        }
        return nil
    }

    /// Why the file at `path` is not read: it is a symbolic link whose target lies outside the folder
    /// that holds the link (`folder`, by default the link's own folder). Nil for a file that is not a
    /// link, or a link that stays inside.
    package static func linkEscape(of path: String, folder: String? = nil) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK else { return nil }
        let holder = folder ?? WritableFile.folderAndName(of: path).folder
        guard let target = resolved(path) else { return nil }   // a dangling link: opening it says "no such file"
        guard let holderResolved = resolved(holder.isEmpty ? "." : holder), !isInside(target, holderResolved) else { return nil }
        return "\(path) is a symbolic link to \(target), outside \(holder.isEmpty ? "." : holder): a file read through a link must lie in the link's folder (name the file itself instead)"
    }
}
