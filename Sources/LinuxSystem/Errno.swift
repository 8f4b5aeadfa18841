import Glibc

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
