import Foundation
import GestureCore
import GestureProtocol
import Glibc
import LinuxSystem
import Testing

@testable import GestureClient

/// Collects warnings from a runner (the runner and the test share one thread).
final class Warnings: @unchecked Sendable {
    var lines: [String] = []
    func add(_ line: String) { lines.append(line) }
}

/// A fresh directory for one test's files, removed with everything in it
/// when the test (the suite instance holding it) is done.
final class Scratch: Sendable {
    let path: String

    init(_ name: String) {
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent("gestured-\(name)-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        chmod(path, 0o755)  // whatever the umask: `gesturectl actions` refuses a directory others can write to
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

func readText(_ path: String) -> String? {
    guard let f = fopen(path, "r") else { return nil }
    defer { fclose(f) }
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = fread(&buffer, 1, buffer.count, f)
        if n <= 0 { break }
        out += buffer[0..<n]
    }
    return String(decoding: out, as: UTF8.self)
}

/// Polls `condition` every 10 ms for at most `seconds`; whether it came true.
/// The bound is generous: on a loaded machine a shell can take seconds to start.
func eventually(_ seconds: Double = 60, _ condition: () -> Bool) -> Bool {
    let end = monotonicNow() + Millis(seconds * 1000)
    while monotonicNow() < end {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}

/// A process's state letter from /proc/PID/stat (R, S, Z…), nil when there is no such process.
func processState(_ pid: pid_t) -> Character? {
    guard let stat = readText("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return nil }
    return stat[stat.index(after: close)...].first { $0 != " " }
}

extension ChildProcesses {
    /// Commands run for real through /bin/sh: the limit, the session, the reaping.
    @Suite struct ActionRunnerTests {
        let scratch = Scratch("runner")
        let event =
            #"{"type":"event","name":"swipe","kind":"swipe","state":"recognized","time":1.5,"device":"TS","fingers":1,"location_mm":[1,2],"location":[0.1,0.2],"direction":"left","edge":"left"}"#

        func environment() throws -> [(String, String)] {
            EventEnvironment.variables(for: try JSONValue.parse(event))
        }

        /// Kills what a test left running (each command leads its own process group) and reaps it.
        func stopAll(_ runner: ActionRunner) {
            for pid in runner.running.keys { kill(-pid, SIGKILL) }
            _ = eventually {
                runner.reap()
                return !runner.hasRunning
            }
        }

        /// Our environment as it is, the event's variables instead of ours of the same name.
        @Test func commandsGetOurEnvironmentWithTheEventsVariablesInsteadOfOursOfTheSameName() throws {
            let out = "\(scratch.path)/env"
            let runner = ActionRunner(maxRunning: 4, warn: Warnings().add)
            runner.run(
                [.init(exec: "env > \(out).tmp; mv \(out).tmp \(out)", label: "a")], eventLine: nil,
                environment: [("HOME", "/from-the-event"), ("GESTURE_NAME", "swipe")], event: "e")
            #expect(eventually { readText(out) != nil })
            let lines = (readText(out) ?? "").split(separator: "\n").map(String.init)
            #expect(lines.filter { $0.hasPrefix("HOME=") } == ["HOME=/from-the-event"])
            #expect(lines.filter { $0.hasPrefix("GESTURE_NAME=") } == ["GESTURE_NAME=swipe"])
            if let path = getenv("PATH") { #expect(lines.contains("PATH=" + String(cString: path))) }
            #expect(
                eventually {
                    runner.reap()
                    return !runner.hasRunning
                })
        }

        /// With no variable to replace (`gesturectl lisgd`'s bindings), our
        /// environment is handed over as it is: every variable, `=` in values included.
        @Test func withNoVariablesToReplaceCommandsGetOurEnvironmentAsItIs() throws {
            let out = "\(scratch.path)/env"
            let runner = ActionRunner(maxRunning: 4, newSession: false, warn: Warnings().add)
            runner.run(
                [.init(exec: "env > \(out).tmp; mv \(out).tmp \(out)", label: "a")], eventLine: nil,
                environment: [], event: "e")
            #expect(eventually { readText(out) != nil })
            let lines = (readText(out) ?? "").split(separator: "\n").map(String.init)
            // Ours, but for what the shell itself sets and what `env` cannot print one a line.
            var ours: [String] = []
            var p = environ
            while let entry = p.pointee {
                p += 1
                let e = String(cString: entry)
                let name = e.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                if ["PWD", "OLDPWD", "SHLVL", "_"].contains(name) || e.contains("\n") { continue }
                ours.append(e)
            }
            #expect(!ours.isEmpty)
            let missing = ours.filter { !lines.contains($0) }
            #expect(missing.isEmpty, "not passed as they are: \(missing)")
            #expect(
                eventually {
                    runner.reap()
                    return !runner.hasRunning
                })
        }

        @Test func commandsGetTheEventOnStdinAndInVariables() throws {
            let dir = scratch.path
            let warnings = Warnings()
            let runner = ActionRunner(maxRunning: 4, warn: warnings.add)
            let out = "\(dir)/out"
            runner.run(
                [
                    .init(
                        exec:
                            "cat > \(out).tmp; echo \"$GESTURE_NAME $GESTURE_DIRECTION $GESTURE_EDGE $GESTURE_FINGERS\" >> \(out).tmp; mv \(out).tmp \(out)",
                        label: "a")
                ],
                eventLine: event, environment: try environment(), event: "swipe recognized")
            #expect(eventually { readText(out) != nil })
            #expect(readText(out) == event + "\nswipe left left 1\n")
            #expect(
                eventually {
                    runner.reap()
                    return !runner.hasRunning
                })
            #expect(warnings.lines.isEmpty)
        }

        @Test func pastMaxRunningCommandsAreDroppedWithAWarning() throws {
            let warnings = Warnings()
            let runner = ActionRunner(maxRunning: 2, warn: warnings.add)
            defer { stopAll(runner) }
            let slow = ActionRunner.Command(exec: "sleep 30", label: "actions.toml:1")
            let started = runner.run(
                [slow, slow, .init(exec: "sleep 30", label: "actions.toml:9")],
                eventLine: event, environment: try environment(), event: "swipe recognized")
            #expect(started.count == 2)
            #expect(runner.running.count == 2)
            #expect(runner.dropped == 1)
            #expect(
                warnings.lines == [
                    "gesturectl: swipe recognized: not running actions.toml:9: 2 commands still running (max_running = 2)"
                ])
            // The next event's commands are dropped too while both run…
            #expect(
                try runner.run([slow], eventLine: event, environment: environment(), event: "swipe recognized").isEmpty)
            #expect(runner.dropped == 2)
            // …and run again once one has ended.
            kill(-started[0], SIGKILL)
            #expect(
                eventually {
                    runner.reap()
                    return runner.running.count == 1
                })
            #expect(
                try runner.run([slow], eventLine: event, environment: environment(), event: "swipe recognized").count
                    == 1)
            #expect(runner.started == 3)
        }

        @Test func aSlowCommandDoesNotHoldUpTheCaller() throws {
            let runner = ActionRunner(maxRunning: 4, warn: { _ in })
            defer { stopAll(runner) }
            let before = monotonicNow()
            // Reads nothing from stdin and runs for 60 s; its output pipe is ours.
            // Starting both takes far less than one of them runs, however busy the machine.
            runner.run(
                [.init(exec: "sleep 60", label: "a")], eventLine: event, environment: try environment(), event: "e")
            runner.run(
                [.init(exec: "sleep 60", label: "b")], eventLine: event, environment: try environment(), event: "e")
            let took = monotonicNow() - before
            #expect(took < Millis(30_000), "starting two slow commands took \(took)")
            #expect(runner.running.count == 2)
        }

        @Test func aCommandStartsWithSIGPIPEAtItsDefault() throws {
            // This process ignores SIGPIPE (the runner sets that up); a shell
            // started with it ignored could not undo that, and `yes | head` would never end.
            let runner = ActionRunner(maxRunning: 4, warn: { _ in })
            let out = "\(scratch.path)/signals"
            runner.run(
                [.init(exec: "grep -E '^SigIgn' /proc/self/status > \(out).tmp; mv \(out).tmp \(out)", label: "a")],
                eventLine: event, environment: try environment(), event: "e")
            #expect(eventually { readText(out) != nil })
            let mask = readText(out)?.split(separator: "\t").last.flatMap { UInt64($0.filter(\.isHexDigit), radix: 16) }
            // SIGPIPE is signal 13: bit 12.
            #expect(
                mask.map { $0 & (1 << 12) == 0 } == true,
                "SigIgn \(String(describing: mask.map { String($0, radix: 16) }))")
            #expect(
                eventually {
                    runner.reap()
                    return !runner.hasRunning
                })
        }

        @Test func eachCommandLeadsASessionOfItsOwn() throws {
            let runner = ActionRunner(maxRunning: 4, warn: { _ in })
            defer { stopAll(runner) }
            let pid = try #require(
                runner.run(
                    [.init(exec: "sleep 30", label: "a")], eventLine: event,
                    environment: try environment(), event: "e"
                ).first)
            // As `setsid` starts it: its own session and process group, not ours.
            #expect(getsid(pid) == pid)
            #expect(getpgid(pid) == pid)
            #expect(getsid(pid) != getsid(0))
        }

        @Test func aFinishedCommandIsReapedNotLeftAZombie() throws {
            let warnings = Warnings()
            let runner = ActionRunner(maxRunning: 4, warn: warnings.add)
            let pid = try #require(
                runner.run(
                    [.init(exec: "exit 3", label: "actions.toml:5")], eventLine: event,
                    environment: try environment(), event: "e"
                ).first)
            // Until reaped, the finished command is a zombie: the state this guards against.
            #expect(eventually { processState(pid) == "Z" }, "state \(String(describing: processState(pid)))")
            runner.reap()
            #expect(processState(pid) == nil, "still there after reap: \(String(describing: processState(pid)))")
            #expect(!runner.hasRunning)
            #expect(warnings.lines == ["gesturectl: actions.toml:5: command exited with status 3"])
            // A command that leaves something running in the background does not
            // hold a slot: the shell ends, the background job is no child of ours.
            let dir = scratch.path
            let bg = try #require(
                runner.run(
                    [.init(exec: "sleep 30 & echo $! > \(dir)/pid", label: "b")], eventLine: event,
                    environment: try environment(), event: "e"
                ).first)
            #expect(
                eventually {
                    runner.reap()
                    return !runner.hasRunning
                })
            #expect(processState(bg) == nil)
            if let text = readText("\(dir)/pid"), let job = pid_t(text.filter(\.isNumber)) { kill(job, SIGKILL) }
        }
    }
}
