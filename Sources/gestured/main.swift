import ArgumentParser
import GestureCore
import GestureDaemon
import Foundation
import Glibc
import LinuxInput
import LinuxSystem

struct Gestured: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gestured",
        abstract: "Turn touchscreen multitouch into named gestures.",
        discussion: "Finds touchscreens through udev (also ones plugged in later) and reads them through libevdev without grabbing them. SIGHUP reloads the config; SIGTERM cancels gestures in flight and exits.")

    @Flag(name: .long, help: "Print each gesture event as one JSON line on stdout.")
    var stdout = false

    @Option(name: .long, help: ArgumentHelp("Config file (default: $GESTURED_CONFIG, then /etc/gestured/gestured.toml, then the built-in one).", valueName: "FILE"))
    var config: String?

    @Flag(name: .long, help: "Also print failed transitions, with their reasons.")
    var failures = false

    @Flag(name: .shortAndLong, help: "Log every skipped input node and other details to stderr.")
    var verbose = false

    @Option(name: .long, help: ArgumentHelp("Where subscribers connect, unless systemd passes the socket.", valueName: "PATH"))
    var socket: String = ListeningSocket.defaultPath

    @Flag(name: .long, help: "Do not open the subscribers' socket (with --stdout).")
    var noSocket = false

    @Flag(name: .long, help: "Print the version and exit.")
    var version = false

    func validate() throws {
        if noSocket && !stdout {
            throw ValidationError("nothing to publish to: --no-socket needs --stdout")
        }
    }

    func run() throws {
        if version { print("gestured \(daemonVersion) (socket protocol \(socketProtocolVersion))"); return }
        let log = Logger(program: "gestured", verbose: verbose)
        let path = ConfigFile.resolve(explicit: config)
        let configuration: Configuration
        switch ConfigFile.load(path: path) {
        case .success(let c): configuration = c
        case .failure(let e):
            for line in e.description.split(separator: "\n") { log.error(.config, String(line)) }
            throw ExitCode(1)
        }
        // A reader that went away shows up as EPIPE from write, not as a signal.
        signal(SIGPIPE, SIG_IGN)
        let environment = ProcessInfo.processInfo.environment
        var listener: ListeningSocket?
        if !noSocket {
            do {
                listener = try ListeningSocket.fromSystemd(environment: environment) ?? ListeningSocket.bind(path: socket)
            } catch {
                log.error(.system, "socket: \(error)")
                throw ExitCode(1)
            }
        }
        let service: GesturedService
        do {
            let printing = stdout
            let daemon = try InputDaemon(configuration: configuration, configPath: path, log: log) { e throws(Errno) in
                if printing { try FileDescriptor.standardOutput.writeAll(e.json + "\n") }
            }
            daemon.includeFailures = failures
            service = GesturedService(daemon: daemon, listener: listener,
                                      notifier: SystemdNotifier(environment: environment, log: log), log: log)
            try service.start()
        } catch {
            listener?.close()
            log.error(.system, "cannot start: \(error)")
            throw ExitCode(1)
        }
        log.info("running with \(configuration.source): \(configuration.recognizers.count) recognizers")
        do {
            let status = try service.run()
            if status != 0 { throw ExitCode(status) }
        } catch let e as Errno {
            log.error(.ours, "event loop failed: \(e)")
            throw ExitCode(1)
        }
    }
}

Gestured.main()
