import ArgumentParser
import FoundationEssentials
import GestureClient
import GestureConfig
import GestureDaemon

struct ActionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "actions",
        abstract: "Run your commands for gestures, as listed in your actions file.",
        discussion: """
            Reads PATH (default: $XDG_CONFIG_HOME/gestured/actions.toml, else \
            ~/.config/gestured/actions.toml): [[action]] tables, each with exec, a command run \
            through /bin/sh -c as you, and optional matches name, kind, state, direction, fingers \
            and edge (a string or a list; fingers an integer or a list). Every action whose \
            matches all accept an event runs, in file order. Without state an action runs for \
            recognized events and slider steps only, never for every changed event of a pan. \
            Commands get the event's GESTURE_* variables and its JSON line on stdin, as with \
            subscribe --exec, and run in a session of their own without being waited for; at \
            most max_running at once (the file's top-level max_running, or --max-running; \
            default 4): a command past that is not run, with a warning. The file is reloaded \
            when it is saved (a bad file is reported with file:line: key and the actions \
            loaded before stay); when gestured restarts, actions reconnects.
            """)

    @OptionGroup var socket: SocketOption

    @Option(
        name: .long, help: ArgumentHelp("The actions file.", valueName: "PATH"), completion: .file(extensions: ["toml"])
    )
    var file: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "At most this many commands running at once (wins over the file's max_running).", valueName: "N"))
    var maxRunning: Int?

    @Flag(
        name: .long, help: "Check the file and print what it would subscribe to, then exit: 0 if it is fine, 1 if not.")
    var check = false

    @Flag(name: .long, help: "Keep the normal scheduling policy instead of SCHED_BATCH (see subscribe).")
    var noBatch = false

    func validate() throws {
        if let n = maxRunning, !(1...ActionsFile.maxRunningLimit).contains(n) {
            throw ValidationError("--max-running takes 1 to \(ActionsFile.maxRunningLimit)")
        }
    }

    func run() throws {
        // The same code as gesture-run's, which gesturectl execs for a run without --check.
        let arguments = ActionsArguments(
            file: file, maxRunning: maxRunning, socket: socket.socket, check: check,
            batch: !noBatch)
        let status = arguments.run(environment: ProcessInfo.processInfo.environment)
        if status != 0 { throw ExitCode(status) }
    }
}
