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

// Started through a link named lisgd (the gestured-lisgd package's
// /usr/bin/lisgd): lisgd's command line, as `gesturectl lisgd` takes it. What
// only gesturectl does (--help, --print-config, --desc, --replay, and the
// messages for a command line that does not parse) goes to gesturectl.
if let zeroth = arguments.first, zeroth.split(separator: "/").last == "lisgd" {
    let lisgdArguments = Array(arguments.dropFirst())
    if !LisgdLive.runsLean(lisgdArguments), let gesturectl = GestureRun.gesturectlPath() {
        GestureRun.exec(path: gesturectl, ["lisgd", "lisgd"] + lisgdArguments)
    }
    exit(LisgdLive.main(lisgdArguments))
}

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
