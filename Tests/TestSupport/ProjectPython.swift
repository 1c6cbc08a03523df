import Foundation

/// The Python the tests run: the project's virtual environment `.venv` (where `.ci/install-deps` puts
/// networkx and playwright) when it exists, otherwise the `python3` on the PATH.
///
/// ```swift
/// let process = ProjectPython.process(arguments: ["-c", "import networkx"])
/// try process.run()
/// ```
public enum ProjectPython {
    /// `<repository>/.venv/bin/python3`, found from this file's place in the repository.
    public static let virtualEnvironment = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".venv/bin/python3")

    /// A process (not yet started) that runs Python with `arguments`.
    public static func process(arguments: [String]) -> Process {
        let process = Process()
        if FileManager.default.isExecutableFile(atPath: virtualEnvironment.path) {
            process.executableURL = virtualEnvironment
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3"] + arguments
        }
        return process
    }
}
