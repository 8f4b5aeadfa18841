import Glibc
import Testing

@testable import GestureDaemon
@testable import LinuxSystem

/// The socket's file is never chmod-ed or chown-ed through its name, and a
/// directory another user could write to is refused.
@Suite struct SocketPathTests {
    /// A fresh directory (0700, ours) under /tmp.
    func makeDirectory(_ tag: String) throws -> String {
        var template = Array("/tmp/gestured-sockdir-\(tag)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        _ = try #require(made)
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    func removeDirectory(_ dir: String) {
        if let d = opendir(dir) {
            while let e = readdir(d) {
                let name = withUnsafeBytes(of: e.pointee.d_name) {
                    String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
                }
                if name != "." && name != ".." { unlink(dir + "/" + name) }
            }
            closedir(d)
        }
        rmdir(dir)
    }

    /// A group other than `gid` that exists here, for the chown step.
    func otherGroup(than gid: gid_t) -> (name: String, gid: gid_t)? {
        for name in ["nogroup", "daemon", "bin", "sys", "users", "adm"] {
            if let g = getgrnam(name), g.pointee.gr_gid != gid { return (name, g.pointee.gr_gid) }
        }
        return nil
    }

    @Test func socketSwappedForASymlinkAfterBindLeavesTheTargetAlone() throws {
        let dir = try makeDirectory("swap")
        defer { removeDirectory(dir) }
        let target = dir + "/precious"
        let fd = open(target, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        try #require(fd >= 0)
        close(fd)
        _ = chmod(target, 0o600)  // the umask may have narrowed it; 0600 is what it must keep
        var before = stat()
        try #require(stat(target, &before) == 0)
        let group = try #require(otherGroup(than: before.st_gid), "no second group on this machine")

        let path = dir + "/events.sock"
        var swapped = false
        #expect(throws: SocketError.self) {
            _ = try ListeningSocket.bind(path: path, mode: 0o660, group: group.name, backlog: 4) {
                // The worst moment: the socket exists, its group and mode not yet checked.
                swapped = unlink(path) == 0 && symlink(target, path) == 0
            }
        }
        #expect(swapped)
        var after = stat()
        try #require(stat(target, &after) == 0)
        #expect(
            after.st_mode & 0o7777 == 0o600, "the target's mode changed to \(String(after.st_mode & 0o7777, radix: 8))")
        #expect(after.st_gid == before.st_gid, "the target was given to group \(after.st_gid)")
        #expect(after.st_uid == before.st_uid)
    }

    @Test func boundSocketHasTheModeAndGroupAskedFor() throws {
        let dir = try makeDirectory("owned")
        defer { removeDirectory(dir) }
        let group = try #require(otherGroup(than: getegid()), "no second group on this machine")
        let path = dir + "/events.sock"
        let listener = try ListeningSocket.bind(path: path, mode: 0o660, group: group.name)
        defer { listener.close() }
        var st = stat()
        try #require(lstat(path, &st) == 0)
        #expect(st.st_mode & S_IFMT == S_IFSOCK)
        #expect(st.st_mode & 0o7777 == 0o660)
        #expect(getuid() != 0 || st.st_gid == group.gid)  // only root may give a file to any group
    }

    @Test(arguments: [0o777, 0o770, 0o757] as [mode_t])
    func directoryOthersCanWriteIsRefused(mode: mode_t) throws {
        let dir = try makeDirectory("open")
        defer { removeDirectory(dir) }
        try #require(chmod(dir, mode) == 0)
        let path = dir + "/events.sock"
        do {
            let listener = try ListeningSocket.bind(path: path, group: nil)
            listener.close()
            Issue.record("bound in a directory of mode \(String(mode, radix: 8))")
        } catch {
            #expect(error.description.contains("chmod go-w \(dir)"), "\(error)")
            #expect(error.description.contains("mode 0\(String(mode, radix: 8))"), "\(error)")
        }
        var st = stat()
        #expect(lstat(path, &st) != 0)  // nothing was created
    }

    @Test func stickyDirectoryOfOursIsAccepted() throws {
        let dir = try makeDirectory("sticky")
        defer { removeDirectory(dir) }
        try #require(chmod(dir, 0o1777) == 0)
        let listener = try ListeningSocket.bind(path: dir + "/events.sock", group: nil)
        listener.close()
    }

    @Test func refusalRules() {
        let us: uid_t = 1000
        #expect(SocketDirectory.refusal(path: "/run/g", mode: 0o755, owner: us, us: us) == nil)
        #expect(SocketDirectory.refusal(path: "/run/g", mode: 0o700, owner: 0, us: us) == nil)
        #expect(SocketDirectory.refusal(path: "/tmp", mode: 0o1777, owner: 0, us: us) == nil)
        #expect(SocketDirectory.refusal(path: "/tmp/x", mode: 0o1777, owner: us, us: us) == nil)
        #expect(SocketDirectory.refusal(path: "/tmp/x", mode: 0o1777, owner: 1001, us: us) != nil)
        #expect(SocketDirectory.refusal(path: "/run/g", mode: 0o775, owner: us, us: us) != nil)
        #expect(SocketDirectory.refusal(path: "/run/g", mode: 0o757, owner: 0, us: us) != nil)
        // Another user's directory, however closed: they may rename the socket
        // aside and put theirs in its place.
        #expect(
            SocketDirectory.refusal(path: "/home/m/s", mode: 0o755, owner: 1001, us: us)?.contains(
                "belongs to another user") == true)
        #expect(
            SocketDirectory.refusal(path: "/home/m", mode: 0o700, owner: 1001, us: us, onTheWay: "/home/m/s/e.sock")?
                .hasPrefix("the directory /home/m on the way to /home/m/s/e.sock") == true)
    }

    /// A directory of ours inside one another user owns: refused, nothing made.
    @Test(.enabled(if: geteuid() == 0, "giving a directory away needs root"))
    func aDirectoryOnTheWayOwnedByAnotherUserIsRefused() throws {
        let outer = try makeDirectory("theirs")
        defer {
            removeDirectory(outer + "/ours")
            removeDirectory(outer)
        }
        try #require(mkdir(outer + "/ours", 0o755) == 0 && chown(outer, 65534, 65534) == 0)
        let path = outer + "/ours/events.sock"
        #expect(throws: SocketError.self) { try ListeningSocket.bind(path: path, group: nil).close() }
        var st = stat()
        #expect(lstat(path, &st) != 0)
    }

    /// The same, reached through a link from a directory of ours: where the
    /// path leads counts, not only the path as written.
    @Test(.enabled(if: geteuid() == 0, "giving a directory away needs root"))
    func aLinkIntoAnotherUsersDirectoryIsRefused() throws {
        let outer = try makeDirectory("theirs-link")
        let ours = try makeDirectory("ours-link")
        defer {
            unlink(ours + "/link")
            removeDirectory(ours)
            removeDirectory(outer + "/sub")
            removeDirectory(outer)
        }
        try #require(mkdir(outer + "/sub", 0o755) == 0 && chown(outer, 65534, 65534) == 0)
        try #require(symlink(outer + "/sub", ours + "/link") == 0)
        let path = ours + "/link/events.sock"
        do {
            try ListeningSocket.bind(path: path, group: nil).close()
            Issue.record("bound through a link into a directory of uid 65534")
        } catch {
            #expect(error.description.contains("the directory \(outer) on the way to"), "\(error)")
        }
        var st = stat()
        #expect(lstat(outer + "/sub/events.sock", &st) != 0)
    }

    @Test func aRelativePathIsTakenFromTheWorkingDirectory() {
        var buffer = [CChar](repeating: 0, count: 4096)
        let cwd = String(cString: getcwd(&buffer, buffer.count)!)
        #expect(SocketDirectory.absolute("run/x") == (cwd == "/" ? "" : cwd) + "/run/x")
        #expect(SocketDirectory.absolute("/run/x") == "/run/x")
    }

    /// LISTEN_FDS past what a process may hold is refused, not counted up to.
    @Test func aListenFDsCountNoProcessCouldHoldIsRefused() {
        for count in ["2147483647", "2000000000"] {
            #expect(throws: SocketError.self) {
                _ = try ListeningSocket.fromSystemd(environment: ["LISTEN_PID": "\(getpid())", "LISTEN_FDS": count])
            }
        }
    }
}
