import GestureProtocol
import Glibc
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
        // Descriptors are ints from 3 up: a count past what a process may hold
        // is not systemd's (and 3 + count would overflow).
        var limit = rlimit()
        let most = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? min(Int(limit.rlim_cur), 1 << 20) : 1024
        guard Int(count) <= most - 3 else {
            throw SocketError(
                "sd_listen_fds", errno: EMFILE,
                "LISTEN_FDS=\(count) is more descriptors than this process may have (\(most)); it was not set by systemd"
            )
        }
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        let names =
            environment["LISTEN_FDNAMES"].map {
                $0.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            } ?? []
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
        throw SocketError(
            "sd_listen_fds", errno: EBADF,
            "LISTEN_FDS=\(count) but none of the descriptors is a listening Unix stream socket; check ListenStream= in gestured.socket"
        )
    }

    static func isListeningUnixStream(_ fd: Int32) -> Bool {
        var value: Int32 = 0
        var len = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_TYPE, &value, &len) == 0, value == Int32(SOCK_STREAM.rawValue) else {
            return false
        }
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
    ///
    /// Nothing is done to the socket's file by following its name: the mode is
    /// set by the umask at bind, the group by `fchownat(AT_SYMLINK_NOFOLLOW)`
    /// relative to the directory opened beforehand, and the directory itself must
    /// not let another user replace the file (`SocketDirectory`). So a daemon run
    /// as root cannot be made to chmod or chown a file someone swapped in.
    public static func bind(
        path: String, mode: mode_t = 0o660, group: String? = defaultGroup,
        backlog: Int32 = 32
    ) throws(SocketError) -> ListeningSocket {
        try bind(path: path, mode: mode, group: group, backlog: backlog, afterBind: {})
    }

    /// `bind`, with `afterBind` run between the bind and the ownership step:
    /// the window a hostile user of the directory would aim for (tests).
    static func bind(
        path: String, mode: mode_t, group: String?, backlog: Int32,
        afterBind: () -> Void
    ) throws(SocketError) -> ListeningSocket {
        if path.hasPrefix("@") {  // abstract namespace: no file to own or protect
            let fd = try boundSocket(path, mode: mode)
            do throws(SocketError) { _ = try SocketSys.retry("listen") { listen(fd, backlog) } } catch let e {
                _ = Glibc.close(fd)
                throw e
            }
            return ListeningSocket(fd: fd, ownedPath: nil, origin: "bound at \(path)")
        }
        let (dirPath, name) = splitPath(path)
        guard !name.isEmpty, name != ".", name != ".." else {
            throw SocketError("bind", errno: EINVAL, "socket path '\(path)' does not name a file")
        }
        ensureDirectory(of: path)
        let directory = try SocketDirectory.open(dirPath)
        defer { directory.close() }
        var st = stat()
        if fstatat(directory.fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFSOCK else {
                throw SocketError(
                    "bind", errno: EEXIST,
                    "\(path) exists and is not a socket; remove it or choose another path with --socket")
            }
            if try isAnswered(path) {
                throw SocketError(
                    "connect", errno: EADDRINUSE,
                    "another gestured is already listening on \(path); stop it first (systemctl stop gestured.socket gestured.service) or use --socket"
                )
            }
            unlinkat(directory.fd, name, 0)  // stale: its daemon is gone
        }
        let fd = try boundSocket(path, mode: mode)
        do throws(SocketError) {
            afterBind()
            var gid = gid_t.max  // unchanged
            if let group, let g = getgrnam(group) {
                gid = g.pointee.gr_gid
                if fchownat(directory.fd, name, uid_t.max, gid, AT_SYMLINK_NOFOLLOW) != 0 {
                    throw SocketError("chown", errno: errno, "cannot give \(path) to group \(group)")
                }
            }
            // What is at the name now must be a socket with the mode and group asked
            // for: anything else was put there by someone else after the bind.
            var now = stat()
            guard fstatat(directory.fd, name, &now, AT_SYMLINK_NOFOLLOW) == 0,
                (now.st_mode & S_IFMT) == S_IFSOCK, now.st_mode & 0o777 == mode & 0o777,
                gid == gid_t.max || now.st_gid == gid
            else {
                throw SocketError(
                    "bind", errno: EEXIST,
                    "\(path) was replaced by something else while the daemon set it up; check who can write to \(dirPath)"
                )
            }
            _ = try SocketSys.retry("listen") { listen(fd, backlog) }
        } catch let e {
            _ = Glibc.close(fd)
            throw e
        }
        return ListeningSocket(fd: fd, ownedPath: path, origin: "bound at \(path)")
    }

    private nonisolated(unsafe) static let umaskLock: UnsafeMutablePointer<pthread_mutex_t> = {
        let m = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(m, nil)
        return m
    }()

    /// A new socket bound at `path`, its file created with `mode`.
    private static func boundSocket(_ path: String, mode: mode_t) throws(SocketError) -> Int32 {
        let fd = try SocketSys.retry("socket") {
            socket(
                AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        // umask decides the mode at bind; no window where the socket is wider than
        // asked, and no chmod by name afterwards.
        // The umask is the process's: binds on several threads of one process
        // (the tests) take turns, or one could bind under another's umask.
        pthread_mutex_lock(umaskLock)
        defer { pthread_mutex_unlock(umaskLock) }
        let old = umask(~mode & 0o777)
        var bindErrno: Int32 = 0
        do throws(SocketError) {
            let r = try SocketSys.withAddress(path) { addr, len in Glibc.bind(fd, addr, len) }
            if r != 0 { bindErrno = errno }
        } catch {
            umask(old)
            _ = Glibc.close(fd)
            throw error
        }
        umask(old)
        if bindErrno != 0 {
            _ = Glibc.close(fd)
            throw SocketError("bind", errno: bindErrno, "cannot create \(path)")
        }
        return fd
    }

    /// Whether a daemon answers at `path` (connect succeeds).
    static func isAnswered(_ path: String) throws(SocketError) -> Bool {
        let fd = try SocketSys.retry("socket") {
            socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
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
