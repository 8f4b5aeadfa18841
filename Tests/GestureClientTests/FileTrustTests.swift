import Foundation
import Glibc
import Testing

@testable import GestureClient
@testable import LinuxSystem

/// `gesturectl actions` runs the file's commands as you: a file or a directory
/// someone else can change is refused, as ssh refuses such authorized_keys;
/// and only a regular file is read.
@Suite struct FileTrustTests {
    let scratch = Scratch("trust")
    var dir: String { scratch.path }
    static let text = "[[action]]\nkind = \"tap\"\nexec = \"true\"\n"

    /// `gesturectl actions --check --file path`: its status, its messages and its report.
    func check(_ path: String) -> (status: Int32, warnings: [String], report: [String]) {
        let warnings = Warnings()
        var report: [String] = []
        let status = ActionsArguments(file: path, check: true).run(
            environment: [:], warn: { warnings.add($0) },
            report: { report.append($0) })
        return (status, warnings.lines, report)
    }

    func file(_ name: String, in directory: String? = nil, mode: mode_t = 0o644) throws -> String {
        let path = "\(directory ?? dir)/\(name)"
        try Self.text.write(toFile: path, atomically: false, encoding: .utf8)
        try #require(chmod(path, mode) == 0)
        return path
    }

    var me: String { FileTrust.userName(geteuid()) }

    /// Gives `path` to a group with others in it (nogroup, nobody's primary
    /// group), so that group write counts: a group of the user alone may write.
    /// False when that cannot be done (not root) and its group is the user's alone.
    func inASharedGroup(_ path: String) throws -> Bool {
        if geteuid() == 0 {
            try #require(chown(path, uid_t.max, 65534) == 0)
        }
        var st = stat()
        try #require(stat(path, &st) == 0)
        return !FileTrust().groupIsTheUserAlone(st.st_gid)
    }

    @Test func aFileOfYourOwnIsAccepted() throws {
        let r = check(try file("actions.toml"))
        #expect(r.status == 0)
        #expect(r.report.first?.hasSuffix(": ok: 1 action, max_running 4") == true)
    }

