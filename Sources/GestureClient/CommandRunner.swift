import GestureCore
import Glibc
import LinuxSystem

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
        self.command = command
        self.maxChildren = maxChildren
        self.warn = warn
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
            if let line = dropWarnings.admit(
                "gesturectl: \(backlog.changedDropped - warnedDropped) changed event(s) skipped while \(running.count) commands ran (--max-children \(maxChildren)); began, ended, cancelled and recognized are never skipped",
                now: Self.now())
            {
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
            waitForOne()
            startWaiting()
        }
    }

    /// Blocks until every queued event has run and every command finished.
    public func drain() {
        while hasWork {
            startWaiting()
            guard !running.isEmpty else { break }
            waitForOne()
        }
    }

    /// Waits until one of its own commands has finished. Only its own: waiting
    /// for any child would take another part's (an actions runner's, a
    /// Foundation `Process`). Linux has no wait for one of a set of pids, so it
    /// looks every 5 ms; this runs only while the backlog is full or at the end.
    private func waitForOne() {
        while !running.isEmpty {
            if collectFinished() > 0 { return }
            usleep(5_000)
        }
    }

    /// Collects those of its commands that have finished; how many.
    @discardableResult
    private func collectFinished() -> Int {
        var n = 0
        for pid in Array(running.keys) {
            var status: Int32 = 0
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid {
                finished(pid, status: status)
                n += 1
            } else if r < 0 && errno == ECHILD {
                running[pid] = nil  // reaped elsewhere: gone all the same
                n += 1
            }
        }
        return n
    }

    private func startWaiting() {
        while running.count < maxChildren,
            let e = backlog.next(busy: { g in running.values.contains(g) })
        {
            if let pid = start(eventLine: e.item.line, environment: e.item.environment) {
                running[pid] = e.gesture
            }
        }
    }

    /// Starts the command for one event line; its pid, or nil if it could not start.
    private func start(eventLine: String, environment: [(String, String)]) -> pid_t? {
        switch ShellCommand.spawn(command, input: eventLine, environment: environment, newSession: false) {
        case .success(let pid):
            return pid
        case .failure(let failure):
            failedToStart += 1
            warn("gesturectl: \(failure)")
            return nil
        }
    }

    /// Collects finished children, reports those that failed, starts what waits.
    public func reap() {
        collectFinished()
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
