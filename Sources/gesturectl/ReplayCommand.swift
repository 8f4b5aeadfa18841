import ArgumentParser
import Foundation
import GestureConfig
import GestureCore
import GestureDaemon
import GestureTools

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run evemu recordings through the real decoder and recognizers; print one JSON line per gesture event.")

    @OptionGroup var config: ConfigOption

    @Option(name: .long, help: ArgumentHelp("Device description (evemu .desc/.prop) when the recording has none beside it.", valueName: "FILE"))
    var desc: String?

    @Flag(name: .long, help: "Also print failed transitions, with their reasons.")
    var failures = false

    @Argument(help: "evemu recordings (.events/.event).")
    var recordings: [String]

    func run() throws {
        let configuration = try config.load()
        var out = ""
        for (i, path) in recordings.enumerated() {
            let events: [GestureEvent]
            do {
                events = try Replay.run(recording: path, descPath: desc, configuration: configuration,
                                        serial: UInt32(i)) { warning in
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
