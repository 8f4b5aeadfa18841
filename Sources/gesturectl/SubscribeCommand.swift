import ArgumentParser
import FoundationEssentials
import GestureClient
import GestureCore
import GestureDaemon
import GestureProtocol
import Glibc
import LinuxSystem

/// `--socket PATH`, shared by the commands that talk to the daemon.
struct SocketOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "gestured's socket (default: $GESTURED_SOCKET, then \(DaemonSocket.defaultPath)).", valueName: "PATH"))
    var socket: String?

    var path: String {
        socket ?? ProcessInfo.processInfo.environment["GESTURED_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
            ?? DaemonSocket.defaultPath
    }
}

func warn(_ text: String) {
    writeStandardError(text + "\n")
}

struct SubscribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscribe",
        abstract: "Print gesture events from gestured as JSON lines, or run a command for each.",
        discussion: """
            Filters are ORed within an option and ANDed across options. With --exec, CMD runs \
            through /bin/sh -c as you, once per event, with the event's JSON line on its stdin and \
            its fields in GESTURE_* variables (GESTURE_NAME, GESTURE_KIND, GESTURE_STATE, GESTURE_TIME, \
            GESTURE_DEVICE, GESTURE_FINGERS, GESTURE_X_MM, GESTURE_Y_MM, GESTURE_X, GESTURE_Y, and the \
            kind's fields such as GESTURE_TAPS, GESTURE_DIRECTION, GESTURE_RADIUS_MM, GESTURE_REASON). \
            While --max-children commands run, events wait: began, ended, cancelled, recognized and \
            failed are never dropped, and one gesture's commands run one after another, in order; \
            only changed events give way (a waiting one is replaced by the gesture's next, and when \
            --backlog events wait, new ones are skipped with a warning). \
            When gestured restarts, subscribe reconnects; a gesture that had begun and not ended \
            when the connection was lost is ended with a cancelled event, reason \
            "connection to gestured lost" (events during the gap are lost).
            """)

    @OptionGroup var socket: SocketOption

    @Option(name: .long, help: ArgumentHelp("Only this recognizer (by configured name); repeatable.", valueName: "N"))
    var name: [String] = []
    @Option(
        name: .long, help: ArgumentHelp("Only this kind (tap, circle, …); repeatable.", valueName: "K"),
        completion: .list(GestureKind.allCases.map(\.rawValue)))
    var kind: [String] = []
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Only this state (began, changed, ended, recognized, cancelled, failed); repeatable.", valueName: "S"),
        completion: .list(["began", "changed", "ended", "recognized", "cancelled", "failed"]))
    var state: [String] = []
    @Option(name: .long, help: ArgumentHelp("Only this device (its name); repeatable.", valueName: "D"))
    var device: [String] = []
    @Flag(name: .long, help: "Also receive failed transitions, with their reasons.")
    var failures = false
    @Option(
        name: .long,
        help: ArgumentHelp("Run CMD (via /bin/sh -c) for each event instead of printing it.", valueName: "CMD"))
    var exec: String?
    @Option(name: .long, help: "At most this many commands running at once.")
    var maxChildren = 4
    @Option(name: .long, help: "With --exec: at most this many events waiting for a command slot.")
    var backlog = 256
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Ask gestured for the latest changed only (latest) or at most N per second per gesture.",
            valueName: "latest|N"))
    var changed: String?

    func validate() throws {
        for k in kind where GestureKind(rawValue: k) == nil {
            throw ValidationError(
                "unknown kind '\(k)'; kinds are \(GestureKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        for s in state where GestureState(rawValue: s) == nil || s == "possible" {
            throw ValidationError(
                "unknown state '\(s)'; states are began, changed, ended, recognized, cancelled, failed")
        }
        if maxChildren < 1 { throw ValidationError("--max-children must be at least 1") }
        if backlog < 1 { throw ValidationError("--backlog must be at least 1") }
        if let changed, changed != "latest", changed != "all", !(Int(changed).map { (1...1000).contains($0) } ?? false)
        {
            throw ValidationError("--changed takes latest, all, or a number of events per second from 1 to 1000")
        }
    }

    var request: String {
        func list(_ xs: [String]) -> String {
            var out = "["
            for (i, x) in xs.enumerated() {
                if i > 0 { out += "," }
                JSONWriter.appendQuoted(x, to: &out)
            }
            return out + "]"
        }
        var w = JSONWriter()
        w.field("cmd", string: "subscribe")
        if !name.isEmpty { w.field("name", raw: list(name)) }
        if !kind.isEmpty { w.field("kind", raw: list(kind)) }
        if !state.isEmpty { w.field("state", raw: list(state)) }
        if !device.isEmpty { w.field("device", raw: list(device)) }
        if failures { w.field("failures", raw: "true") }
        if let changed { w.field("changed", raw: Int(changed).map(String.init) ?? "\"\(changed)\"") }
        return w.finish()
    }

    @Flag(name: .long, help: "Keep the normal scheduling policy instead of SCHED_BATCH (see the man page).")
    var noBatch = false

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        // Woken by the daemon's writes without preempting it (its writes to every
        // subscriber go out in one go); commands started with --exec run normally.
        if !noBatch { SubscriberScheduling.batch() }
        let runner = exec.map { CommandRunner(command: $0, maxChildren: maxChildren, backlog: backlog, warn: warn) }
        let path = socket.path
        var backoffMS: Int32 = 100
        var everConnected = false
        var saidWaiting = false
        while true {
            let connection: DaemonConnection
            do {
                connection = try DaemonConnection(path: path)
            } catch {
                guard error.isTransient else { throw CleanExit.message("gesturectl: \(error)", code: 1) }
                if !saidWaiting {
                    warn("gesturectl: \(error); retrying")
                    saidWaiting = true
                }
                wait(ms: backoffMS, runner: runner)
                backoffMS = min(backoffMS * 2, 5000)
                continue
            }
            guard case .line(let helloLine) = connection.readLine(timeoutMS: 5000),
                let hello = try? JSONValue.parse(helloLine), hello["type"] == .string("hello")
            else {
                warn("gesturectl: \(path): no hello from the daemon; retrying")
                wait(ms: backoffMS, runner: runner)
                backoffMS = min(backoffMS * 2, 5000)
                continue
            }
            guard hello["protocol"] == .number(Double(socketProtocolVersion)) else {
                throw CleanExit.message(
                    "gesturectl: the daemon speaks protocol \(hello["protocol"]?.json ?? "?"); this gesturectl speaks \(socketProtocolVersion)",
                    code: 1)
            }
            if everConnected || saidWaiting { warn("gesturectl: connected to \(path)") }
            everConnected = true
            saidWaiting = false
            backoffMS = 100
            guard connection.send(request) else { continue }
            let reason = stream(connection, runner: runner)
            warn("gesturectl: \(reason); reconnecting")
            saidWaiting = true
        }
    }

    /// Reads events until the connection ends; returns why it ended. Gestures
    /// still open then are ended with a `cancelled` of our own.
    func stream(_ c: DaemonConnection, runner: CommandRunner?) -> String {
        var open = OpenGestures()
        let reason = readEvents(c, runner: runner, open: &open)
        for line in open.cancelAll(reason: "connection to gestured lost") {
            if let v = try? JSONValue.parse(line) { deliver(line, v, runner: runner) }
        }
        StandardOutputLines.shared.flush()
        return reason
    }

    private func readEvents(_ c: DaemonConnection, runner: CommandRunner?, open: inout OpenGestures) -> String {
        while true {
            // A full backlog: read nothing until a command finishes (the
            // daemon's queue holds the rest, and says so if it overflows).
            runner?.waitForRoom()
            // What was printed leaves before waiting: one write per wake-up, not per line.
            if !c.hasBufferedLine { StandardOutputLines.shared.flush() }
            // With children running, wake up to reap them even if no event comes.
            switch c.readLine(timeoutMS: (runner?.hasWork ?? false) ? 100 : -1) {
            case .timedOut:
                runner?.reap()
            case .closed:
                return "gestured closed the connection"
            case .line(let line):
                guard let v = try? JSONValue.parse(line) else {
                    warn("gesturectl: not JSON from the daemon: \(line)")
                    continue
                }
                switch v["type"]?.string {
                case "event":
                    open.note(v)
                    deliver(line, v, runner: runner)
                case "error":
                    let message = v["message"]?.string ?? line
                    if v["final"] == .bool(true) { return "gestured: \(message)" }
                    warn("gesturectl: gestured says: \(message)")
                case "subscribed":
                    if case .array(let unknown)? = v["unknown_names"], !unknown.isEmpty {
                        let names = unknown.compactMap(\.string).map { sanitizedForLog($0, maxCharacters: 64) }
                        warn(
                            "gesturectl: no recognizer is named \(names.joined(separator: ", ")) (yet); see gesturectl status"
                        )
                    }
                default:
                    break  // newer message types are ignored, as PROTOCOL.md asks
                }
            }
        }
    }

    private func deliver(_ line: String, _ v: JSONValue, runner: CommandRunner?) {
        if let runner {
            let gesture = GestureBacklog<Void>.key(name: v["name"]?.string ?? "", device: v["device"]?.string ?? "")
            let state = v["state"]?.string.flatMap(GestureState.init(rawValue:)) ?? .recognized
            runner.submit(
                eventLine: line, environment: EventEnvironment.variables(for: v), gesture: gesture, state: state)
        } else {
            StandardOutputLines.shared.add(line)
        }
    }

    func wait(ms: Int32, runner: CommandRunner?) {
        usleep(UInt32(ms) * 1000)
        runner?.reap()
    }
}

/// Lines for standard output, written together once nothing more is at hand
/// (the caller flushes before it waits). A closed reader (`| head`) ends
/// gesturectl quietly; another write error ends it with the reason.
final class StandardOutputLines: @unchecked Sendable {
    static let shared = StandardOutputLines()
    private var bytes: [UInt8] = []

    func add(_ line: String) {
        bytes.append(contentsOf: line.utf8)
        bytes.append(0x0A)
    }

    func flush() {
        var offset = 0
        defer { bytes.removeAll(keepingCapacity: true) }
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { b in
                Result { () throws(Errno) in
                    try LinuxSystem.FileDescriptor.standardOutput.write(UnsafeRawBufferPointer(rebasing: b[offset...]))
                }
            }
            switch written {
            case .success(let n): offset += n
            case .failure(.wouldBlock):
                var p = pollfd(fd: STDOUT_FILENO, events: Int16(POLLOUT), revents: 0)
                _ = poll(&p, 1, -1)
            case .failure(.brokenPipe): exit(0)
            case .failure(let e):
                warn("gesturectl: cannot write to standard output: \(e)")
                exit(1)
            }
        }
    }
}
