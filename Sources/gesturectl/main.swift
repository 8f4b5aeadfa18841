import ArgumentParser
import CLinux
import GestureClient
import GestureLisgd
import GestureProtocol
import Glibc
import LinuxSystem

/// `gesturectl lisgd` reading a device and `gesturectl actions` run all day: hand
/// them to the lean gesture-run when it is installed, before anything else, so
/// this large image (Foundation, argument-parser, the offline tools) does not stay
/// resident. What gesture-run would not take (its own options, --help, errors)
/// runs here as always.
let arguments = CommandLine.arguments
if arguments.count >= 2 {
    let rest = Array(arguments.dropFirst(2))
    if arguments[1] == "lisgd",
        let problem = LisgdOptions.encodingProblem(rawArguments: LisgdOptions.rawProcessArguments(from: 2))
    {
        // Checked before the arguments are handed on as text: that would replace the bytes.
        LisgdLive.say("\(problem)")
        exit(1)
    }
    switch arguments[1] {
    case "lisgd" where LisgdLive.runsLean(rest):
        GestureRun.exec(arguments)
    case "actions":
        if let a = try? ActionsArguments.parse(rest), !a.check, !a.help { GestureRun.exec(arguments) }
    default:
        break
    }
}

struct Gesturectl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gesturectl",
        abstract: "Talk to gestured, replay recordings through its recognizers, check configs.",
        version: "gesturectl \(daemonVersion) (socket protocol \(socketProtocolVersion))",
        subcommands: [
            ReplayCommand.self, CheckCommand.self, EvaluateCommand.self, ExplainCommand.self, BenchCommand.self,
            DevicesCommand.self, SubscribeCommand.self, ActionsCommand.self, StatusCommand.self, RotateCommand.self,
            ProfileCommand.self, PauseCommand.self, ResumeCommand.self, LisgdCommand.self, ShapeCommand.self,
        ])
}

if arguments.count >= 2 && arguments[1] == "lisgd" {
    // lisgd's arguments are read by LisgdOptions, as lisgd reads them: the parser's pass-through takes time quadratic in their number.
    var lisgd = LisgdCommand()
    lisgd.arguments = Array(arguments.dropFirst(2))
    do { try lisgd.run() } catch { LisgdCommand.exit(withError: error) }
    exit(0)
}
// Output that `print` left in stdio's buffer is written at exit: if that
// fails (a full disk, a closed descriptor), say so and end with status 1, as
// writeStandardOutput does, rather than lose it and report success.
atexit {
    let e = gestured_flush_stdout()
    if e != 0 { standardOutputFailed(Errno(rawValue: e)) }
}
Gesturectl.main()
