import GestureConfig
import GestureProtocol
import Glibc
import LinuxSystem

/// `gesturectl actions`' options, read by hand so the lean gesture-run can take
/// them without argument-parser: `--file PATH`, `--max-running N`, `--socket PATH`
/// (each also as `--option=VALUE`), `--check`, `--no-batch`, `--help`/`-h`. gesturectl reads them
/// with argument-parser and hands the same values to `run`.
public struct ActionsArguments: Sendable, Equatable {
    public var file: String?
    public var maxRunning: Int?
    public var socket: String?
    public var check = false
    /// Run in SCHED_BATCH (`SubscriberScheduling.batch`); `--no-batch` keeps the normal policy.
    public var batch = true
    public var help = false

    public init(
        file: String? = nil, maxRunning: Int? = nil, socket: String? = nil, check: Bool = false,
        batch: Bool = true
    ) {
        self.file = file
        self.maxRunning = maxRunning
        self.socket = socket
        self.check = check
        self.batch = batch
    }

    /// Reads the arguments after `actions`; a usage error names the option.
    public static func parse(_ arguments: [String]) throws(ActionsUsageError) -> ActionsArguments {
        var a = ActionsArguments()
        var i = 0
        while i < arguments.count {
            let arg = arguments[i]
            var name = arg
            var inline: String?
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                inline = String(arg[arg.index(after: eq)...])
            }
            func value() throws(ActionsUsageError) -> String {
                if let inline { return inline }
                i += 1
                guard i < arguments.count else { throw ActionsUsageError("missing value for '\(name)'") }
                return arguments[i]
            }
            switch name {
            case "--file": a.file = try value()
            case "--socket": a.socket = try value()
            case "--max-running":
                let v = try value()
                guard let n = Int(v), (1...ActionsFile.maxRunningLimit).contains(n) else {
                    throw ActionsUsageError("--max-running takes 1 to \(ActionsFile.maxRunningLimit)")
                }
                a.maxRunning = n
            case "--check" where inline == nil: a.check = true
            case "--no-batch" where inline == nil: a.batch = false
            case "--help", "-h": a.help = true
            default: throw ActionsUsageError("unknown option '\(arg)'")
            }
            i += 1
        }
        return a
    }

    /// The socket: --socket, then $GESTURED_SOCKET, then the daemon's default.
    public func socketPath(environment: [String: String]) -> String {
        socket ?? environment["GESTURED_SOCKET"].flatMap { $0.isEmpty ? nil : $0 } ?? DaemonSocket.defaultPath
    }

    /// Loads the actions file and runs its commands for the daemon's events until
    /// stopped (or, with `check`, prints what it would subscribe to). Messages go to
    /// stderr (the check's report to stdout); returns the exit status.
    public func run(environment: [String: String]) -> Int32 {
        run(
            environment: environment, warn: { try? FileDescriptor.standardError.writeAll($0 + "\n") },
            report: { print($0) })
    }

    /// `run`, with its messages to `warn` and the check's report to `report`.
    func run(
        environment: [String: String], warn: @escaping @Sendable (String) -> Void,
        report: (String) -> Void
    ) -> Int32 {
        let path: String
        if let file {
            path = file
        } else if let p = ActionsFile.defaultPath(
            xdgConfigHome: environment["XDG_CONFIG_HOME"], home: environment["HOME"])
        {
            path = p
        } else {
            warn("gesturectl: no HOME or XDG_CONFIG_HOME to find actions.toml in; give --file PATH")
            return 1
        }
        // Its commands run as us: a file someone else can change is refused.
        let trust = FileTrust()
        if let problem = trust.problemWithDirectories(of: path) {
            warn("gesturectl: \(problem)")
            return 1
        }
        let bytes: [UInt8]
        var untrusted = false
        let read = ConfigFile.read(path: path, limit: ConfigLoader.maxFileBytes) { st in
            let problem = trust.problem(file: path, st)
            untrusted = problem != nil
            return problem
        }
        switch read {
        case .success(let b): bytes = b
        case .failure(let f):
            warn(
                "gesturectl: \(f)"
                    + (untrusted ? "" : "\n(an actions file holds [[action]] tables; see gesturectl(1), ACTIONS)"))
            return 1
        }
        let actions: ActionsFile
        do {
            actions = try ActionsLoader.load(bytes: bytes, file: path)
        } catch {
            warn(error.description)
            return 1
        }
        for w in actions.warnings { warn("gesturectl: \(w)") }
        if check {
            let n = actions.actions.count
            report(
                "\(path): ok: \(n == 1 ? "1 action" : "\(n) actions"), max_running \(maxRunning ?? actions.maxRunning ?? ActionsFile.defaultMaxRunning)"
            )
            report("subscribes with: \(actions.subscribeRequest ?? "nothing (no actions)")")
            return 0
        }
        let service = ActionsService(
            path: path, actions: actions, bytes: bytes, socketPath: socketPath(environment: environment),
            maxRunning: maxRunning, warn: warn)
        // A subscriber that does not preempt the daemon; its commands run normally.
        if batch { SubscriberScheduling.batch() }
        // Runs until killed; returns only on a fatal error.
        do {
            try service.run()
        } catch {
            warn(error.description)
            return 1
        }
    }
}

/// A usage error in `actions`' arguments.
public struct ActionsUsageError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
