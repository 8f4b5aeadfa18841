import Glibc

/// Whether a file may be trusted by the user who reads it: an actions file
/// (its commands run as the user who runs `gesturectl actions`), the file
/// `shape record --into` rewrites, the daemon's config (it decides every
/// user's gestures). As ssh asks of `authorized_keys`, the file and the directory it is
/// in (and, for a symbolic link, the directory of the file it leads to) must
/// belong to that user or to root, and no one else may write to them. A
/// sticky directory of root's or the user's (`/tmp`) is the exception for a
/// directory, as no one else can replace the user's file there. So is the
/// user's private group (Debian's user private groups, where the login umask is
/// 002 and new files are group-writable), as Debian's ssh allows: the user's
/// primary group, named as the user, with no one else in it.
public struct FileTrust: Sendable {
    /// A group as the account databases tell of it.
    public struct Group: Sendable {
        public var name: String
        /// Users whose primary group it is, as far as the databases list users
        /// (a directory service may list none).
        public var primaryOf: [uid_t]
        /// Names listed as its members.
        public var listed: [String]
        public init(name: String, primaryOf: [uid_t], listed: [String]) {
            self.name = name
            self.primaryOf = primaryOf
            self.listed = listed
        }
    }

    /// The user the commands would run as (the one who trusts the file).
    public var user: uid_t
    /// Who may own the file, in the refusal's words.
    public var owners: String?
    /// What someone else who may change the file could do, in the refusal's words.
    public var consequence = "its commands would run as you"
    /// How to give the file to a right owner, for `fix` (a path).
    public var ownerFix: @Sendable (_ user: String, _ fix: String) -> String = {
        "Use a file and directory of your own (as root: chown \($0) \($1))"
    }
    /// How to take write away from others, before the path.
    public var writableFix = "Fix it with: chmod go-w"
    /// That user's name and primary group, if the databases know the user.
    public var account: (name: String, group: gid_t)?
    /// A group by its id; nil for one that does not exist.
    public var group: @Sendable (gid_t) -> Group?

    public init(user: uid_t = geteuid()) {
        self.init(user: user, account: Self.systemAccount(user), group: Self.systemGroup)
    }

    public init(user: uid_t, account: (name: String, group: gid_t)?, group: @escaping @Sendable (gid_t) -> Group?) {
        self.user = user
        self.account = account
        self.group = group
    }

    /// What is wrong with the file whose status is `st` (read from `path`), or nil.
    public func problem(file path: String, _ st: stat) -> String? {
        problem(what: path, fix: path, mode: st.st_mode, owner: st.st_uid, group: st.st_gid, directory: false)
    }

