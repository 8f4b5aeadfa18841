import CSocketShim
import GestureCore
import Glibc

/// A failed system call of the socket layer: which call, on what, and errno.
public struct SocketError: Error, CustomStringConvertible, Sendable, Equatable {
    public var call: String
    public var errno: Int32
    public var message: String?
    public init(_ call: String, errno: Int32, _ message: String? = nil) {
        self.call = call
        self.errno = errno
        self.message = message
    }
    public var description: String {
        let base = "\(call): \(String(cString: strerror(errno)))"
        return message.map { "\($0) (\(base))" } ?? base
    }
}

/// Small typed helpers over the socket system calls; EINTR is retried by the system layer.
package enum SocketSys {
    @inline(__always)
    package static func retry<T: FixedWidthInteger>(_ call: String, _ body: () -> T) throws(SocketError) -> T {
        do { return try retryingOnInterrupt(body) } catch { throw SocketError(call, errno: error.rawValue) }
    }

    package static func setNonBlockingCloseOnExec(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
    }

    /// Fills a `sockaddr_un` for `path` (a leading `@` means the abstract namespace).
    package static func withAddress<R>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R)
        throws(SocketError) -> R
    {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: addr.sun_path)
        guard bytes.count < capacity else {
            throw SocketError("bind", errno: ENAMETOOLONG, "socket path '\(path)' is longer than \(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    /// The peer's pid, uid and gid (SO_PEERCRED).
    package static func peerCredentials(_ fd: Int32) -> PeerCredentials? {
        var pid: Int32 = 0
        var uid: UInt32 = 0, gid: UInt32 = 0
        guard gestured_peer_credentials(fd, &pid, &uid, &gid) == 0 else { return nil }
        return PeerCredentials(pid: pid, uid: uid, gid: gid, groups: peerGroups(fd) ?? [])
    }

    /// The peer's supplementary groups when it connected (SO_PEERGROUPS, Linux 4.13).
    static func peerGroups(_ fd: Int32) -> [UInt32]? {
        var groups = [UInt32](repeating: 0, count: 64)
        for _ in 0..<2 {
            let n = Int(
                groups.withUnsafeMutableBufferPointer { gestured_peer_groups(fd, $0.baseAddress, Int32($0.count)) })
            guard n >= 0 else { return nil }
            if n <= groups.count { return Array(groups[0..<n]) }
            groups = [UInt32](repeating: 0, count: n)  // more than 64: the kernel said how many
        }
        return nil
    }

    /// Asks for a send buffer of `bytes` (SO_SNDBUF; Linux doubles it and caps it at wmem_max).
    package static func setSendBuffer(_ fd: Int32, bytes: Int) {
        var value = Int32(clamping: bytes)
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// What the kernel holds of what was written to `fd` and not yet read by
    /// the peer (SIOCOUTQ; for a Unix socket it includes the kernel's own
    /// bookkeeping per buffer).
    package static func unsentBytes(_ fd: Int32) -> Int? {
        var value: Int32 = 0
        let siocoutq: UInt = 0x5411  // SIOCOUTQ, the same number as TIOCOUTQ
        guard ioctl(fd, siocoutq, &value) == 0 else { return nil }
        return Int(value)
    }

    /// A process's command name from /proc, for logs.
    package static func commandName(pid: Int32) -> String? {
        let fd = open("/proc/\(pid)/comm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buf = [UInt8](repeating: 0, count: 64)
        let n = read(fd, &buf, buf.count)
        guard n > 0 else { return nil }
        return String(decoding: buf[0..<n], as: UTF8.self).trimmingNewline
    }
}

extension String {
    var trimmingNewline: String {
        var s = self
        while s.last == "\n" { s.removeLast() }
        return s
    }
}

/// Who is on the other end of a Unix socket (SO_PEERCRED).
public struct PeerCredentials: Sendable, Equatable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
    /// Supplementary groups (SO_PEERGROUPS); empty when the kernel would not say.
    public var groups: [UInt32] = []
    public init(pid: Int32, uid: UInt32, gid: UInt32, groups: [UInt32] = []) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.groups = groups
    }
}
