import Glibc
import GestureProtocol
import LinuxSystem

/// The socket subscribers connect to: received from systemd (socket activation)
/// or created by the daemon at a path.
public struct ListeningSocket: Sendable {
    public static let defaultPath = DaemonSocket.defaultPath
    public static let defaultGroup = DaemonSocket.defaultGroup

    public let fd: Int32
    /// The path the daemon bound and unlinks on exit; nil when systemd owns the socket.
    public let ownedPath: String?
    /// How it came to be, for the log.
    public let origin: String

    /// Closes the descriptor and removes the file the daemon created.
    public func close() {
        _ = Glibc.close(fd)
        if let ownedPath { unlink(ownedPath) }
    }

    /// The socket systemd passed (`LISTEN_PID`, `LISTEN_FDS`, `LISTEN_FDNAMES`),
    /// the one named `events` if there are names, else the first listening
    /// Unix stream socket. Nil when the daemon was not socket-activated. The
    /// variables are removed so that nothing the daemon starts inherits them.
    public static func fromSystemd(environment: [String: String]) throws(SocketError) -> ListeningSocket? {
        guard let pidText = environment["LISTEN_PID"], let pid = Int32(pidText), pid == getpid(),
              let countText = environment["LISTEN_FDS"], let count = Int32(countText), count > 0
        else { return nil }
        unsetenv("LISTEN_PID"); unsetenv("LISTEN_FDS"); unsetenv("LISTEN_FDNAMES")
        let names = environment["LISTEN_FDNAMES"].map { $0.split(separator: ":", omittingEmptySubsequences: false).map(String.init) } ?? []
        let first: Int32 = 3  // SD_LISTEN_FDS_START
        var candidates = Array(first..<first + count)
        if let named = names.firstIndex(of: "events"), named < candidates.count {
            candidates = [candidates[named]] + candidates.filter { $0 != candidates[named] }
        }
        for fd in candidates where isListeningUnixStream(fd) {
            SocketSys.setNonBlockingCloseOnExec(fd)
            let name = names.indices.contains(Int(fd - first)) ? " '\(names[Int(fd - first)])'" : ""
            // Descriptors systemd passed that we do not use are closed, not leaked.
            for other in first..<first + count where other != fd { _ = Glibc.close(other) }
            return ListeningSocket(fd: fd, ownedPath: nil, origin: "socket activation (fd \(fd)\(name))")
        }
        throw SocketError("sd_listen_fds", errno: EBADF,
                          "LISTEN_FDS=\(count) but none of the descriptors is a listening Unix stream socket; check ListenStream= in gestured.socket")
    }

    static func isListeningUnixStream(_ fd: Int32) -> Bool {
        var value: Int32 = 0
        var len = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_TYPE, &value, &len) == 0, value == Int32(SOCK_STREAM.rawValue) else { return false }
        guard getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &value, &len) == 0, value == 1 else { return false }
        var addr = sockaddr_storage()
        var alen = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &alen) == 0 }
        }
        return ok && addr.ss_family == sa_family_t(AF_UNIX)
    }

    /// Creates, binds and listens at `path`, mode `mode`, group `group` if that
    /// group exists. A socket file nobody answers on is stale and replaced; one
    /// that accepts a connection belongs to a running daemon, and that is an error.
    public static func bind(path: String, mode: mode_t = 0o660, group: String? = defaultGroup,
                            backlog: Int32 = 32) throws(SocketError) -> ListeningSocket {
        var st = stat()
        if lstat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFSOCK else {
                throw SocketError("bind", errno: EEXIST, "\(path) exists and is not a socket; remove it or choose another path with --socket")
            }
            if try isAnswered(path) {
                throw SocketError("connect", errno: EADDRINUSE, "another gestured is already listening on \(path); stop it first (systemctl stop gestured.socket gestured.service) or use --socket")
            }
            unlink(path)  // stale: its daemon is gone
        } else {
            ensureDirectory(of: path)
        }
        let fd = try SocketSys.retry("socket") { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        do throws(SocketError) {
            // umask decides the mode at bind; no window where the socket is wider than asked.
            let old = umask(~mode & 0o777)
            let r = try SocketSys.withAddress(path) { addr, len in Glibc.bind(fd, addr, len) }
            let bindErrno = errno
            umask(old)
            if r != 0 { throw SocketError("bind", errno: bindErrno, "cannot create \(path)") }
            if let group, let g = getgrnam(group) {
                if chown(path, uid_t.max, g.pointee.gr_gid) != 0 {
                    throw SocketError("chown", errno: errno, "cannot give \(path) to group \(group)")
                }
            }
            if chmod(path, mode) != 0 { throw SocketError("chmod", errno: errno, "cannot set the mode of \(path)") }
            _ = try SocketSys.retry("listen") { listen(fd, backlog) }
        } catch let e {
            _ = Glibc.close(fd)
            throw e
        }
        return ListeningSocket(fd: fd, ownedPath: path, origin: "bound at \(path)")
    }

    /// Whether a daemon answers at `path` (connect succeeds).
    static func isAnswered(_ path: String) throws(SocketError) -> Bool {
        let fd = try SocketSys.retry("socket") { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        defer { _ = Glibc.close(fd) }
        let r = try SocketSys.withAddress(path) { addr, len in connect(fd, addr, len) }
        return r == 0 || errno == EAGAIN  // EAGAIN: alive, its backlog full
    }

    /// `mkdir -p` of the socket's directory (0755) when running outside systemd,
    /// which otherwise makes it with RuntimeDirectory=.
    static func ensureDirectory(of path: String) {
        var parts = path.split(separator: "/").dropLast().map(String.init)
        guard !parts.isEmpty else { return }
        var dir = path.hasPrefix("/") ? "" : "."
        while !parts.isEmpty {
            dir += "/" + parts.removeFirst()
            mkdir(dir, 0o755)
        }
    }
}