    @Test func aFIFOIsRefusedNotReadAsEmpty() throws {
        let fifo = dir + "/actions.toml"
        try #require(mkfifo(fifo, 0o600) == 0)
        let r = check(fifo)
        #expect(r.status == 1)
        #expect(r.report.isEmpty)
        #expect(
            r.warnings == [
                "gesturectl: \(fifo): is a FIFO (named pipe), not a regular file; only a regular file is read\n(an actions file holds [[action]] tables; see gesturectl(1), ACTIONS)"
            ])
    }

    @Test func aFileOthersCanWriteIsRefusedWithTheFix() throws {
        let group = try file("group.toml", mode: 0o664)
        if try inASharedGroup(group) {
            let r = check(group)
            #expect(r.status == 1)
            #expect(
                r.warnings == [
                    "gesturectl: \(group) can be written by its group (mode 0664, owner \(me)): its commands would run as you. Fix it with: chmod go-w \(group)"
                ])
        }
        let anyone = try file("anyone.toml", mode: 0o646)
        #expect(check(anyone).warnings.first?.contains("can be written by anyone (mode 0646, owner \(me))") == true)
    }

    @Test func aDirectoryOthersCanWriteIsRefusedUnlessSticky() throws {
        let open = dir + "/open"
        try #require(mkdir(open, 0o755) == 0 && chmod(open, 0o777) == 0)
        let path = try file("actions.toml", in: open)
        let r = check(path)
        #expect(r.status == 1)
        #expect(
            r.warnings == [
                "gesturectl: the directory \(open) of \(path) can be written by anyone (mode 0777, owner \(me)): its commands would run as you. Fix it with: chmod go-w \(open)"
            ])
        // Sticky (as /tmp): no one else can replace the file there.
        try #require(chmod(open, 0o1777) == 0)
        #expect(check(path).status == 0)
        // A link from a safe directory to a file in an unsafe one is no better.
        try #require(chmod(open, 0o775) == 0)
        let link = dir + "/link.toml"
        try #require(symlink(path, link) == 0)
        if try inASharedGroup(open) {
            #expect(
                check(link).warnings.first?.contains("the directory \(open) of \(link) can be written by its group")
                    == true
            )
        }
    }

    /// Debian's logins have umask 002 and a group of their own: a directory
    /// made for the actions file that way is the user's alone, and accepted.
    @Test func aDirectoryOfTheUsersOwnGroupIsAccepted() throws {
        var st = stat()
        let mine = dir + "/mine"
        try #require(mkdir(mine, 0o775) == 0 && chmod(mine, 0o775) == 0 && stat(mine, &st) == 0)
        let path = try file("actions.toml", in: mine, mode: 0o664)
        let alone = FileTrust().groupIsTheUserAlone(st.st_gid)
        #expect(check(path).status == (alone ? 0 : 1))
    }

    @Test(.enabled(if: geteuid() == 0, "giving a file away needs root"))
    func aFileOrDirectoryOfAnotherUserIsRefused() throws {
        let other = uid_t(65534)
        let path = try file("actions.toml")
        try #require(chown(path, other, gid_t.max) == 0)
        let r = check(path)
        #expect(r.status == 1)
        #expect(
            r.warnings == [
                "gesturectl: \(path) belongs to \(FileTrust.userName(other)) (mode 0644), not to you (\(me)) or root: its commands would run as you. Use a file and directory of your own (as root: chown \(me) \(path))"
            ])

        let theirs = dir + "/theirs"
        try #require(mkdir(theirs, 0o755) == 0 && chown(theirs, other, gid_t.max) == 0)
        let inside = try file("actions.toml", in: theirs)
        #expect(
            check(inside).warnings.first?.hasPrefix(
                "gesturectl: the directory \(theirs) of \(inside) belongs to \(FileTrust.userName(other))")
                == true)
    }

    /// A directory of ours inside one of another user's: they may rename ours
    /// aside and put their own, file and all, in its place.
    @Test(.enabled(if: geteuid() == 0, "giving a directory away needs root"))
    func aDirectoryOnTheWayOfAnotherUserIsRefused() throws {
        let theirs = dir + "/theirs"
        try #require(mkdir(theirs, 0o755) == 0 && mkdir(theirs + "/ours", 0o755) == 0)
        let path = try file("actions.toml", in: theirs + "/ours")
        try #require(chown(theirs, 65534, 65534) == 0)
        let r = check(path)
        #expect(r.status == 1)
        #expect(
            r.warnings.first?.hasPrefix("gesturectl: the directory \(theirs) on the way to \(path) belongs to") == true,
            "\(r.warnings)")
    }

    @Test func rules() {
        // Group 100 has others in it; 1000 is the user's own.
        let t = FileTrust(user: 1000, account: ("me", 1000)) { gid in
            gid == 100 ? .init(name: "users", primaryOf: [1001], listed: ["somebody"]) : nil
        }
        #expect(t.problem(what: "f", fix: "f", mode: 0o100644, owner: 1000, group: 1000, directory: false) == nil)
        #expect(t.problem(what: "f", fix: "f", mode: 0o100600, owner: 0, group: 100, directory: false) == nil)
        #expect(t.problem(what: "f", fix: "f", mode: 0o100644, owner: 1001, group: 100, directory: false) != nil)
        #expect(t.problem(what: "f", fix: "f", mode: 0o100664, owner: 1000, group: 100, directory: false) != nil)
        #expect(t.problem(what: "d", fix: "d", mode: 0o41777, owner: 0, group: 100, directory: true) == nil)
        #expect(t.problem(what: "d", fix: "d", mode: 0o41777, owner: 1001, group: 100, directory: true) != nil)
        #expect(t.problem(what: "d", fix: "d", mode: 0o40775, owner: 1000, group: 100, directory: true) != nil)
    }

    /// Debian's user private groups: logins have umask 002, so a directory made
    /// for the actions file is group-writable by a group with the user alone.
    @Test func aGroupOfTheUserAloneMayWrite() {
        let me = FileTrust.userName(geteuid())
        let groups: [gid_t: FileTrust.Group] = [
            1000: .init(name: me, primaryOf: [geteuid()], listed: []),  // the user's private group
            1001: .init(name: me, primaryOf: [], listed: [me]),  // not the user's primary group
            1002: .init(name: me, primaryOf: [geteuid(), 4242], listed: []),  // another user's primary group too
            1003: .init(name: me, primaryOf: [geteuid()], listed: ["somebody"]),  // somebody else listed
        ]
        func trust(primary: gid_t) -> FileTrust {
            FileTrust(user: geteuid(), account: (me, primary)) { groups[$0] }
        }
        func writable(_ gid: gid_t, mode: mode_t = 0o40775, primary: gid_t? = nil) -> Bool {
            trust(primary: primary ?? gid).problem(
                what: "d", fix: "d", mode: mode, owner: geteuid(), group: gid, directory: true) == nil
        }
        #expect(writable(1000))
        #expect(!writable(1001, primary: 1000))
        #expect(!writable(1002))
        #expect(!writable(1003))
        #expect(!writable(1005), "a group that does not exist")
        #expect(!writable(1000, mode: 0o40777), "anyone may write")
        // A group named otherwise (users, staff) is shared however few are listed.
        let staff = FileTrust(user: geteuid(), account: (me, 50)) { _ in
            .init(name: "staff", primaryOf: [geteuid()], listed: [])
        }
        #expect(staff.problem(what: "d", fix: "d", mode: 0o40775, owner: geteuid(), group: 50, directory: true) != nil)
    }
}
