import ArgumentParser
import DeviceSimScenario
import DeviceSimSimulated
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files a command reads and the files it writes, checked before anything is written: an output
/// that is one of the inputs destroys it (a scenario emptied before it is read, a trace replaced by
/// its own report), and two outputs in one file interleave or replace each other.
///
/// Files are compared as the system sees them, not as strings: the same device and inode when the
/// file exists (so links, `./`, `..` and hard links are all seen through), otherwise the path with
/// every link of the folders that exist resolved. Devices, FIFOs and sockets (`/dev/null`,
/// `/dev/stdout` on a terminal) are never destroyed by writing and are left out of the check.
///
/// ```swift
/// var files = FileRoles()
/// files.input("the scenario file", "walk.yaml")
/// files.output("--trace", "walk.yaml")
/// try files.check()   // error: --trace walk.yaml is the scenario file walk.yaml: ...; exit 2
/// ```
struct FileRoles {
    /// A file with what it is to the command ("--junit", "the scenario file").
    struct Named {
        var role: String
        var path: String
        var identity: FileIdentity
    }

    /// A folder an output writes its files into, with the files it will write (relative paths).
    struct OutputFolder {
        var role: String
        var path: String
        var identity: FileIdentity
        /// Each file the command writes in the folder, as a relative path, with what it is.
        var files: [String: String]
    }

    /// A folder whose files the command reads (the files whose names end in `extensions`).
    struct InputFolder {
        var path: String
        var identity: FileIdentity
        var extensions: [String]
    }

    private(set) var inputs: [Named] = []
    private(set) var outputs: [Named] = []
    private(set) var outputFolders: [OutputFolder] = []
    /// Every output file named, devices and pipes included (`/dev/stdout`), with its option.
    private(set) var namedOutputs: [(role: String, path: String)] = []
    private(set) var inputFolders: [InputFolder] = []
    /// The options naming an output folder whose value is empty.
    private(set) var emptyFolderRoles: [String] = []

    /// The scenario file `scenario` was read from, and the files its devices play back (NMEA logs,
    /// GPX tracks). The files the scenario names are named as its errors name them (``ShownPath``).
    mutating func inputs(of scenario: Scenario) {
        input("the scenario file", scenario.file)
        for file in scenario.inputFiles { input("a file \(scenario.file) reads", file, shownAs: ShownPath.of(file)) }
        for device in scenario.devices {
            switch device.track?.source {
            case .nmea(let url)?: input("the track file of device '\(device.id)'", url.path, shownAs: ShownPath.of(url.path))
            case .gpx(let url, _)?: input("the track file of device '\(device.id)'", url.path, shownAs: ShownPath.of(url.path))
            case nil: break
            }
        }
    }

    /// A file the command reads; `role` says what it is ("the scenario file", "the results file"),
    /// and messages name it `shownAs` (default: `path`).
    mutating func input(_ role: String, _ path: String, shownAs shown: String? = nil) {
        guard let identity = FileIdentity(path: path) else { return }
        inputs.append(Named(role: role, path: shown ?? path, identity: identity))
    }

    /// Every file the command reads in the folder `path` whose name ends in one of `extensions`
    /// (a file named there by an output is an input when it exists already).
    mutating func inputFolder(_ path: String, extensions: [String]) {
        guard let identity = FileIdentity(path: path) else { return }
        inputFolders.append(InputFolder(path: path, identity: identity, extensions: extensions))
    }

    /// A file the command writes, named by the option `role` (nothing when `path` is nil).
    mutating func output(_ role: String, _ path: String?) {
        guard let path else { return }
        namedOutputs.append((role, path))
        guard let identity = FileIdentity(path: path) else { return }
        outputs.append(Named(role: role, path: path, identity: identity))
    }

