import ArgumentParser
import GestureCore
import GestureDaemon
import Glibc
import LinuxInput

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

    func validate() throws {
        guard stdout else {
            throw ValidationError("nothing to publish to: the socket is not available in this build; run with --stdout")
        }
    }

    func run() throws {
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
        let daemon: InputDaemon
        do {
            daemon = try InputDaemon(configuration: configuration, configPath: path, log: log) { e throws(Errno) in
                try FileDescriptor.standardOutput.writeAll(e.json + "\n")
            }
            daemon.includeFailures = failures
            try daemon.start()
        } catch {
            log.error(.system, "cannot start: \(error)")
            throw ExitCode(1)
        }
        log.info("running with \(configuration.source): \(configuration.recognizers.count) recognizers")
        do {
            let status = try daemon.run()
            if status != 0 { throw ExitCode(status) }
        } catch let e as Errno {
            log.error(.ours, "event loop failed: \(e)")
            throw ExitCode(1)
        }
    }
}

Gestured.main()
