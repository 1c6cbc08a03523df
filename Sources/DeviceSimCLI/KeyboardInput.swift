import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Single keypresses from the terminal on standard input: the terminal goes into non-canonical mode
/// without echo (Ctrl-C still interrupts) while a thread reads keys, and is restored by ``stop()``,
/// which live mode calls on every way out (the end of the run, Ctrl-C, SIGTERM).
///
/// ```swift
/// let keyboard = KeyboardInput { key in print("pressed", key) }
/// try keyboard.start()
/// ...
/// keyboard.stop()
/// ```
final class KeyboardInput: @unchecked Sendable {
    private let onKey: @Sendable (UInt8) -> Void
    private let lock = NSLock()
    private var saved: termios?
    private var running = false
    private let finished = DispatchSemaphore(value: 0)

    /// Creates a reader that calls `onKey` (on its own thread) with each byte typed.
    init(onKey: @escaping @Sendable (UInt8) -> Void) {
        self.onKey = onKey
    }

    /// Whether standard input and output are both a terminal (a person can see prompts and answer).
    static var isInteractive: Bool { isatty(0) == 1 && isatty(1) == 1 }

    /// Switches the terminal to single keypresses and starts reading.
    func start() {
        lock.withLock {
            guard !running else { return }
            var attributes = termios()
            guard tcgetattr(0, &attributes) == 0 else { return }
            saved = attributes
            attributes.c_lflag &= ~tcflag_t(ICANON | ECHO)
            withUnsafeMutableBytes(of: &attributes.c_cc) { characters in
                characters[Int(VMIN)] = 1
                characters[Int(VTIME)] = 0
            }
            tcsetattr(0, TCSANOW, &attributes)
            running = true
        }
        let thread = Thread { [self] in
            readKeys()
            finished.signal()
        }
        thread.name = "devicesim.keyboard"
        thread.start()
    }

    /// Stops reading and restores the terminal as it was.
    func stop() {
        let wasRunning = lock.withLock {
            defer { running = false }
            return running
        }
        guard wasRunning else { return }
        _ = finished.wait(timeout: .now() + 1)
        lock.withLock {
            if var saved { tcsetattr(0, TCSANOW, &saved) }
            saved = nil
        }
    }

    private var isRunning: Bool { lock.withLock { running } }

    private func readKeys() {
        var buffer = [UInt8](repeating: 0, count: 32)
        while isRunning {
            var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            let count = read(0, &buffer, buffer.count)
            guard count > 0 else { return }  // end of input: nothing more will be typed
            for byte in buffer[0..<count] { onKey(byte) }
        }
    }
}