    /// A folder, named by the option `role`, that the command writes `files` into (relative paths,
    /// each with what it is: "the trace of walk.yaml").
    mutating func outputFolder(_ role: String, _ path: String?, files: [String: String]) {
        if path?.isEmpty == true { emptyFolderRoles.append(role) }
        guard let path, let identity = FileIdentity(path: path) else { return }
        outputFolders.append(OutputFolder(role: role, path: path, identity: identity, files: files))
    }

    /// What is wrong, as a sentence a user can act on; nil when every output is a file of its own
    /// that is none of the inputs.
    func conflict() -> String? {
        for (index, output) in outputs.enumerated() {
            if let input = inputs.first(where: { $0.identity.isSame(as: output.identity) }) {
                return "\(output.role) \(output.path) is \(input.role) \(input.path): writing it would destroy what the command reads; give \(output.role) another path"
            }
            if output.identity.exists, let folder = inputFolders.first(where: { folder in
                output.identity.isInside(folder.identity) && folder.extensions.contains { output.path.hasSuffix($0) }
            }) {
                return "\(output.role) \(output.path) is a file the command reads in \(folder.path): writing it would destroy it; give \(output.role) another path"
            }
            if let other = outputs[..<index].first(where: { $0.identity.isSame(as: output.identity) }) {
                return "\(other.role) \(other.path) and \(output.role) \(output.path) are the same file: give each output its own path"
            }
            if let (folder, what) = plannedFile(output.identity) {
                return "\(output.role) \(output.path) is \(what), which \(folder.role) \(folder.path) writes: give \(output.role) another path"
            }
        }
        for input in inputs {
            if let (folder, what) = plannedFile(input.identity) {
                return "\(folder.role) \(folder.path) would write \(what) over \(input.role) \(input.path): give \(folder.role) another folder"
            }
        }
        for folder in outputFolders {
            if let input = inputs.first(where: { $0.identity.isSame(as: folder.identity) }) {
                return "\(folder.role) \(folder.path) is \(input.role) \(input.path), not a folder: give \(folder.role) a folder"
            }
            if let output = outputs.first(where: { $0.identity.isSame(as: folder.identity) }) {
                return "\(folder.role) \(folder.path) and \(output.role) \(output.path) are the same path: give each output its own path"
            }
        }
        if let standardOutput = Self.streamNode(descriptor: STDOUT_FILENO) {
            for output in namedOutputs where Self.streamNode(path: output.path) == standardOutput {
                return "\(output.role) \(output.path) is the command's standard output, which carries its summary: the two would mix in one file; give \(output.role) a file of its own"
            }
        }
        for (descriptor, name) in [(STDOUT_FILENO, "standard output"), (STDERR_FILENO, "standard error")] {
            guard let identity = FileIdentity(descriptor: descriptor) else { continue }
            if let input = inputs.first(where: { $0.identity.isSame(as: identity) }) {
                return "\(name) goes to \(input.role) \(input.path): writing it would destroy what the command reads; redirect \(name) to another file"
            }
        }
        return nil
    }

    /// Says the first problem on standard error and stops with exit status 2 (a usage error),
    /// before anything runs or is written: an output that cannot be written (``unwritable()``), then
    /// an output that is an input or another output (``conflict()``). Paths are shown with their
    /// control characters escaped.
    func check() throws {
        guard let problem = unwritable() ?? conflict() else { return }
        Terminal.standardError.write("error: \(MessageText.escapingControls(problem))\n")
        throw ExitCode(2)
    }

