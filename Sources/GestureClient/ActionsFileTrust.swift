import Glibc

/// Whether an actions file may run commands as the user who runs `gesturectl
/// actions`: as ssh asks of `authorized_keys`, the file and the directory it is
/// in (and, for a symbolic link, the directory of the file it leads to) must
/// belong to that user or to root, and no one else may write to them. A
/// sticky directory of root's or the user's (`/tmp`) is the exception for a
/// directory, as no one else can replace the user's file there. So is a group
/// whose only member is the user (Debian's user private groups, where the login
/// umask is 002 and new files are group-writable), as Debian's ssh allows.
public struct ActionsFileTrust: Sendable {
    /// The user the commands would run as.
    public var user: uid_t
    /// Who is in a group: the users whose primary group it is, and the names
    /// listed as its members; nil for a group that does not exist.
    public var groupMembers: @Sendable (gid_t) -> (primary: [uid_t], listed: [String])?

    public init(user: uid_t = geteuid()) {
        self.init(user: user, groupMembers: Self.systemGroupMembers)
    }

    public init(user: uid_t, groupMembers: @escaping @Sendable (gid_t) -> (primary: [uid_t], listed: [String])?) {
        self.user = user
        self.groupMembers = groupMembers
    }

    /// What is wrong with the file whose status is `st` (read from `path`), or nil.
    public func problem(file path: String, _ st: stat) -> String? {
        problem(what: path, fix: path, mode: st.st_mode, owner: st.st_uid, group: st.st_gid, directory: false)
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
                group: st.st_gid, directory: true)
            {
                return p
            }
        }
        return nil
    }

    func problem(what: String, fix: String, mode: mode_t, owner: uid_t, group: gid_t, directory: Bool) -> String? {
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
        if !otherWrite && groupIsTheUserAlone(group) { return nil }
        let who = otherWrite ? "anyone" : "its group"
        return
            "\(what) can be written by \(who) (\(modeText), owner \(Self.userName(owner))): its commands would run as you. "
            + "Fix it with: chmod go-w \(fix)"
    }

    /// Whether the user is the group's one member: the only user whose primary
    /// group it is, or listed as its only member, or both, and no one else.
    func groupIsTheUserAlone(_ gid: gid_t) -> Bool {
        guard let members = groupMembers(gid) else { return false }
        if members.primary.contains(where: { $0 != user }) { return false }
        let name = Self.userName(user)
        if members.listed.contains(where: { $0 != name }) { return false }
        // A group with no one in it (as setgid programs use) is not the user's.
        return members.primary.contains(user) || members.listed.contains(name)
    }

    /// `groupMembers` from the system's account databases (NSS).
    @Sendable static func systemGroupMembers(_ gid: gid_t) -> (primary: [uid_t], listed: [String])? {
        var entry = group()
        var found: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 1 << 16)
        guard getgrgid_r(gid, &entry, &buffer, buffer.count, &found) == 0, found != nil else { return nil }
        var listed: [String] = []
        if var member = entry.gr_mem {
            while let name = member.pointee {
                listed.append(String(cString: name))
                member += 1
            }
        }
        var primary: [uid_t] = []
        setpwent()
        while let p = getpwent() {
            if p.pointee.pw_gid == gid { primary.append(p.pointee.pw_uid) }
        }
        endpwent()
        return (primary, listed)
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    public static func userName(_ uid: uid_t) -> String {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        if getpwuid_r(uid, &entry, &buffer, buffer.count, &found) == 0, found != nil, let name = entry.pw_name {
            return String(cString: name)
        }
        return "uid \(uid)"
    }
}
