import GestureConfig
import GestureCore
import GestureDaemon
import GestureProtocol
import Glibc
import LinuxSystem

/// Exits with this status (after the log line that says why).
struct ExitCode: Error {
    var status: Int32
    init(_ status: Int32) { self.status = status }
}

struct Gestured {
    let stdout: Bool
    let config: String?
    let failures: Bool
    let verbose: Bool
    let trace: [String]
    let socket: String
    let noSocket: Bool
    let controlGroup: String?
    let version: Bool

    init(_ a: Arguments) {
        stdout = a.stdout
        config = a.config
        failures = a.failures
        verbose = a.verbose
        trace = a.trace
        socket = a.socket
        noSocket = a.noSocket
        controlGroup = a.controlGroup
        version = a.version
    }

    func run() throws {
        if version {
            print("gestured \(daemonVersion) (socket protocol \(socketProtocolVersion))")
            return
        }
        let log = Logger(program: "gestured", verbose: verbose)
        let path = ConfigFile.resolve(explicit: config)
        // With no file at all the built-in config runs, and the system file is
        // what a reload (or its appearing: its directory is watched) reads.
        let reloadPath = path ?? ConfigLoader.systemPath
        let environment = processEnvironment()
        let configuration: Configuration
        var refusedAtStart: String?
        switch ConfigFile.load(path: path, trust: ConfigFile.daemonTrust()) {
        case .success(let c):
            configuration = c
            for w in c.warnings { log.warning(.config, w) }
        case .failure(let e):
            for line in e.description.split(separator: "\n") { log.error(.config, String(line)) }
            // As a service, a typo must not take the socket down with it (systemd
            // gives up restarting, and the socket unit fails): run recognizing
            // nothing, and load the file when it is fixed. From a shell, stop.
            guard environment["NOTIFY_SOCKET"] != nil, let path else { throw ExitCode(1) }
            log.error(
                .config,
                "\(path) refused: recognizing nothing until it is fixed (it is watched; or systemctl reload gestured)")
            configuration = Configuration(recognizers: [], source: path)
            refusedAtStart = String(e.description.split(separator: "\n").first ?? "")
        }
        let known = Set(configuration.recognizers.map(\.name))
        for name in trace where name != "all" && !known.contains(name) {
            log.warning(
                .config,
                "--trace \(name): no recognizer of that name in \(configuration.source); it is traced if a reload adds one"
            )
        }
        let group: ControlRights.Group?
        do { group = try ControlGroupChoice.resolve(explicit: controlGroup) } catch {
            log.error(.config, "\(error)")
            throw ExitCode(1)
        }
        // A reader that went away shows up as EPIPE from write, not as a signal.
        signal(SIGPIPE, SIG_IGN)
        var listener: ListeningSocket?
        if !noSocket {
            do {
                listener =
                    try ListeningSocket.fromSystemd(environment: environment) ?? ListeningSocket.bind(path: socket)
            } catch {
                log.error(.system, "socket: \(error)")
                throw ExitCode(1)
            }
        }
        let daemon: DaemonLoop
        do {
            daemon = try DaemonLoop(
                configuration: configuration,
                options: DaemonCore.Options(
                    configPath: reloadPath, printEvents: stdout, printFailures: failures,
                    refusedAtStart: refusedAtStart),
                listener: listener, notifier: SystemdNotifier(environment: environment, log: log),
                log: log,
                arenaLog: ArenaLog(tracing: Set(trace)) { entry in
                    switch entry.kind {
                    case .trace: log.info("trace: \(entry)")
                    case .bug: log.error(.ours, "\(entry)")
                    }
                })
            if let server = daemon.server {
                server.rights = ControlRights(daemonUID: geteuid(), controlGroup: group)
                server.activeSessionUser = { activeSessionUser(seat: $0) }
                log.info(
                    "socket: rotate, profile, pause and resume: \(server.rights.whoMay(seats: [])); any client may subscribe"
                )
            }
            try daemon.start()
        } catch {
            listener?.close()
            log.error(.system, "cannot start: \(error)")
            throw ExitCode(1)
        }
        log.info("running with \(configuration.source): \(configuration.recognizers.count) recognizers")
        if path == nil {
            log.info("no config file: \(reloadPath) is loaded when it appears (or on systemctl reload gestured)")
        }
        do {
            let status = try daemon.run()
            if status != 0 { throw ExitCode(status) }
        } catch let e as Errno {
            log.error(.ours, "event loop failed: \(e)")
            throw ExitCode(1)
        }
    }
}

do {
    try Gestured(Arguments.parse(Array(CommandLine.arguments.dropFirst()))).run()
} catch let e as Arguments.Exit {
    try? (e.status == 0 ? FileDescriptor.standardOutput : .standardError).writeAll(e.text)
    exit(e.status)
} catch let e as ExitCode {
    exit(e.status)
} catch {
    try? FileDescriptor.standardError.writeAll("gestured: \(error)\n")
    exit(1)
}