    /// The first named output file that cannot be written, said so a user can act on it; nil when
    /// each can be. Checked without creating anything: an empty path; a folder; a file that exists
    /// but is not writable; a path (or the file a dangling link points to) whose nearest existing
    /// folder is a file, or is not writable.
    ///
    /// ```swift
    /// var files = FileRoles()
    /// files.output("--junit", "")
    /// files.unwritable()   // "--junit is empty: give it a file path, e.g. --junit out/junit.xml"
    /// ```
    func unwritable() -> String? {
        if let role = emptyFolderRoles.first { return "\(role) is empty: give it a folder path, e.g. \(role) out/\(role == "--trace" ? "traces" : "data")" }
        for (role, path) in namedOutputs {
            guard !path.isEmpty else { return "\(role) is empty: give it a file path, e.g. \(role) out/\(Self.exampleName(role))" }
            var status = stat()
            if stat(path, &status) == 0 {
                let kind = status.st_mode & S_IFMT
                if kind == S_IFDIR { return "\(role) \(path) is a folder: give \(role) a file path, e.g. \(role) \(path.hasSuffix("/") ? path : path + "/")\(Self.exampleName(role))" }
                if access(path, W_OK) != 0 { return "\(role) \(path) cannot be written: \(String(cString: strerror(errno)))" }
                continue
            }
            // A new file (or the target of a dangling link): its nearest existing folder must be one, and writable.
            let target = FileIdentity.danglingTarget(of: path) ?? path
            var folder = WritableFile.folderAndName(of: target).folder
            if folder.isEmpty { folder = "." }
            // Folders are made for a path, not for where a link points.
            if target != path, stat(folder, &status) != 0 {
                return "\(role) \(path) is a link to \(target), whose folder \(folder) does not exist: make the folder, or give \(role) another path"
            }
            while stat(folder, &status) != 0 {
                guard errno == ENOENT else { return "\(role) \(path) cannot be created: \(folder): \(String(cString: strerror(errno)))" }
                let parent = WritableFile.folderAndName(of: folder).folder
                folder = parent.isEmpty ? "." : parent
            }
            let through = target == path ? "" : " (a link to \(target))"
            guard status.st_mode & S_IFMT == S_IFDIR else { return "\(role) \(path)\(through) cannot be created: \(folder) is not a folder" }
            guard access(folder, W_OK) == 0 else { return "\(role) \(path)\(through) cannot be created in \(folder): \(String(cString: strerror(errno)))" }
        }
        return nil
    }

    /// A file name for an example of `role`'s value.
    private static func exampleName(_ role: String) -> String {
        switch role {
        case "--junit": "junit.xml"
        case "--results": "results.jsonl"
        case "--report", "--out": "report.html"
        case "--trace": "trace.jsonl"
        default: "file"
        }
    }

