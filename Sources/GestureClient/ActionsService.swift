import GestureConfig
import GestureCore
import GestureProtocol
import Glibc
import LinuxSystem

/// `gesturectl actions`: one subscription to gestured, the user's actions
/// file, and the commands it runs. One thread and one poll(2): the socket, the
/// file's directory (inotify, so a saved file is reloaded), and, while
/// commands run, a short timeout to reap them. It never waits for a command.
///
/// - The file: reloaded when a write of it is complete (closed after writing,
///   or moved into place, and nothing written while it was read); a bad one,
///   one someone else may write to, one that is not a regular file, or one
///   with no actions where there were some, is reported and the actions
///   loaded before stay.
/// - The daemon: when the connection is lost it reconnects, at once after a
///   connection that had been greeted, else after a backoff of 0.1 s doubling
///   to 5 s (as `gesturectl subscribe`). Gestures that had begun and not
///   ended then end with a `cancelled` of our own, reason "connection to
///   gestured lost", which actions with `state = "cancelled"` run for.
public final class ActionsService {
    public let path: String
    public let socketPath: String
    public private(set) var actions: ActionsFile
    public let runner: ActionRunner
    /// How many times the file was reloaded, and refused.
    public private(set) var reloads = 0
    public private(set) var refusedReloads = 0
    /// The subscription sent on the current connection (nil: none).
    public private(set) var subscription: String?

    /// A problem waiting cannot fix: the caller should stop.
    public struct Fatal: Error, CustomStringConvertible {
        public var description: String
    }

    private var loadedBytes: [UInt8]
    private let maxRunningOverride: Int?
    private let watcher: ConfigWatcher?
    private var connection: DaemonConnection?
    private var greeted = false
    private var helloDeadline = EventTime.zero
    private var retryAt = EventTime.zero
    private var backoffMS = 100.0
    private var everConnected = false
    private var saidWaiting = false
    private var open = OpenGestures()
    private let warn: (String) -> Void

    /// How long a connection may go without `hello`.
    static let helloTimeout = Millis(10_000)
    /// How often finished commands are collected while some run.
    static let reapIntervalMS: Int32 = 100

    /// `actions` and `bytes` are the file as first loaded (the caller reports
    /// what is wrong with it before starting). `maxRunning` from the command
    /// line wins over the file's.
    public init(
        path: String, actions: ActionsFile, bytes: [UInt8], socketPath: String, maxRunning: Int?,
        warn: @escaping (String) -> Void
    ) {
        self.path = path
        self.actions = actions
        self.loadedBytes = bytes
        self.socketPath = socketPath
        self.maxRunningOverride = maxRunning
        self.warn = warn
        runner = ActionRunner(maxRunning: maxRunning ?? actions.maxRunning ?? ActionsFile.defaultMaxRunning, warn: warn)
        do throws(Errno) {
            watcher = try ConfigWatcher(path: path)
        } catch {
            watcher = nil
            warn(
                "gesturectl: cannot watch the directory of \(path) for changes (inotify: \(error)); restart to apply changes"
            )
        }
    }

    /// Runs until something fatal happens.
    public func run() throws(Fatal) -> Never {
        while true { try step(timeoutMS: -1) }
    }

    /// Waits at most `timeoutMS` (-1: as long as nothing happens) for the
    /// socket, the file or a command, and handles what came.
    public func step(timeoutMS: Int32) throws(Fatal) {
        if connection == nil && monotonicNow() >= retryAt { try connect() }

        var timeout = timeoutMS
        func atMost(_ ms: Int32) { timeout = timeout < 0 ? ms : min(timeout, ms) }
        if runner.hasRunning { atMost(Self.reapIntervalMS) }
        if connection == nil { atMost(Self.milliseconds(until: retryAt)) }
        if connection != nil && !greeted { atMost(Self.milliseconds(until: helloDeadline)) }
        if connection?.hasBufferedLine == true { timeout = 0 }

        var fds: [pollfd] = []
        if let watcher { fds.append(pollfd(fd: watcher.fd.rawValue, events: Int16(POLLIN), revents: 0)) }
        if let connection { fds.append(pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0)) }
        // EINTR: handle whatever is ready, as below.
        let ready = poll(&fds, nfds_t(fds.count), timeout)

