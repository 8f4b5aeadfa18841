import GestureDaemon
import Glibc

/// gestured's command line. Parsed by hand: the daemon has a few options, and
/// argument-parser would bring FoundationEssentials into it (about 3.8 MB of
/// resident memory and 16 MB of binary with a static runtime).
struct Arguments {
    var stdout = false
    var config: String?
    var failures = false
    var verbose = false
    /// Recognizer names to trace live (`all`: every one).
    var trace: [String] = []
    var socket = ListeningSocket.defaultPath
    var noSocket = false
    /// The group whose members may rotate, switch profiles, pause and resume.
    var controlGroup: String?
    var version = false
    var help = false

    /// What to do instead of running: print text and exit with a status.
    struct Exit: Error {
        var text: String
        var status: Int32
    }

    static let usage =
        "gestured [--stdout] [--config <FILE>] [--failures] [--verbose] [--trace <NAME> ...] [--socket <PATH>] [--no-socket] [--control-group <GROUP>] [--version]"

    static let helpText = """
        OVERVIEW: Turn touchscreen multitouch into named gestures.

        Finds touchscreens through udev (also ones plugged in later) and reads them
        through libevdev without grabbing them. SIGHUP reloads the config; SIGTERM
        cancels gestures in flight and exits.

        USAGE: \(usage)

        OPTIONS:
          --stdout                Print each gesture event as one JSON line on stdout.
          --config <FILE>         Config file (default: $GESTURED_CONFIG, then
                                  /etc/gestured/gestured.toml, then the built-in one).
          --failures              Also print failed transitions, with their reasons.
          -v, --verbose           Log every skipped input node and other details to
                                  stderr.
          --trace <NAME>          Trace the recognizer NAME on stderr, live: every
                                  transition as `name: old → event → new (reason)`.
                                  Repeat for more; `all` traces every one.
          --socket <PATH>         Where subscribers connect, unless systemd passes the
                                  socket. (default: \(ListeningSocket.defaultPath))
          --no-socket             Do not open the subscribers' socket (with --stdout).
          --control-group <GROUP>
                                  Members of GROUP may rotate, switch the profile,
                                  pause and resume, as root, the daemon's own user and
                                  the user of the seat's active session may; other
                                  clients only subscribe and ask for status.
                                  (default: gestured-control, if that group exists)
          --version               Print the version and exit.
          -h, --help              Show help information.

        """

    /// Parses the arguments after the program name. Usage errors exit 64
    /// (EX_USAGE), as before.
    static func parse(_ args: [String]) throws(Exit) -> Arguments {
        func usageError(_ message: String) -> Exit {
            Exit(
                text: "Error: \(message)\nUsage: \(usage)\n  See 'gestured --help' for more information.\n", status: 64)
        }
        var a = Arguments()
        var rest = args[...]
        while let arg = rest.popFirst() {
            var name = arg
            var inline: String?
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                inline = String(arg[arg.index(after: eq)...])
            }
            func value() throws(Exit) -> String {
                if let inline { return inline }
                guard let v = rest.popFirst(), !v.hasPrefix("-") || v == "-" else {
                    throw usageError(
                        "Missing value for '\(name) <\(name == "--config" ? "FILE" : name == "--trace" ? "NAME" : name == "--control-group" ? "GROUP" : "PATH")>'"
                    )
                }
                return v
            }
            func flag() throws(Exit) -> Bool {
                if inline != nil { throw usageError("'\(name)' takes no value") }
                return true
            }
            switch name {
            case "--stdout": a.stdout = try flag()
            case "--config": a.config = try value()
            case "--failures": a.failures = try flag()
            case "-v", "--verbose": a.verbose = try flag()
            case "--trace": a.trace.append(try value())
            case "--socket": a.socket = try value()
            case "--no-socket": a.noSocket = try flag()
            case "--control-group":
                let g = try value()
                if g.isEmpty { throw usageError("'--control-group' takes a group's name") }
                a.controlGroup = g
            case "--version": a.version = try flag()
            case "-h", "--help": a.help = try flag()
            default:
                throw usageError(arg.hasPrefix("-") ? "Unknown option '\(arg)'" : "Unexpected argument '\(arg)'")
            }
        }
        if a.help { throw Exit(text: helpText, status: 0) }
        if a.noSocket && !a.stdout && !a.version {
            throw usageError("nothing to publish to: --no-socket needs --stdout")
        }
        return a
    }
}
