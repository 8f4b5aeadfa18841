import Glibc

/// Runs `/bin/sh -c CMD` per event, at most `maxChildren` at a time, without
/// ever waiting on a child: the event is written to the child's stdin through a
/// fresh pipe (an event line is far below the pipe's capacity, so the write
/// cannot block), and children are reaped with WNOHANG.
///
/// Policy when `maxChildren` are running: the event is dropped with a warning.
/// Gestures are commands of the moment; running them late, in a burst, after
/// a slow command finally returns would surprise more than a dropped one.
public final class CommandRunner {
    public let command: String
    public let maxChildren: Int
    public private(set) var running: Set<pid_t> = []
    public private(set) var dropped = 0
    private let warn: (String) -> Void

    public init(command: String, maxChildren: Int, warn: @escaping (String) -> Void) {
        self.command = command; self.maxChildren = maxChildren; self.warn = warn
    }

    /// Starts the command for one event line; false if dropped or it could not start.
    @discardableResult
    public func run(eventLine: String, environment extra: [(String, String)]) -> Bool {
        reap()
        guard running.count < maxChildren else {
            dropped += 1
            warn("gesturectl: \(running.count) commands still running (--max-children \(maxChildren)); dropped this event: \(eventLine)")
            return false
        }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            warn("gesturectl: pipe: \(String(cString: strerror(errno)))")
            return false
        }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        // Close-on-exec on both: the dup2 to stdin is what the child keeps.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, readEnd, 0)
        defer { posix_spawn_file_actions_destroy(&actions) }

        // Our environment, with the event's variables replacing any of the same name.
        let names = Set(extra.map(\.0))
        var env: [String] = []
        var p = environ
        while let entry = p.pointee {
            let s = String(cString: entry)
            if let eq = s.firstIndex(of: "="), !names.contains(String(s[..<eq])) { env.append(s) }
            p += 1
        }
        env += extra.map { "\($0.0)=\($0.1)" }
        let argv = ["/bin/sh", "-c", command]
        var pid: pid_t = 0
        let r = withCStrings(argv) { cargv in
            withCStrings(env) { cenv in posix_spawn(&pid, "/bin/sh", &actions, nil, cargv, cenv) }
        }
        close(readEnd)
        guard r == 0 else {
            close(writeEnd)
            warn("gesturectl: cannot start /bin/sh: \(String(cString: strerror(r)))")
            return false
        }
        running.insert(pid)
        _ = fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK)
        let bytes = Array((eventLine + "\n").utf8)
        // A child that exits without reading its stdin gives EPIPE: not our problem.
        _ = bytes.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
        close(writeEnd)
        return true
    }

    /// Collects finished children; reports those that failed.
    public func reap() {
        while true {
            var status: Int32 = 0
            let pid = waitpid(-1, &status, WNOHANG)
            guard pid > 0 else { return }
            guard running.remove(pid) != nil else { continue }
            let exited = status & 0x7f == 0
            let code = (status >> 8) & 0xff
            if !exited {
                warn("gesturectl: command killed by signal \(status & 0x7f): \(command)")
            } else if code != 0 {
                warn("gesturectl: command exited with status \(code): \(command)")
            }
        }
    }
}

/// Calls `body` with a NULL-terminated C array of the strings.
func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    pointers.append(nil)
    defer { for p in pointers { free(p) } }
    return body(pointers)
}