        if let watcher, ready > 0, fds[0].revents != 0, watcher.configChanged() { reload(completeVersionOnly: true) }
        runner.reap()
        try readLines()
        if connection != nil && !greeted && monotonicNow() >= helloDeadline {
            lost("\(socketPath): no hello from the daemon within \(Self.helloTimeout)", greeted: false)
        }
    }

    private static func milliseconds(until t: EventTime) -> Int32 {
        let ms = (t - monotonicNow()).value.rounded(.up)
        return ms <= 0 ? 0 : Int32(min(ms, 60_000))
    }

    // MARK: - The daemon

    private func connect() throws(Fatal) {
        do {
            connection = try DaemonConnection(path: socketPath)
        } catch {
            guard error.isTransient else { throw Fatal(description: "gesturectl: \(error)") }
            if !saidWaiting {
                warn("gesturectl: \(error); retrying")
                saidWaiting = true
            }
            backOff()
            return
        }
        greeted = false
        helloDeadline = monotonicNow() + Self.helloTimeout
    }

    private func backOff() {
        retryAt = monotonicNow() + Millis(backoffMS)
        backoffMS = min(backoffMS * 2, 5000)
    }

    /// Handles every whole line the connection has now.
    private func readLines() throws(Fatal) {
        while let c = connection {
            switch c.readLine(timeoutMS: 0) {
            case .timedOut:
                return
            case .closed:
                lost("gestured closed the connection", greeted: greeted)
            case .line(let line):
                try handle(line)
            }
        }
    }

    private func handle(_ line: String) throws(Fatal) {
        guard let v = try? JSONValue.parse(line) else {
            warn("gesturectl: not JSON from the daemon: \(sanitizedForLog(line))")
            return
        }
        switch v["type"]?.string {
        case "hello":
            guard v["protocol"] == .number(Double(socketProtocolVersion)) else {
                throw Fatal(
                    description:
                        "gesturectl: the daemon speaks protocol \(v["protocol"]?.json ?? "?"); this gesturectl speaks \(socketProtocolVersion)"
                )
            }
            if everConnected || saidWaiting { warn("gesturectl: connected to \(socketPath)") }
            greeted = true
            everConnected = true
            saidWaiting = false
            backoffMS = 100
            subscribe()
        case "event":
            open.note(v)
            deliver(line, v)
        case "error":
            let message = sanitizedForLog(v["message"]?.string ?? line)
            if v["final"] == .bool(true) {
                lost("gestured: \(message)", greeted: greeted)
            } else {
                warn("gesturectl: gestured says: \(message)")
            }
        case "subscribed":
            if case .array(let unknown)? = v["unknown_names"], !unknown.isEmpty {
                let names = unknown.compactMap(\.string).map { sanitizedForLog($0, maxCharacters: 64) }
                warn(
                    "gesturectl: \(path): no recognizer is named \(names.joined(separator: ", ")) (yet); see gesturectl status"
                )
            }
        default:
            break  // replies we do not ask for, and newer message types, as PROTOCOL.md asks
        }
    }

    /// Sends the subscription the actions need, if it is not the one in force.
    private func subscribe() {
        guard let c = connection, greeted else { return }
        let wanted = actions.subscribeRequest
        guard wanted != subscription else { return }
        // No actions: nothing to receive (an empty filter would mean everything).
        guard c.send(wanted ?? #"{"cmd":"unsubscribe"}"#) else { return }  // a failed send shows up as a closed connection
        subscription = wanted
    }

    private func lost(_ reason: String, greeted wasGreeted: Bool) {
        connection = nil
        greeted = false
        subscription = nil
        for line in open.cancelAll(reason: "connection to gestured lost") {
            if let v = try? JSONValue.parse(line) { deliver(line, v) }
        }
        warn("gesturectl: \(reason); reconnecting")
        saidWaiting = true
        // After a working connection, at once (the daemon restarting is the usual
        // case, and socket activation keeps the socket); else wait, so that a
        // daemon that keeps refusing is not asked in a busy loop.
        if wasGreeted { retryAt = .zero } else { backOff() }
    }

    private func deliver(_ line: String, _ v: JSONValue) {
        let matched = actions.actions(for: v)
        guard !matched.isEmpty else { return }
        let event = "\(sanitizedForLog(v["name"]?.string ?? "?", maxCharacters: 64)) \(v["state"]?.string ?? "?")"
        runner.run(
            matched.map { ActionRunner.Command(exec: $0.exec, label: "\(actions.file):\($0.line)") },
            eventLine: line, environment: EventEnvironment.variables(for: v), event: event)
    }

    // MARK: - The file

    /// Loads the file again if its bytes changed; a bad file is reported and
    /// the actions loaded before stay. `completeVersionOnly`: for a change the
    /// watcher saw, what was read counts only if nothing was written meanwhile.
    public func reload(completeVersionOnly: Bool = false) {
        let trust = FileTrust()
        let bytes: [UInt8]
        let outcome: Result<[UInt8], ConfigFile.ConfigFailure>
        if let problem = trust.problemWithDirectories(of: path) {
            outcome = .failure(ConfigFile.ConfigFailure(description: problem))
        } else {
            outcome = ConfigFile.read(
                path: path, limit: ConfigLoader.maxFileBytes, accept: { trust.problem(file: path, $0) })
        }
        // Written to while being read: the write's end brings the next reload.
        if completeVersionOnly, let watcher, !watcher.readWasUndisturbed() { return }
        switch outcome {
        case .success(let b): bytes = b
        case .failure(let f):
            refusedReloads += 1
            warn("gesturectl: \(f)")
            warn("gesturectl: \(path): not reloaded; the \(count(actions.actions.count)) loaded before stay")
            return
        }
        guard bytes != loadedBytes else { return }
        do {
            let new = try ActionsLoader.load(bytes: bytes, file: path)
            if new.actions.isEmpty && !actions.actions.isEmpty {
                // What a file emptied or cut short while being written looks like.
                refusedReloads += 1
                warn(
                    "gesturectl: \(path): no [[action]] tables; not reloaded, the \(count(actions.actions.count)) loaded before stay "
                        + "(a reload never takes them all away; to run none, stop gesturectl actions)")
                return
            }
            actions = new
            loadedBytes = bytes
            runner.maxRunning = maxRunningOverride ?? new.maxRunning ?? ActionsFile.defaultMaxRunning
            reloads += 1
            for w in new.warnings { warn("gesturectl: \(w)") }
            warn("gesturectl: \(path): reloaded, \(count(new.actions.count))")
            subscribe()
        } catch {
            refusedReloads += 1
            for line in error.description.split(separator: "\n") { warn(String(line)) }
            warn("gesturectl: \(path): not reloaded; the \(count(actions.actions.count)) loaded before stay")
        }
    }

    private func count(_ n: Int) -> String { n == 1 ? "1 action" : "\(n) actions" }
}
