import Glibc
import GestureCore
import GestureDaemon

/// Runs `/bin/sh -c CMD` per event, at most `maxChildren` at a time, without
/// ever waiting on a child: the event is written to the child's stdin through a
/// fresh pipe (an event line is far below the pipe's capacity, so the write
/// cannot block), and children are reaped with WNOHANG.
///
/// Events wait in a `GestureBacklog` while `maxChildren` commands run: no
/// `began`, `ended`, `cancelled`, `recognized` or `failed` is ever dropped,
/// and one gesture's commands run one after another, in order. Only `changed`
/// gives way: a waiting `changed` is replaced by the gesture's next one, and
/// one that finds the backlog full is dropped (with a warning). When the
/// backlog is full of lifecycle events, `isFull` tells the caller to stop
/// reading events until a command finishes.
public final class CommandRunner {
    public let command: String
    public let maxChildren: Int
    /// Running children and the gesture each one handles.
    public private(set) var running: [pid_t: String] = [:]
    public private(set) var backlog: GestureBacklog<(line: String, environment: [(String, String)])>
    /// Commands that could not be started (pipe or spawn failed).
    public private(set) var failedToStart = 0
    private let warn: (String) -> Void
    private var dropWarnings = LogLimiter(burst: 1, window: Millis(5000))
    private var warnedDropped = 0

    public init(command: String, maxChildren: Int, backlog capacity: Int = 256, warn: @escaping (String) -> Void) {
        self.command = command; self.maxChildren = maxChildren; self.warn = warn
        backlog = GestureBacklog(capacity: capacity)
        // A command that exits without reading its stdin must not kill us
        // with SIGPIPE; the children get the default disposition back.
        signal(SIGPIPE, SIG_IGN)
    }

    /// `changed` events dropped or replaced so far.
    public var changedDropped: Int { backlog.changedDropped }
    /// Commands running or events waiting.
    public var hasWork: Bool { !running.isEmpty || !backlog.isEmpty }
    /// The caller should read no more events until `waitForRoom()` returns.
    public var isFull: Bool { backlog.isFull }

    /// Takes one event: runs its command now if a slot is free and its gesture
    /// has no command running, else queues it by the policy above.
    public func submit(eventLine: String, environment: [(String, String)], gesture: String, state: GestureState) {
        reap()
        if backlog.push((eventLine, environment), gesture: gesture, state: state) != .queued {
            if let line = dropWarnings.admit("gesturectl: \(backlog.changedDropped - warnedDropped) changed event(s) skipped while \(running.count) commands ran (--max-children \(maxChildren)); began, ended, cancelled and recognized are never skipped", now: Self.now()) {
                warnedDropped = backlog.changedDropped
                warn(line)
            }
        }
        startWaiting()
    }

    private static func now() -> EventTime {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return EventTime(microseconds: Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000)
    }

    /// Blocks until the backlog has room again (a command finished).
    public func waitForRoom() {
        while backlog.isFull && !running.isEmpty {
            var status: Int32 = 0
            let pid = waitpid(-1, &status, 0)
            if pid > 0 { finished(pid, status: status) } else if errno != EINTR { break }
            startWaiting()
        }
    }

    /// Blocks until every queued event has run and every command finished.
    public func drain() {
        while hasWork {
            startWaiting()
            guard !running.isEmpty else { break }
            var status: Int32 = 0
            let pid = waitpid(-1, &status, 0)
            if pid > 0 { finished(pid, status: status) } else if errno != EINTR { break }
        }
    }

    private func startWaiting() {
        while running.count < maxChildren,
              let e = backlog.next(busy: { g in running.values.contains(g) }) {
            if let pid = start(eventLine: e.item.line, environment: e.item.environment) {
                running[pid] = e.gesture
            }
        }
    }

    /// Starts the command for one event line; its pid, or nil if it could not start.
    private func start(eventLine: String, environment extra: [(String, String)]) -> pid_t? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            failedToStart += 1
            warn("gesturectl: pipe: \(String(cString: strerror(errno)))")
            return nil
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
        // Signals we ignore (SIGPIPE) would stay ignored in the command: `yes | head` would never end.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let r = withCStrings(argv) { cargv in
            withCStrings(env) { cenv in posix_spawn(&pid, "/bin/sh", &actions, &attributes, cargv, cenv) }
        }
        close(readEnd)
        guard r == 0 else {
            close(writeEnd)
            failedToStart += 1
            warn("gesturectl: cannot start /bin/sh: \(String(cString: strerror(r)))")
            return nil
        }
        _ = fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK)
        let bytes = Array((eventLine + "\n").utf8)
        // A child that exits without reading its stdin gives EPIPE: not our problem.
        _ = bytes.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
        close(writeEnd)
        return pid
    }

    /// Collects finished children, reports those that failed, starts what waits.
    public func reap() {
        while true {
            var status: Int32 = 0
            let pid = waitpid(-1, &status, WNOHANG)
            guard pid > 0 else { break }
            finished(pid, status: status)
        }
        startWaiting()
    }

    private func finished(_ pid: pid_t, status: Int32) {
        guard running.removeValue(forKey: pid) != nil else { return }
        let exited = status & 0x7f == 0
        let code = (status >> 8) & 0xff
        if !exited {
            warn("gesturectl: command killed by signal \(status & 0x7f): \(command)")
        } else if code != 0 {
            warn("gesturectl: command exited with status \(code): \(command)")
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
