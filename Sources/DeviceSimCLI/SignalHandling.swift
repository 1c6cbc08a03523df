import DeviceSimTime
import Dispatch
import Foundation

/// Raises a ``StopSignal`` on Ctrl-C (SIGINT), SIGTERM and SIGHUP (the terminal closed, an SSH
/// session dropped), so live commands stop cleanly and flush.
enum InterruptHandling {
    /// Installs the handlers; keep the returned sources alive while they should work.
    static func install(raising stop: StopSignal) -> [DispatchSourceSignal] {
        [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.raise() }
            source.resume()
            return source
        }
    }
}

/// Ctrl-C (SIGINT) and SIGTERM during `devicesim run`: the first raises `stop` (no run starts after
/// it; what finished is written and summarised) and calls `onFirst`; the second ends the process at
/// once with status 130, writing nothing more.
///
/// ```swift
/// let stop = StopSignal()
/// let interruption = BatchInterruption(raising: stop) { progress?.stopStarting() }
/// defer { interruption.remove() }
/// ```
final class BatchInterruption: @unchecked Sendable {
    /// The exit status of an interrupted run: 128 + SIGINT, as shells report a process Ctrl-C ended.
    static let exitStatus: Int32 = 130
    private var sources: [DispatchSourceSignal] = []

    init(raising stop: StopSignal, onFirst: @escaping @Sendable () -> Void) {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if stop.isRaised {
                    FileHandle.standardError.write(Data("\ninterrupted again: stopped at once\n".utf8))
                    _exit(Self.exitStatus)
                }
                stop.raise()
                onFirst()
            }
            source.resume()
            return source
        }
    }

    /// Restores the default handling of SIGINT and SIGTERM.
    func remove() {
        for source in sources { source.cancel() }
        sources = []
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
