import Glibc

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

    /// Reads up to `buffer.count` bytes into the start of `buffer`; 0 at end of file.
    public func read(into buffer: inout [UInt8]) throws(Errno) -> Int {
        try buffer.withUnsafeMutableBytes { b in Result { () throws(Errno) in try read(into: b) } }.get()
    }

    /// Writes what one call takes of `bytes` (a short write on a pipe or a
    /// non-blocking descriptor); returns how many were written.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try retryingOnInterrupt { Glibc.write(rawValue, bytes.baseAddress, bytes.count) }
    }

    /// Writes all of `bytes`, looping over short writes. A write that takes
    /// nothing fails (EIO) rather than being tried for ever.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            let n = try write(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            if n == 0 { throw Errno(rawValue: EIO) }
            offset += n
        }
    }

    public func writeAll(_ string: String) throws(Errno) {
        var s = string
        let failure = s.withUTF8 { buf -> Errno? in
            do throws(Errno) {
                try writeAll(UnsafeRawBufferPointer(buf))
                return nil
            } catch { return error }
        }
        if let failure { throw failure }
    }

    /// The device number of the character device this descriptor is open on.
    public func deviceNumber() throws(Errno) -> UInt64 {
        var st = stat()
        _ = try retryingOnInterrupt { fstat(rawValue, &st) }
        return UInt64(st.st_rdev)
    }

    /// Receives and throws away up to `limit` datagrams queued on a
    /// non-blocking socket, unread; returns how many. Stops at the first error
    /// (EAGAIN: nothing more queued).
    @discardableResult
    public func discardDatagrams(limit: Int) -> Int {
        var discarded = 0
        while discarded < limit {
            do {
                _ = try retryingOnInterrupt { recv(rawValue, nil, 0, Int32(MSG_DONTWAIT | MSG_TRUNC)) }
            } catch {
                break
            }
            discarded += 1
        }
        return discarded
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
