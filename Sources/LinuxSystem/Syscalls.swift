import Glibc
import GestureCore

/// An error number from a failed system call, as swift-system's `Errno`.
public struct Errno: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno`.
    public static var current: Errno { Errno(rawValue: errno) }

    public static let interrupted = Errno(rawValue: EINTR)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let noDevice = Errno(rawValue: ENODEV)
    public static let noSuchFile = Errno(rawValue: ENOENT)
    public static let noBufferSpace = Errno(rawValue: ENOBUFS)
    public static let brokenPipe = Errno(rawValue: EPIPE)
    public static let badFileDescriptor = Errno(rawValue: EBADF)
    public static let permissionDenied = Errno(rawValue: EACCES)

    public var description: String { String(cString: strerror(rawValue)) }
}

/// Runs a system call, retrying it while it fails with EINTR: the one place
/// where interrupted calls are retried. Returns the call's result, or throws
/// the errno it failed with.
@inline(__always)
package func retryingOnInterrupt<T: FixedWidthInteger>(_ call: () -> T) throws(Errno) -> T {
    while true {
        let r = call()
        if r != -1 { return r }
        let e = Errno.current
        if e != .interrupted { throw e }
    }
}

/// An owned file descriptor: closed exactly once, by `close()`. A struct with a
/// raw number, as swift-system's; the owner decides when it ends.
public struct FileDescriptor: Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let standardOutput = FileDescriptor(rawValue: 1)
    public static let standardError = FileDescriptor(rawValue: 2)

    /// Opens a path read-only, non-blocking and close-on-exec: how input nodes are opened.
    public static func openInputNode(_ path: String) throws(Errno) -> FileDescriptor {
        let fd = try retryingOnInterrupt { open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        return FileDescriptor(rawValue: fd)
    }

    /// Closes the descriptor. EINTR is not retried: on Linux the descriptor is
    /// gone either way, and retrying could close a reused number.
    public func close() {
        _ = Glibc.close(rawValue)
    }

    /// Reads up to `count` bytes into `buffer`; 0 at end of file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retryingOnInterrupt { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Writes all of `bytes`, looping over short writes.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            let n = try retryingOnInterrupt {
                Glibc.write(rawValue, bytes.baseAddress! + offset, bytes.count - offset)
            }
            offset += n
        }
    }

    public func writeAll(_ string: String) throws(Errno) {
        var s = string
        let failure = s.withUTF8 { buf -> Errno? in
            do throws(Errno) { try writeAll(UnsafeRawBufferPointer(buf)); return nil } catch { return error }
        }
        if let failure { throw failure }
    }

    /// The device number of the character device this descriptor is open on.
    public func deviceNumber() throws(Errno) -> UInt64 {
        var st = stat()
        _ = try retryingOnInterrupt { fstat(rawValue, &st) }
        return UInt64(st.st_rdev)
    }

    /// Makes a pipe: (read end, write end), both non-blocking and close-on-exec.
    public static func pipe() throws(Errno) -> (read: FileDescriptor, write: FileDescriptor) {
        var fds: [Int32] = [-1, -1]
        _ = try retryingOnInterrupt { Glibc.pipe(&fds) }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    }
}

/// Now on CLOCK_MONOTONIC, the clock input events are stamped with once
/// `libevdev_set_clock_id(CLOCK_MONOTONIC)` is set.
public func monotonicNow() -> EventTime {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return EventTime(microseconds: Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000)
}
