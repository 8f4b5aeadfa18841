import GestureCore
import Glibc
import LinuxSystem

/// Runs actions' commands for `gesturectl actions` (and bindings' for
/// `gesturectl lisgd`): each through `/bin/sh -c`, by default in a session of
/// its own (as `setsid` starts it), with the event's
/// `GESTURE_*` variables and its JSON line on stdin, never waited for. At
/// most `maxRunning` run at once; a command that finds them all taken is
/// dropped with a warning (nothing waits: a gesture's command that ran late
/// would surprise more than one that did not run). Children are reaped with
/// WNOHANG by pid, so no other child of the process is touched, and none is
/// left a zombie longer than until the next `reap()`.
public final class ActionRunner {
    public var maxRunning: Int
    /// Running commands by pid: what they run for, for messages.
    public private(set) var running: [pid_t: String] = [:]
    /// Commands started, dropped (at `maxRunning`), and that could not start.
    public private(set) var started = 0
    public private(set) var dropped = 0
    public private(set) var failedToStart = 0
    private let warn: (String) -> Void
    private let newSession: Bool
    private let reportsExits: Bool
    private var dropWarnings = LogLimiter(burst: 3, window: Millis(5000))
    private var exitWarnings = LogLimiter(burst: 5, window: Millis(5000))

    /// `newSession`: each command leads a session of its own; else it stays in
    /// ours, as lisgd's `system()` runs it. `reportsExits`: a command that
    /// fails or is killed is said (rate-limited).
    public init(maxRunning: Int, newSession: Bool = true, reportsExits: Bool = true, warn: @escaping (String) -> Void) {
        self.maxRunning = maxRunning
        self.newSession = newSession
        self.reportsExits = reportsExits
        self.warn = warn
        // A command that exits without reading its stdin must not kill us
        // with SIGPIPE; the children get the default disposition back.
        signal(SIGPIPE, SIG_IGN)
    }

    public var hasRunning: Bool { !running.isEmpty }

    /// One command to run: the shell text and a label for messages (where the action is written).
    public struct Command: Sendable {
        public var exec: String
        public var label: String
        public init(exec: String, label: String) {
            self.exec = exec
            self.label = label
        }
    }

    /// Starts the commands for one event, in the order given, each while
    /// fewer than `maxRunning` run; returns the pids started (those dropped
    /// or failed are left out). Without an `eventLine` the commands read our stdin.
    @discardableResult
    public func run(_ commands: [Command], eventLine: String?, environment: [(String, String)], event: String)
        -> [pid_t]
    {
        reap()
        var pids: [pid_t] = []
        for c in commands {
            guard running.count < maxRunning else {
                dropped += 1
                let line =
                    "gesturectl: \(event): not running \(c.label): \(running.count) commands still running (max_running = \(maxRunning))"
                if let l = dropWarnings.admit(line, now: monotonicNow()) { warn(l) }
                continue
            }
            switch ShellCommand.spawn(c.exec, input: eventLine, environment: environment, newSession: newSession) {
            case .success(let pid):
                running[pid] = c.label
                started += 1
                pids.append(pid)
            case .failure(let failure):
                failedToStart += 1
                warn("gesturectl: \(c.label): \(failure)")
            }
        }
        return pids
    }

    /// Collects every running command that has finished; reports those that failed.
    public func reap() {
        for pid in Array(running.keys) {
            var status: Int32 = 0
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid {
                finished(pid, status: status)
            } else if r < 0 && errno == ECHILD {
                // Reaped by someone else: it is gone all the same.
                running[pid] = nil
            }
        }
    }

    private func finished(_ pid: pid_t, status: Int32) {
        guard let label = running.removeValue(forKey: pid), reportsExits else { return }
        let signal = status & 0x7f
        let code = (status >> 8) & 0xff
        let line: String
        if signal != 0 {
            line = "gesturectl: \(label): command killed by signal \(signal)"
        } else if code != 0 {
            line = "gesturectl: \(label): command exited with status \(code)"
        } else {
            return
        }
        if let l = exitWarnings.admit(line, now: monotonicNow()) { warn(l) }
    }
}
