import GestureProtocol
import Glibc
import LinuxSystem

/// The directory a daemon binds its socket in, opened once so that every later
/// step on the socket's file is relative to it (`fstatat`, `fchownat`,
/// `unlinkat`) and never re-resolves the directory's path.
///
/// A directory another user owns or may write to is refused, and so is one on
/// the way to it: that user could replace the socket between its bind and its
/// chown, unlink it, or move the directory aside and put their own socket where
/// clients look for it. Sticky directories owned by root or by the daemon's user
/// (`/tmp`) are the exception, since no one else can remove or rename the
/// daemon's file there.
struct SocketDirectory {
    let fd: Int32
    let path: String

    static func open(_ path: String) throws(SocketError) -> SocketDirectory {
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            throw SocketError("open", errno: errno, "cannot open the socket's directory \(path)")
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let e = errno
            _ = Glibc.close(fd)
            throw SocketError("fstat", errno: e, "cannot inspect the socket's directory \(path)")
        }
        if let refusal = refusal(path: path, mode: st.st_mode, owner: st.st_uid, us: geteuid()) {
            _ = Glibc.close(fd)
            throw SocketError("bind", errno: EPERM, refusal)
        }
        // The directories on the way to it: clients find the socket by its
        // path. Both the path as given (from the working directory, if it is
        // relative) and where it leads (through links): whoever owns a
        // directory on either may move what is below it aside.
        var ways = [absolute(path)]
        if let opened = openedPath(fd), opened != ways[0] { ways.append(opened) }
        for way in ways {
            for ancestor in ancestors(of: way) {
                var a = stat()
                guard stat(ancestor, &a) == 0 else { continue }
                if let refusal = refusal(
                    path: ancestor, mode: a.st_mode, owner: a.st_uid, us: geteuid(), onTheWay: path)
                {
                    _ = Glibc.close(fd)
                    throw SocketError("bind", errno: EPERM, refusal)
                }
            }
        }
        return SocketDirectory(fd: fd, path: path)
    }

    /// `path` from the working directory when it is relative.
    static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        guard let cwd = getcwd(nil, 0) else { return path }
        defer { free(cwd) }
        let base = String(cString: cwd)
        return (base == "/" ? "" : base) + "/" + path
    }

    /// The path of the directory opened as `fd`, as the kernel resolved it.
    static func openedPath(_ fd: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        guard n > 0, buffer[0] == 0x2F else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Why a directory with this mode and owner is unsafe for the socket, or
    /// nil; `onTheWay`: it is not the socket's directory but one on the way to it.
    static func refusal(path: String, mode: mode_t, owner: uid_t, us: uid_t, onTheWay socket: String? = nil)
        -> String?
    {
        let octal = String(mode & 0o7777, radix: 8)
        let what =
            (socket.map { "the directory \(path) on the way to \($0)" } ?? "the socket's directory \(path)")
            + " (mode \(String(repeating: "0", count: max(0, 4 - octal.count)))\(octal), owner uid \(owner))"
        if owner != us && owner != 0 {
            return
                "\(what) belongs to another user, who could replace the socket or move the directory aside. "
                + "Choose a path of root's or the daemon's user with --socket"
        }
        let writableByOthers = mode & (S_IWGRP | S_IWOTH) != 0
        guard writableByOthers else { return nil }
        let sticky = mode & S_ISVTX != 0
        if sticky { return nil }
        return
            "\(what) is writable by \(mode & S_IWOTH != 0 ? "others" : "its group") and not a sticky directory of root's or ours: "
            + "another user could replace the socket. Make it writable by its owner only (chmod go-w \(path)) "
            + "or choose another path with --socket"
    }

    func close() { _ = Glibc.close(fd) }
}
