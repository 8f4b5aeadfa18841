import CLinux
import GestureClient
import GestureLisgd
import Glibc
import LinuxSystem

// gesture-run: the long-running `gesturectl lisgd` (reading a device) and
// `gesturectl actions`, without Foundation and argument-parser. gesturectl execs
// it with its own arguments (`gesturectl lisgd -d …`), so argv[1] names the
// command; the messages are gesturectl's. It is not meant to be run by hand.

let usage = """
    usage: gesture-run lisgd [LISGD OPTIONS]
           gesture-run actions [--file PATH] [--max-running N] [--socket PATH] [--check] [--no-batch]
    gesture-run is what gesturectl runs for `gesturectl lisgd` and `gesturectl actions`; run those.

    """
let arguments = CommandLine.arguments
let command = arguments.count >= 2 ? arguments[1] : ""
let rest = Array(arguments.dropFirst(2))
switch command {
case "lisgd":
    exit(LisgdLive.main(rest))
case "actions":
    let parsed: ActionsArguments
    do { parsed = try ActionsArguments.parse(rest) } catch {
        try? FileDescriptor.standardError.writeAll("gesturectl actions: \(error)\n")
        exit(64)
    }
    if parsed.help {
        try? FileDescriptor.standardError.writeAll("gesturectl actions: for --help, run gesturectl actions --help\n")
        exit(64)
    }
    // Still named gesturectl for ps, pgrep and pkill, as before gesturectl exec'd this.
    _ = gestured_set_process_name("gesturectl")
    exit(parsed.run(environment: processEnvironment()))
case "--help", "-h":
    print(usage, terminator: "")
default:
    try? FileDescriptor.standardError.writeAll(usage)
    exit(64)
}
