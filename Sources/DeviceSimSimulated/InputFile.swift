import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which files are read as inputs (scenario, world, game, track, trace and results files): regular
/// files only. A FIFO blocks the reader until someone writes to it, a device such as `/dev/zero` or
/// `/dev/urandom` never ends, and the files of the kernel's `/proc` and `/sys` file systems are not
/// data of ours (`/proc/self/mem` fails with an I/O error where it is read, `/proc/self/environ`
/// holds the process's secrets): each is refused with the reason, before it is opened.
///
/// ```swift
/// if let reason = InputFile.refusal(atPath: "/dev/zero") { print(reason) }  // "this is a device, ..."
/// ```
package enum InputFile {
    /// Why the file at `path` (links followed) is not read as an input; nil when it is a regular
    /// file (which may still be unreadable: opening it says so).
    package static func refusal(atPath path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else {
            return errno == ENOENT ? "no such file" : "cannot look at the file: \(String(cString: strerror(errno)))"
        }
        let onlyRegular = "only regular files are read as inputs"
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return "this is a folder, not a file"
        case S_IFIFO: return "this is a FIFO (named pipe), not a regular file: \(onlyRegular)"
        case S_IFCHR, S_IFBLK: return "this is a device, not a regular file: \(onlyRegular)"
        case S_IFSOCK: return "this is a socket, not a regular file: \(onlyRegular)"
        default: return "this is not a regular file: \(onlyRegular)"
        }
        if isKernelFile(path) { return "this is a file of the kernel's /proc or /sys file system, not a regular file: \(onlyRegular)" }
        return nil
    }

    /// Whether `path` lies on Linux's `proc` or `sysfs` file system (whose files call themselves
    /// regular): on the device that `/proc` or `/sys` is.
    package static func isKernelFile(_ path: String) -> Bool {
        #if os(Linux)
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        return kernelDevices.contains(UInt64(status.st_dev))
        #else
        return false
        #endif
    }

    /// The devices of `/proc` and `/sys` (those that are file systems of their own, not folders of `/`).
    private static let kernelDevices: Set<UInt64> = {
        var devices = Set<UInt64>()
        var root = stat()
        guard stat("/", &root) == 0 else { return devices }
        for folder in ["/proc", "/sys"] {
            var status = stat()
            if stat(folder, &status) == 0, status.st_dev != root.st_dev { devices.insert(UInt64(status.st_dev)) }
        }
        return devices
    }()
}
