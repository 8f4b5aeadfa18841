import Glibc

/// Whether an actions file may run commands as the user who runs `gesturectl
/// actions`: as ssh asks of `authorized_keys`, the file and the directory it is
/// in (and, for a symbolic link, the directory of the file it leads to) must
/// belong to that user or to root, and no one else may write to them. A
/// sticky directory of root's or the user's (`/tmp`) is the exception for a
/// directory, as no one else can replace the user's file there.
public struct ActionsFileTrust: Sendable {
    /// The user the commands would run as.
    public var user: uid_t

    public init(user: uid_t = geteuid()) { self.user = user }

    /// What is wrong with the file whose status is `st` (read from `path`), or nil.
    public func problem(file path: String, _ st: stat) -> String? {
        problem(what: path, fix: path, mode: st.st_mode, owner: st.st_uid, directory: false)
    }

    /// What is wrong with the directories `path` is in, or nil. The directory
    /// of the path as given, and of where a symbolic link leads.
    public func problemWithDirectories(of path: String) -> String? {
        var directories = [Self.directory(of: path)]
        if let resolved = realpath(path, nil) {
            let real = String(cString: resolved)
            free(resolved)
            let d = Self.directory(of: real)
            if d != directories[0] { directories.append(d) }
        }
        for d in directories {
            var st = stat()
            guard stat(d, &st) == 0 else { continue }  // opening the file says what is missing
            if let p = problem(
                what: "the directory \(d) of \(path)", fix: d, mode: st.st_mode, owner: st.st_uid,
                directory: true)
            {
                return p
            }
        }
        return nil
    }

    func problem(what: String, fix: String, mode: mode_t, owner: uid_t, directory: Bool) -> String? {
        let octal = String(mode & 0o7777, radix: 8)
        let modeText = "mode \(String(repeating: "0", count: max(0, 4 - octal.count)))\(octal)"
        if owner != user && owner != 0 {
            return
                "\(what) belongs to \(Self.userName(owner)) (\(modeText)), not to you (\(Self.userName(user))) or root: "
                + "its commands would run as you. Use a file and directory of your own "
                + "(as root: chown \(Self.userName(user)) \(fix))"
        }
        let groupWrite = mode & S_IWGRP != 0, otherWrite = mode & S_IWOTH != 0
        guard groupWrite || otherWrite else { return nil }
        if directory && mode & S_ISVTX != 0 { return nil }
        let who = otherWrite ? "anyone" : "its group"
        return
            "\(what) can be written by \(who) (\(modeText), owner \(Self.userName(owner))): its commands would run as you. "
            + "Fix it with: chmod go-w \(fix)"
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func userName(_ uid: uid_t) -> String {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        if getpwuid_r(uid, &entry, &buffer, buffer.count, &found) == 0, found != nil, let name = entry.pw_name {
            return String(cString: name)
        }
        return "uid \(uid)"
    }
}
