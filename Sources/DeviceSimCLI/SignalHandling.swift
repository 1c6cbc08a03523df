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
