import Foundation

/// Finds scenario files: each argument is a file, or a folder searched recursively for `.yaml` / `.yml`.
public enum ScenarioDiscovery {
    /// A scenario file and the name its outputs (trace) take.
    public struct Found: Sendable, Hashable {
        /// The path to read.
        public var path: String
        /// The path relative to the folder it was found in (or the file name), used to name outputs.
        public var relativeName: String
    }

    /// The scenario files named by `arguments`, folders expanded and sorted; errors for paths that do not exist.
    public static func find(_ arguments: [String]) throws(ScenarioError) -> [Found] {
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
            guard let enumerator = files.enumerator(atPath: argument) else { continue }
            var inFolder: [String] = []
            while let item = enumerator.nextObject() as? String {
                if item.hasSuffix(".yaml") || item.hasSuffix(".yml") { inFolder.append(item) }
            }
            for item in inFolder.sorted() {
                let base = argument.hasSuffix("/") ? String(argument.dropLast()) : argument
                found.append(Found(path: base + "/" + item, relativeName: item))
            }
        }
        return found
    }
}
