import Foundation

/// Finds scenario files: each argument is a file, or a folder searched recursively for `.yaml` / `.yml`.
public enum ScenarioDiscovery {
    /// A scenario file and the name its outputs (trace) take.
    public struct Found: Sendable, Hashable {
        /// The path to read.
        public var path: String
        /// The path relative to the folder it was found in (or the file name), used to name outputs;
        /// unique among the files found (see ``find(_:)``).
        public var relativeName: String
        /// Why the file is not read, when it was found in a folder but is a symbolic link to a file
        /// outside that folder (it is reported as an invalid file).
        public var refusal: String?

        /// A file found, to be read (`refusal` nil) or reported as refused.
        public init(path: String, relativeName: String, refusal: String? = nil) {
            self.path = path
            self.relativeName = relativeName
            self.refusal = refusal
        }

        /// The error a refused file is reported with.
        public var refusalError: ScenarioError? {
            refusal.map { ScenarioError($0, at: nil) }
        }
    }

    /// The scenario files named by `arguments`, folders expanded and sorted; errors for paths that do not
    /// exist. Files found twice are listed once; when two files would get the same output name (`a/x.yaml`
    /// and `b/x.yaml` given as files), each gets its whole path as its name (`a/x.yaml`, `b/x.yaml`), so
    /// that no trace overwrites another. With `scenariosOnly`, the world and campus game files a folder
    /// holds beside its scenarios (see ``YAMLFileKind``) are left out; files named one by one never are.
    /// A file in a folder that is a symbolic link to a file outside the folder is not read: it is
    /// listed with its ``Found/refusal``.
    public static func find(_ arguments: [String], scenariosOnly: Bool = false) throws(ScenarioError) -> [Found] {
        var found: [Found] = []
        let files = FileManager.default
        for argument in arguments {
            var isDirectory: ObjCBool = false
            guard files.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                throw ScenarioError("\(argument): no such file or folder", at: nil)
            }
            if !isDirectory.boolValue {
                found.append(Found(path: argument, relativeName: (argument as NSString).lastPathComponent))
                continue
            }
            guard let items = DirectoryWalk.files(under: argument) else { continue }
            let base = argument.hasSuffix("/") ? String(argument.dropLast()) : argument
            var inFolder: [String] = []
            var refusals: [String: String] = [:]
            for item in items {
                guard item.hasSuffix(".yaml") || item.hasSuffix(".yml") else { continue }
                if let escape = ContainedPath.linkEscape(of: base + "/" + item, folder: argument) {
                    refusals[item] = escape
                } else if scenariosOnly, let kind = YAMLFileKind(contentsOf: base + "/" + item), kind != .scenario {
                    continue
                }
                inFolder.append(item)
            }
            for item in inFolder.sorted() {
                found.append(Found(path: base + "/" + item, relativeName: item, refusal: refusals[item]))
            }
        }
        return uniquelyNamed(found)
    }

    static func uniquelyNamed(_ items: [Found]) -> [Found] {
        var seenPaths = Set<String>()
        let currentDirectory = FileManager.default.currentDirectoryPath
        let items = items.filter { seenPaths.insert(standardizedPath($0.path, currentDirectory: currentDirectory)).inserted }
        var counts: [String: Int] = [:]
        for item in items { counts[item.relativeName, default: 0] += 1 }
        var used = Set<String>()
        return items.map { item in
            var renamed = item
            if counts[item.relativeName]! > 1 {
                let parts = item.path.split(separator: "/").filter { $0 != "." && $0 != ".." }
                renamed.relativeName = parts.joined(separator: "/")
            }
            var candidate = renamed.relativeName, number = 2
            while !used.insert(candidate).inserted {
                candidate = "\(renamed.relativeName)-\(number)"
                number += 1
            }
            renamed.relativeName = candidate
            return renamed
        }
    }

    /// `path` made absolute and standardized, as `URL(fileURLWithPath:).standardizedFileURL.path`
    /// makes it, without building a URL for the usual path that has no `.`, `..` or empty part.
    static func standardizedPath(_ path: String, currentDirectory: String) -> String {
        let absolute = path.hasPrefix("/") ? path : currentDirectory + "/" + path
        let parts = absolute.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst()
        let plain = absolute.utf8.count > 1 && !parts.contains { $0.isEmpty || $0.elementsEqual(".".utf8) || $0.elementsEqual("..".utf8) }
        return plain ? absolute : URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
