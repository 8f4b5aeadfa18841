import ArgumentParser
import Foundation
import GestureConfig
import GestureCore
import GestureDaemon

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run evemu recordings through the real decoder and recognizers; print one JSON line per gesture event.")

    @OptionGroup var config: ConfigOption

    @Option(name: .long, help: ArgumentHelp("Device description (evemu .desc/.prop) when the recording has none beside it.", valueName: "FILE"))
    var desc: String?

    @Flag(name: .long, help: "Also print failed transitions, with their reasons.")
    var failures = false

    @Option(name: .long, help: ArgumentHelp("Trace the recognizer NAME on stderr, every transition as `name: old → event → new (reason)`; repeat for more, `all` for every one.", valueName: "NAME"))
    var trace: [String] = []

    @Argument(help: "evemu recordings (.events/.event).")
    var recordings: [String]

    func run() throws {
        let configuration = try config.load()
        let known = configuration.recognizers.map(\.name)
        for name in trace where name != "all" && !known.contains(name) {
            throw CleanExit.message("gesturectl replay: --trace \(name): no recognizer of that name in \(configuration.source); known: \(known.joined(separator: ", "))", code: 1)
        }
        // Trace lines and recognizer bugs go to stderr as they happen.
        let log = ArenaLog(tracing: Set(trace)) { entry in
            let line = entry.kind == .bug ? "gesturectl: bug in a recognizer: \(entry)\n" : "trace: \(entry)\n"
            FileHandle.standardError.write(Data(line.utf8))
        }
        var out = ""
        for (i, path) in recordings.enumerated() {
            let events: [GestureEvent]
            do {
                events = try Replay.run(recording: path, descPath: desc, configuration: configuration,
                                        serial: UInt32(i), log: log) { warning in
                    FileHandle.standardError.write(Data((warning + "\n").utf8))
                }
            } catch {
                throw CleanExit.message("gesturectl replay: \(error)", code: 1)
            }
            for e in events where failures || e.state != .failed {
                out += e.json
                out += "\n"
            }
        }
        FileHandle.standardOutput.write(Data(out.utf8))
    }
}

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a config file: print each problem as FILE:LINE: KEY: MESSAGE and exit 1, or say it is fine.")

    @Argument(help: "The config file.")
    var file: String

    func run() throws {
        let c = try loadConfig(path: file)
        let names = c.recognizers.map { "\($0.name) (\($0.kind.rawValue))" }.joined(separator: ", ")
        print("\(file): ok: \(c.recognizers.count) recognizers: \(names); \(c.devices.count) device rule(s)")
    }
}
