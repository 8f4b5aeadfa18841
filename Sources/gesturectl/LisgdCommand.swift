import ArgumentParser
import CLinux
import FoundationEssentials
import GestureConfig
import GestureCore
import GestureDaemon
import GestureLisgd
import GestureTools
import Glibc
import LinuxInput

/// `gesturectl lisgd …`: lisgd's command line, recognized by gestured's own
/// pipeline. The arguments are read by hand, as lisgd reads them: `-h` is the
/// screen's height there, not help.
struct LisgdCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lisgd",
        abstract:
            "Run lisgd's command line (-d -g -t -T -r -m -o -w -h -s -v) through gestured's recognizers, as the user; --print-config shows the equivalent gestured.toml and actions.toml.",
        discussion: LisgdOptions.usage,
        helpNames: [])

    @Argument(
        parsing: .captureForPassthrough,
        help: "lisgd's options, and --print-config[=gestured|actions], --desc FILE, --replay FILE, --help.")
    var arguments: [String] = []

    func run() throws {
        let say: (String) -> Void = { writeStandardError("gesturectl lisgd: \($0)\n") }
        var args = arguments
        // --print-config=gestured|actions: one of the two files.
        var only: String?
        if let i = args.firstIndex(where: { $0.hasPrefix("--print-config=") }) {
            only = String(args[i].dropFirst("--print-config=".count))
            guard only == "gestured" || only == "actions" else {
                throw CleanExit.message(
                    "gesturectl lisgd: --print-config= takes gestured or actions, got '\(only!)'", code: 1)
            }
            args[i] = "--print-config"
        }
        let options: LisgdOptions
        do { options = try LisgdOptions.parse(args) } catch {
            throw CleanExit.message("gesturectl lisgd: \(error)", code: 1)
        }
        if options.help {
            print(Self.help)
            return
        }
        if options.descPath != nil && options.replayPath == nil && !options.printConfig {
            throw CleanExit.message(
                "gesturectl lisgd: --desc only describes the device for --replay or --print-config; without them there is nothing to read",
                code: 1)
        }
        // Named lisgd for pgrep and pkill, and stopped along with its parent, as lisgd.
        guard LisgdLive.becomeLisgd() else { return }
        if options.replayPath == nil && options.descPath == nil && !options.printConfig {
            // Reading the device: the code gesture-run runs (main.swift execs it when installed).
            let status = LisgdLive.run(options: options, arguments: args, say: say)
            if status != 0 { throw ExitCode(status) }
            return
        }

        let device: EvdevDevice?
        let description: DeviceDescription
        if let path = options.replayPath ?? options.descPath {
            device = nil
            do {
                guard let d = try Replay.deviceDescription(of: options.descPath ?? path), !d.axes.isEmpty else {
                    throw CleanExit.message("gesturectl lisgd: \(path): no device description (N:/A: lines)", code: 1)
                }
                description = d
            } catch let e as CleanExit { throw e } catch {
                throw CleanExit.message("gesturectl lisgd: \(error)", code: 1)
            }
        } else {
            do { device = try LisgdRunner.openDevice(options.device) } catch {
                let give =
                    options.device == LisgdOptions().device
                    ? "give its node with -d, or its description with --desc FILE"
                    : "give its description with --desc FILE instead"
                throw CleanExit.message(
                    "gesturectl lisgd: \(error)\n(--print-config turns lisgd's pixels into millimetres from the screen's own size: \(give), an evemu-describe of it)",
                    code: 1)
            }
            description = device!.description
        }
        let translation: LisgdTranslation
        // The printed config quotes lisgd's own arguments, without gesturectl's.
        var lisgdArgs: [String] = []
        var skip = false
        for a in args {
            if skip {
                skip = false
                continue
            }
            if a == "--desc" || a == "--replay" {
                skip = true
                continue
            }
            if a == "--print-config" || a == "--help" { continue }
            lisgdArgs.append(a)
        }
        do { translation = try LisgdTranslation(options: options, device: description, arguments: lisgdArgs) } catch {
            throw CleanExit.message("gesturectl lisgd: \(error)", code: 1)
        }
        let configuration: Configuration
        do { configuration = try translation.configuration() } catch {
            throw CleanExit.message(
                "gesturectl lisgd: bug in gestured: the translated config does not load:\n\(error)\n\(translation.gesturedTOML)",
                code: 70)
        }
        if options.printConfig {
            switch only {
            case "gestured": print(translation.gesturedTOML, terminator: "")
            case "actions": print(translation.actionsTOML, terminator: "")
            default:
                print("# ==> gestured.toml <==")
                print(translation.gesturedTOML)
                print("# ==> actions.toml <==")
                print(translation.actionsTOML, terminator: "")
            }
            return
        }
        for n in translation.notes { say("note: \(n)") }
        if let path = options.replayPath {
            try replay(path, options: options, translation: translation, configuration: configuration, say: say)
            return
        }
        guard let device else { return }
        if options.verbose {
            say(
                "reading \(device.node.devnode ?? options.device) '\(description.name)' with \(configuration.recognizers.count) recognizers for \(options.bindings.count) bindings; a lisgd pixel is \(formatFixed(translation.mmPerPx, decimals: 4)) mm"
            )
        }
        let status: Int32
        do {
            let runner = try LisgdRunner(
                translation: translation, configuration: configuration, device: device,
                verbose: options.verbose, say: say)
            status = try runner.run()
        } catch {
            throw CleanExit.message("gesturectl lisgd: \(error)", code: 1)
        }
        if status != 0 { throw ExitCode(status) }
    }

    /// Plays a recording through the translation and prints each binding that
    /// fires, with its event's time, instead of running commands.
    func replay(
        _ path: String, options: LisgdOptions, translation: LisgdTranslation, configuration: Configuration,
        say: @escaping (String) -> Void
    ) throws {
        do {
            try Replay.stream(
                recording: path, descPath: options.descPath, configuration: configuration,
                warn: { say($0) }
            ) { e in
                if options.verbose, e.state != .failed, translation.route(named: e.name) != nil {
                    say("event: \(e.json)")
                }
                guard let b = translation.binding(for: e) else { return }
                print("\(formatFixed(e.time.seconds, decimals: 6)) \(b.number) \(e.name) \(b.command)")
            }
        } catch {
            throw CleanExit.message("gesturectl lisgd: \(error)", code: 1)
        }
    }

    static let help = """
        OVERVIEW: lisgd's command line through gestured's recognizers.

        \(LisgdOptions.usage)

        lisgd's options:
          -d DEVICE   the touchscreen (default /dev/input/touchscreen; symlinks are followed)
          -g BINDING  FINGERS,SWIPE,EDGE,DISTANCE[,MODE],COMMAND, repeatable; the first that matches runs
                      SWIPE LR RL DU UD DLUR URDL ULDR DRUL; EDGE L R T B TL TR BL BR N *;
                      DISTANCE S M L * (of the screen along the stroke: M from 0.33, L from 0.66);
                      MODE R (at the lift, default) or P (while moving, every -T pixels)
          -t PX       a released swipe's least length (125)
          -T PX       a pressed binding's step (60)
          -r DEG      how far off its direction a stroke may be (15)
          -m MS       the most a stroke may take, first finger down to last lift (800)
          -o N        the screen turned N quarter turns (0..3; 1 is Sxmo's "right", gestured's rotation 270)
          -w PX -h PX the screen in pixels (default: the touchscreen's own extent, a pixel per unit)
          -s FACTOR   edges are 50 pixels times FACTOR (1.0)
          -v          say what is recognized and run, on stderr
        gesturectl's own:
          --print-config[=gestured|actions]  print the equivalent gestured.toml and actions.toml and exit
          --desc FILE      take the device from an evemu description instead of opening -d
          --replay FILE    play an evemu recording instead of the device; print what would run
          --help           this text

        Commands run with /bin/sh -c, not waited for (lisgd waits for each), with gesturectl's
        stdout and stderr. See PHONES.md, "Moving from lisgd" (/usr/share/doc/gestured/, or docs/ in the source).
        """
}