    /// Makes the folder `path` and the folders above it that are missing (`mkdir -p`); the system's
    /// reason when one cannot be made ("Not a directory", "Permission denied"), nil when it exists.
    static func makeFolder(_ path: String) -> String? {
        var built = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            built += "/" + component
            if mkdir(built, 0o755) != 0, errno != EEXIST { return String(cString: strerror(errno)) }
        }
        var status = stat()
        guard stat(path, &status) == 0 else { return String(cString: strerror(errno)) }
        return status.st_mode & S_IFMT == S_IFDIR ? nil : "it is a file, not a folder"
    }

    /// The device and inode of what `descriptor` writes to, when it is a file, a pipe or a socket
    /// (a terminal or `/dev/null` is shared harmlessly, and left out).
    static func streamNode(descriptor: Int32) -> FileIdentity.Node? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        return streamNode(status)
    }

    /// The device and inode of the file, pipe or socket `path` leads to (links followed).
    static func streamNode(path: String) -> FileIdentity.Node? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return streamNode(status)
    }

    private static func streamNode(_ status: stat) -> FileIdentity.Node? {
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG || kind == S_IFIFO || kind == S_IFSOCK else { return nil }
        return FileIdentity.Node(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// The output folder that will write the file `identity`, and what that file is.
    private func plannedFile(_ identity: FileIdentity) -> (OutputFolder, String)? {
        for folder in outputFolders {
            let prefix = folder.identity.canonicalPath == "/" ? "/" : folder.identity.canonicalPath + "/"
            guard identity.canonicalPath.hasPrefix(prefix) else { continue }
            if let what = folder.files[String(identity.canonicalPath.dropFirst(prefix.count))] { return (folder, what) }
        }
        return nil
    }
}

/// Which file a path names, for comparing files (see ``FileRoles``).
struct FileIdentity: Sendable {
    /// A file's place on the system: its device and inode.
    struct Node: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
    }

    /// The absolute path with the links of every existing folder (and the file itself) resolved.
    let canonicalPath: String
    /// The device and inode, when the file exists.
    let node: Node?

    /// Whether the file exists.
    var exists: Bool { node != nil }

    /// The file `path` names; nil for something writing cannot destroy (a device, a FIFO, a socket).
    init?(path: String) {
        var status = stat()
        if stat(path, &status) == 0 {
            let kind = status.st_mode & S_IFMT
            guard kind == S_IFREG || kind == S_IFDIR else { return nil }
            node = Node(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
            canonicalPath = Self.canonical(path)
        } else {
            node = nil
            // A dangling link names the file it points to: writing it creates that file.
            canonicalPath = Self.canonical(Self.danglingTarget(of: path) ?? path)
        }
    }

    /// Where the link `path` (and the links it leads to) finally points, when that does not exist;
    /// nil when `path` is not a link.
    static func danglingTarget(of path: String) -> String? {
        var current = path
        var followed = false
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { break }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { break }
            let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let folder = WritableFile.folderAndName(of: current).folder
            current = target.hasPrefix("/") || folder.isEmpty ? target : folder + "/" + target
            followed = true
        }
        return followed ? current : nil
    }

    /// The file open on `descriptor`, when it is a regular file.
    init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        node = Node(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        canonicalPath = ""
    }

    /// Whether both name one file.
    func isSame(as other: FileIdentity) -> Bool {
        if let node, let otherNode = other.node { return node == otherNode }
        return !canonicalPath.isEmpty && canonicalPath == other.canonicalPath
    }

    /// Whether this file lies somewhere under the folder `folder`.
    func isInside(_ folder: FileIdentity) -> Bool {
        guard !canonicalPath.isEmpty, !folder.canonicalPath.isEmpty else { return false }
        let prefix = folder.canonicalPath == "/" ? "/" : folder.canonicalPath + "/"
        return canonicalPath.hasPrefix(prefix)
    }

    /// `path` made absolute, with the longest part that exists resolved by `realpath` (links
    /// followed) and the rest (which holds no link, since it does not exist) cleaned of `.` and `..`.
    static func canonical(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var components = absolute.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var rest: [String] = []
        while true {
            let candidate = "/" + components.joined(separator: "/")
            if let resolved = realpath(candidate, nil) {
                defer { free(resolved) }
                var parts = String(cString: resolved).split(separator: "/").map(String.init)
                for part in rest.reversed() {
                    switch part {
                    case ".": continue
                    case "..": if !parts.isEmpty { parts.removeLast() }
                    default: parts.append(part)
                    }
                }
                return "/" + parts.joined(separator: "/")
            }
            guard let last = components.popLast() else { return absolute }
            rest.append(last)
        }
    }
}

extension FileRoles {
    /// The scenario at `path` that one `live` or `serve` run plays, parsed, with the files it reads and
    /// `outputs` (each option with its path, nil when not given) checked as ``check()`` does. A scenario
    /// that does not parse prints its error and exits with status 2.
    ///
    /// ```swift
    /// let parsed = try FileRoles.scenarioToRun(scenario, outputs: [("--trace", trace)])
    /// ```
    static func scenarioToRun(_ path: String, outputs: [(option: String, path: String?)]) throws -> Scenario {
        let parsed: Scenario
        do {
            parsed = try ScenarioParser.parse(contentsOf: path)
        } catch {
            Terminal.standardError.write("error: \(error)\n")
            throw ExitCode(2)
        }
        var files = FileRoles()
        files.inputs(of: parsed)
        for output in outputs { files.output(output.option, output.path) }
        try files.check()
        return parsed
    }
}
