import GestureClient
import GestureConfig
import Glibc
import LinuxSystem

/// The config file `shape record --into` adds to, held from the moment it is
/// read until the new one replaces it: by its directory's descriptor and its
/// inode, never by its name again. Between the two a person may take minutes
/// drawing; whoever may write to the directory could in that time put a link
/// to another file in its place, and the writer (root, as often as not) would
/// write the file read, with the table, to the file the link names. So the
/// directory must be the writer's or root's and writable by them alone (a
/// sticky one, as `/tmp`, lets no one else replace the file; the writer's
/// private group counts as the writer), the file is read
/// through that directory without following a link, the new file is made and
/// renamed within it, and only if the name still holds the file read, as it
/// was read. A symbolic link given as `--into` is resolved once, at the start,
/// and its target is what is written.
final class IntoFile {
    struct Refusal: Error {
        var message: String
        /// The file is not there (`--into` adds to a file that exists).
        var missing = false
    }

    /// As given.
    let path: String
    /// The file written: `path` with its links resolved.
    let target: String
    /// Its bytes, as read.
    let bytes: [UInt8]
    private let directory: Int32
    private let directoryPath: String
    private let name: String
    private let status: stat

    init(_ path: String) throws(Refusal) {
        self.path = path
        guard let resolved = realpath(path, nil) else {
            let e = errno
            throw Refusal(message: "\(path): \(String(cString: strerror(e)))", missing: e == ENOENT)
        }
        target = String(cString: resolved)
        free(resolved)
        // A link is written through, but a link in another user's directory is
        // theirs to point anywhere: its directory must pass as the target's does.
        if target != path {
            let given = splitPath(path).directory
            var st = stat()
            if stat(given, &st) == 0, let problem = Self.problem(directory: given, st, file: path) {
                throw Refusal(message: problem)
            }
        }
        (directoryPath, name) = splitPath(target)
        let d = open(directoryPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
        guard d >= 0 else {
            let e = errno
            throw Refusal(message: "cannot open the directory \(directoryPath): \(String(cString: strerror(e)))")
        }
        var st = stat()
        if fstat(d, &st) != 0 {
            let e = errno
            close(d)
            throw Refusal(message: "cannot stat the directory \(directoryPath): \(String(cString: strerror(e)))")
        }
        if let problem = Self.problem(directory: directoryPath, st, file: target) {
            close(d)
            throw Refusal(message: problem)
        }
        // What is there, before it is opened: opening a device may do something.
        var kind = stat()
        if name.isEmpty || fstatat(d, name, &kind, AT_SYMLINK_NOFOLLOW) == 0 && kind.st_mode & S_IFMT != S_IFREG {
            close(d)
            throw Refusal(
                message:
                    "\(target) is \(name.isEmpty || kind.st_mode & S_IFMT == S_IFDIR ? "a directory" : "not a regular file"); only a config file is added to"
            )
        }
        let fd = openat(d, name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW)
        guard fd >= 0 else {
            let e = errno
            close(d)
            throw Refusal(
                message: e == ELOOP
                    ? "\(target) became a symbolic link after it was resolved"
                    : "\(target): \(String(cString: strerror(e)))", missing: e == ENOENT)
        }
        var read = stat()
        let result = ConfigFile.read(opened: fd, path: target, limit: ConfigLoader.maxFileBytes) { st in
            read = st
            return nil
        }
        close(fd)
        switch result {
        case .success(let b): bytes = b
        case .failure(let f):
            close(d)
            throw Refusal(message: f.description)
        }
        // Whether it can be written is known now, before any stroke is read.
        if read.st_mode & S_IWUSR == 0 {
            close(d)
            throw Refusal(message: "\(target) is read-only (mode \(String(read.st_mode & 0o7777, radix: 8)))")
        }
        if faccessat(d, name, W_OK, 0) != 0 {
            let e = errno
            close(d)
            throw Refusal(
                message: e == EACCES
                    ? "\(target) belongs to \(FileTrust.userName(read.st_uid)) and you may not write it (mode \(String(read.st_mode & 0o7777, radix: 8))): run this as \(read.st_uid == 0 ? "root" : "\(FileTrust.userName(read.st_uid)) or as root")"
                    : "\(target) cannot be written: \(String(cString: strerror(e)))")
        }
        directory = d
        status = read
    }

    deinit { close(directory) }

    /// Why the writer may not trust `directory` (status `st`) to keep `file`
    /// where it is, or nil.
    static func problem(directory: String, _ st: stat, file: String, writer: uid_t = geteuid()) -> String? {
        let mode = "mode \(String(st.st_mode & 0o7777, radix: 8))"
        switch FileTrust(user: writer).breach(
            mode: st.st_mode, owner: st.st_uid, group: st.st_gid, directory: true)
        {
        case nil:
            return nil
        case .owner:
            return
                "the directory \(directory) belongs to \(FileTrust.userName(st.st_uid)) (\(mode)): they could put another file in the place of \(file) while it is rewritten. Run this as \(FileTrust.userName(st.st_uid)), or copy the file to a directory of your own"
        case .writable:
            return
                "the directory \(directory) can be written by others (\(mode), owner \(FileTrust.userName(st.st_uid))): they could put another file in the place of \(file) while it is rewritten. Fix it with: chmod go-w \(directory)"
        }
    }

    /// Replaces the file with `text`: written beside it and renamed over it, so
    /// that a reader (gestured reloading) sees the old file or the new one,
    /// never half. The new file keeps the old one's mode, owner and group; a
    /// file its owner made read-only, or one whose owner and group cannot be
    /// kept, or one changed or replaced since it was read, is left alone.
    func replace(with text: String) throws(Refusal) {
        func fail(_ what: String) -> Refusal { Refusal(message: "\(what); \(path) is unchanged") }
        var temporary = ""
        var fd: Int32 = -1
        for _ in 0..<16 {
            temporary = ".\(name).\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
            fd = openat(directory, temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw fail("cannot create a file in \(directoryPath): \(Errno.current)") }
        var failure: String?
        if fchown(fd, status.st_uid, status.st_gid) != 0 {
            failure =
                "cannot give the new \(target) its owner and group (\(status.st_uid):\(status.st_gid)): \(Errno.current); run as its owner"
        } else if fchmod(fd, status.st_mode & 0o7777) != 0 {
            failure = "cannot give the new \(target) its mode: \(Errno.current)"
        } else {
            do throws(Errno) {
                try FileDescriptor(rawValue: fd).writeAll(text)
                if fsync(fd) != 0 { throw Errno.current }
            } catch {
                failure = "cannot write \(target): \(error)"
            }
        }
        close(fd)
        if failure == nil {
            var now = stat()
            // A new file may get the old one's inode number: the type and the
            // times tell them apart.
            if fstatat(directory, name, &now, AT_SYMLINK_NOFOLLOW) != 0 || now.st_mode & S_IFMT != S_IFREG
                || now.st_dev != status.st_dev || now.st_ino != status.st_ino
            {
                failure = "\(target) was replaced while the shape was taught"
            } else if now.st_size != status.st_size || now.st_mtim.tv_sec != status.st_mtim.tv_sec
                || now.st_mtim.tv_nsec != status.st_mtim.tv_nsec || now.st_ctim.tv_sec != status.st_ctim.tv_sec
                || now.st_ctim.tv_nsec != status.st_ctim.tv_nsec
            {
                failure = "\(target) was changed while the shape was taught; run it again"
            } else if renameat(directory, temporary, directory, name) != 0 {
                failure = "cannot replace \(target): \(Errno.current)"
            }
        }
        if let failure {
            unlinkat(directory, temporary, 0)
            throw fail(failure)
        }
        _ = fsync(directory)
    }
}