    /// What is wrong with the directories `path` is in, or nil. The directory
    /// of the path as given, and of where a symbolic link leads, and every
    /// directory on the way to that one (as ssh's StrictModes walks up from
    /// `authorized_keys`): whoever may rename one of them may put another
    /// directory, and another file, in its place.
    public func problemWithDirectories(of path: String) -> String? {
        var directories = [Self.directory(of: path)]
        var real: String?
        if let resolved = realpath(path, nil) {
            let r = String(cString: resolved)
            free(resolved)
            real = r
            let d = Self.directory(of: r)
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
        guard let real else { return nil }
        for ancestor in ancestors(of: Self.directory(of: real)) {
            var st = stat()
            guard stat(ancestor, &st) == 0 else { continue }
            if let p = problem(
                what: "the directory \(ancestor) on the way to \(path)", fix: ancestor, mode: st.st_mode,
                owner: st.st_uid, group: st.st_gid, directory: true)
            {
                return p
            }
        }
        return nil
    }

    /// What lets someone other than the user or root change a file or a
    /// directory: its owner, or write by others. The rule every check of a
    /// path the user's commands or files depend on applies, each in its words.
    public enum Breach: Equatable, Sendable {
        case owner
        case writable(byAnyone: Bool)
    }

    /// The breach in a file or directory of this mode, owner and group, or nil:
    /// owned by the user or root, and written by no one else (a sticky
    /// directory's other writers cannot replace the user's file; the user's
    /// private group is the user).
    public func breach(mode: mode_t, owner: uid_t, group: gid_t, directory: Bool) -> Breach? {
        if owner != user && owner != 0 { return .owner }
        let groupWrite = mode & S_IWGRP != 0, otherWrite = mode & S_IWOTH != 0
        guard groupWrite || otherWrite else { return nil }
        if directory && mode & S_ISVTX != 0 { return nil }
        if !otherWrite && groupIsTheUserAlone(group) { return nil }
        return .writable(byAnyone: otherWrite)
    }

    func problem(what: String, fix: String, mode: mode_t, owner: uid_t, group: gid_t, directory: Bool) -> String? {
        let octal = String(mode & 0o7777, radix: 8)
        let modeText = "mode \(String(repeating: "0", count: max(0, 4 - octal.count)))\(octal)"
        switch breach(mode: mode, owner: owner, group: group, directory: directory) {
        case nil:
            return nil
        case .owner:
            return
                "\(what) belongs to \(Self.userName(owner)) (\(modeText)), not to \(owners ?? "you (\(Self.userName(user))) or root"): "
                + "\(consequence). \(ownerFix(Self.userName(user), fix))"
        case .writable(let byAnyone):
            return
                "\(what) can be written by \(byAnyone ? "anyone" : "its group") (\(modeText), owner \(Self.userName(owner))): \(consequence). "
                + "\(writableFix) \(fix)"
        }
    }

    /// Whether `gid` is the user's private group: the user's primary group,
    /// named as the user, listing no one else as a member, and the primary
    /// group of no other user the databases list.
    public func groupIsTheUserAlone(_ gid: gid_t) -> Bool {
        guard let account, account.group == gid, let g = group(gid), g.name == account.name else { return false }
        return g.listed.allSatisfy { $0 == account.name } && g.primaryOf.allSatisfy { $0 == user }
    }

    /// The user's name and primary group from the account databases (NSS).
    static func systemAccount(_ uid: uid_t) -> (name: String, group: gid_t)? {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 1 << 14)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &found) == 0, found != nil, let name = entry.pw_name
        else { return nil }
        return (String(cString: name), entry.pw_gid)
    }

    /// `group` from the account databases (NSS).
    @Sendable static func systemGroup(_ gid: gid_t) -> Group? {
        var entry = Glibc.group()
        var found: UnsafeMutablePointer<Glibc.group>?
        var buffer = [CChar](repeating: 0, count: 1 << 16)
        guard getgrgid_r(gid, &entry, &buffer, buffer.count, &found) == 0, found != nil, let name = entry.gr_name
        else { return nil }
        func names(_ list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> [String] {
            var names: [String] = []
            var member = list
            while let m = member, let name = m.pointee {
                names.append(String(cString: name))
                member = m + 1
            }
            return names
        }
        var listed = names(entry.gr_mem)
        var groupName = String(cString: name)
        // Every entry with this gid: a second group sharing it (groupadd -o, or
        // a directory service's beside a local one) shares the files too, and
        // getgrgid tells of the first only.
        setgrent()
        while let g = getgrent() {
            guard g.pointee.gr_gid == gid else { continue }
            if let other = g.pointee.gr_name, String(cString: other) != groupName { groupName = "" }
            listed += names(g.pointee.gr_mem)
        }
        endgrent()
        var primaryOf: [uid_t] = []
        setpwent()
        while let p = getpwent() {
            if p.pointee.pw_gid == gid { primaryOf.append(p.pointee.pw_uid) }
        }
        endpwent()
        // A name shared by no one: "" never matches a user's name.
        return Group(name: groupName, primaryOf: primaryOf, listed: listed)
    }

    static func directory(of path: String) -> String {
        splitPath(path).directory
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
