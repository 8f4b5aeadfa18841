import CLinux
import GestureConfig
import GestureCore
import Glibc
import LinuxInput
import LinuxSystem

/// `gesturectl lisgd` reading a touchscreen and running commands: the part that
/// runs all day, shared by gesturectl and the lean gesture-run that gesturectl
/// execs for it. `--print-config`, `--desc`, `--replay` and `--help` stay in
/// gesturectl (they read evemu files, with Foundation).
public enum LisgdLive {
    /// Whether gesturectl may hand these arguments (after `lisgd`) to gesture-run:
    /// they parse, and ask for none of gesturectl's own options. Anything else,
    /// errors included, gesturectl runs itself, with its own messages.
    public static func runsLean(_ arguments: [String]) -> Bool {
        if arguments.contains(where: { $0.hasPrefix("--print-config=") }) { return false }
        guard let o = try? LisgdOptions.parse(arguments) else { return false }
        return !o.help && !o.printConfig && o.descPath == nil && o.replayPath == nil
    }

    /// Names the process `lisgd`, as scripts that stop it know it (Sxmo's lock
    /// scripts run `pkill -9 lisgd`; pgrep and pkill match this name), and, as
    /// lisgd, has it stopped along with the hook (or shell) that started it.
    /// False if that parent is already gone.
    public static func becomeLisgd() -> Bool {
        _ = gestured_set_process_name("lisgd")
        let parent = getppid()
        _ = gestured_set_parent_death_signal(SIGTERM)
        return getppid() == parent
    }

    /// Writes `gesturectl lisgd: TEXT` on stderr.
    public static func say(_ text: String) {
        try? FileDescriptor.standardError.writeAll("gesturectl lisgd: \(text)\n")
    }

    /// gesture-run's `lisgd …`: the arguments after `lisgd`; returns the exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        if let problem = LisgdOptions.encodingProblem(rawArguments: LisgdOptions.rawProcessArguments(from: 2)) {
            say("\(problem)")
            return 1
        }
        let options: LisgdOptions
        do { options = try LisgdOptions.parse(arguments) } catch {
            say("\(error)")
            return 1
        }
        if options.help || options.printConfig || options.descPath != nil || options.replayPath != nil
            || arguments.contains(where: { $0.hasPrefix("--print-config=") })
        {
            say("--help, --print-config, --desc and --replay are gesturectl's own: run gesturectl lisgd")
            return 64
        }
        guard becomeLisgd() else { return 0 }
        return run(options: options, arguments: arguments, say: say)
    }

    /// Opens the device, translates the bindings and runs them until a signal
    /// ends it (0) or the device goes away (1); a problem is said and returns 1.
    /// `arguments` are lisgd's own, quoted in the translation's comments.
    public static func run(options: LisgdOptions, arguments: [String], say: @escaping (String) -> Void) -> Int32 {
        let device: EvdevDevice
        do { device = try LisgdRunner.openDevice(options.device) } catch {
            say("\(error)")
            return 1
        }
        let description = device.description
        let translation: LisgdTranslation
        do { translation = try LisgdTranslation(options: options, device: description, arguments: arguments) } catch {
            say("\(error)")
            return 1
        }
        let configuration: Configuration
        do { configuration = try translation.configuration() } catch {
            say("bug in gestured: the translated config does not load:\n\(error)\n\(translation.gesturedTOML)")
            return 70
        }
        for n in translation.notes { say("note: \(n)") }
        if options.verbose {
            say(
                "reading \(device.node.devnode ?? options.device) '\(description.name)' with \(configuration.recognizers.count) recognizers for \(options.bindings.count) bindings; a lisgd pixel is \(formatFixed(translation.mmPerPx, decimals: 4)) mm"
            )
        }
        do {
            let runner = try LisgdRunner(
                translation: translation, configuration: configuration, device: device,
                verbose: options.verbose, say: say)
            return try runner.run()
        } catch {
            say("\(error)")
            return 1
        }
    }
}
