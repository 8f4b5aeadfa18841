import GestureCore
import Glibc
import LinuxSystem

/// Where the daemon's configuration comes from, and loading it (at start and
/// on SIGHUP).
public enum ConfigFile {
    /// `--config FILE`, else `$GESTURED_CONFIG`, else the system file if it
    /// exists; nil means the built-in default. A symbolic link there counts
    /// even if what it leads to cannot be reached (a home directory the
    /// service may not see): loading it then says why, instead of the
    /// built-in config running in silence.
    public static func resolve(explicit: String?) -> String? {
        if let explicit { return explicit }
        if let env = getenv("GESTURED_CONFIG").map({ String(cString: $0) }), !env.isEmpty { return env }
        var st = stat()
        return lstat(ConfigLoader.systemPath, &st) == 0 ? ConfigLoader.systemPath : nil
    }

    /// Loads and validates; the error text names file:line: key: problem, one
    /// line per problem. A file over `ConfigLoader.maxFileBytes` is refused
    /// without being read whole.
    ///
    /// With `trust`, as the daemon loads its config: the file, its directory
    /// and every directory on the way to it must belong to root or to the
    /// daemon's user and be written by no one else (`FileTrust`), or the file
    /// is refused before it is read. Whoever may change the config decides
    /// every user's gestures: which screens are taken exclusively, what fires.
    public static func load(path: String?, trust: FileTrust? = nil) -> Result<Configuration, ConfigFailure> {
        guard let path else { return .success(ConfigLoader.builtIn()) }
        if let problem = trust?.problemWithDirectories(of: path) {
            return .failure(ConfigFailure(description: problem))
        }
        let bytes: [UInt8]
        switch read(path: path, limit: ConfigLoader.maxFileBytes, accept: { trust?.problem(file: path, $0) }) {
        case .success(let b): bytes = b
        case .failure(let f): return .failure(f)
        }
        return load(bytes: bytes, file: path)
    }

    /// What `load(path:trust:)` would refuse in `path`'s owner, mode or
    /// directories, or nil (by the path's status now: for telling, not for
    /// reading, which checks what it opened).
    public static func trustProblem(path: String, trust: FileTrust) -> String? {
        if let problem = trust.problemWithDirectories(of: path) { return problem }
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return trust.problem(file: path, st)
    }

    /// The trust the daemon asks of its config: root's, or the user's it runs as.
    public static func daemonTrust(user: uid_t = geteuid()) -> FileTrust {
        var trust = FileTrust(user: user)
        trust.owners = user == 0 ? "root" : "root or \(FileTrust.userName(user)), the user gestured runs as"
        trust.consequence = "whoever may change it decides every user's gestures"
        trust.ownerFix = { _, fix in "Check what it holds, then fix it with: chown root \(fix)" }
        trust.writableFix = "Check what it holds, then fix it with: chmod go-w"
        return trust
    }

    /// `load(path:)` on bytes already read from `file`.
    public static func load(bytes: [UInt8], file: String) -> Result<Configuration, ConfigFailure> {
        do {
            return .success(try ConfigLoader.load(bytes: bytes, file: file))
        } catch {
            return .failure(ConfigFailure(description: error.description))
        }
    }

    /// The file's bytes, or why they cannot be had. Only a regular file (or a
    /// symbolic link to one) is read: a FIFO, a device, a socket or a directory
    /// put in its place is an error that says what it is, never an empty config.
    /// More than `limit` bytes (by its size, or by reading: a file in /proc
    /// says 0) is an error.
    /// `accept` looks at the status of what was opened and returns what is
    /// wrong with it (nil: nothing), before a byte is read.
    public static func read(
        path: String, limit: Int,
        accept: (stat) -> String? = { _ in nil }
    ) -> Result<[UInt8], ConfigFailure> {
        // O_NONBLOCK: opening a FIFO with no writer must not hang; what was
        // opened is then checked by its descriptor, not by the name again.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        if fd < 0 {
            let e = errno
            return .failure(ConfigFailure(description: "\(path): cannot open: \(String(cString: strerror(e)))"))
        }
        defer { close(fd) }
        return read(opened: fd, path: path, limit: limit, accept: accept)
    }

    /// `read(path:limit:accept:)` on a file already opened (with `O_NONBLOCK`,
    /// so that a FIFO did not hang the open); `path` names it in errors. The
    /// descriptor stays open.
    public static func read(
        opened fd: Int32, path: String, limit: Int,
        accept: (stat) -> String? = { _ in nil }
    ) -> Result<[UInt8], ConfigFailure> {
        func failure(_ what: String, _ code: Int32) -> Result<[UInt8], ConfigFailure> {
            .failure(ConfigFailure(description: "\(path): \(what): \(String(cString: strerror(code)))"))
        }
        func tooBig(_ size: String) -> Result<[UInt8], ConfigFailure> {
            .failure(
                ConfigFailure(
                    description: limit == ConfigLoader.maxFileBytes
                        ? "\(path):1: the file is \(size); a config may be at most \(limit) bytes (1 MiB)"
                        : "\(path): the file is \(size); at most \(limit) bytes are read"))
        }
        var st = stat()
        if fstat(fd, &st) != 0 { return failure("cannot stat", errno) }
        if let kind = notRegular(st.st_mode) {
            return .failure(
                ConfigFailure(description: "\(path): is \(kind), not a regular file; only a regular file is read"))
        }
        if let problem = accept(st) { return .failure(ConfigFailure(description: problem)) }
        if Int(st.st_size) > limit { return tooBig("\(st.st_size) bytes") }
        // A regular file blocks on no read; back to blocking so that none fails with EAGAIN.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n: Int
            do throws(Errno) { n = try FileDescriptor(rawValue: fd).read(into: &chunk) } catch {
                return failure("cannot read", error.rawValue)
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > limit { return tooBig("more than \(limit) bytes") }
        }
        return .success(bytes)
    }

    /// What a file of this mode is, in words, when it is not a regular file.
    static func notRegular(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a symbolic link"
        default: return "a special file (mode \(String(mode, radix: 8)))"
        }
    }

    public struct ConfigFailure: Error, CustomStringConvertible, Sendable {
        public var description: String
        public init(description: String) { self.description = description }
    }
}
