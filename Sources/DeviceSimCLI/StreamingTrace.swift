import ArgumentParser
import DeviceSimHAL
import DeviceSimScenario

/// The trace of a wall-clock run (`live`, `serve`): when `path` is given, a ``TraceFileWriter`` that
/// gets every event of `recorder` as it happens (written at once, so the file is whole whenever the
/// run stops); nil without a path. A file that cannot be opened is said and exits with 2.
func streamingTrace(to path: String?, from recorder: TraceRecorder) throws -> TraceFileWriter? {
    guard let path else { return nil }
    let writer: TraceFileWriter
    do {
        writer = try TraceFileWriter(path: path, flushing: .everyEvent)
    } catch {
        Terminal.standardError.write("error: \(error)\n")
        throw ExitCode(2)
    }
    recorder.forward(to: writer)
    return writer
}
