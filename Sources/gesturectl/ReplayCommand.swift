import ArgumentParser
import FoundationEssentials
import GestureConfig
import GestureCore
import GestureDaemon
import GestureTools

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract:
            "Run evemu recordings through the real decoder and recognizers; print one JSON line per gesture event.")

    @OptionGroup var config: ConfigOption

    @OptionGroup var recording: RecordingOptions

    @Flag(
        name: .long,
        help:
            "Also print failed transitions, with their reasons, and (on stderr) each touch set aside as it landed: the pen in proximity, a palm."
    )
    var failures = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Trace the recognizer NAME on stderr, every transition as `name: old → event → new (reason)`; repeat for more, `all` for every one.",
            valueName: "NAME"))
    var trace: [String] = []

    @Argument(help: "evemu recordings (.events/.event).", completion: .file())
    var recordings: [String]

    func validate() throws {
        if recording.pen != nil && recordings.count != 1 {
            throw ValidationError("--pen goes with one touch recording, not \(recordings.count)")
        }
    }

    func run() throws {
        let configuration = try config.load()
        let known = configuration.recognizers.map(\.name)
        for name in trace where name != "all" && !known.contains(name) {
            throw CleanExit.message(
                "gesturectl replay: --trace \(name): no recognizer of that name in \(configuration.source); known: \(known.joined(separator: ", "))",
                code: 1)
        }
        // Each event is written as it is decided, through a small buffer: a
        // recording of any length replays in bounded memory.
        var out = OutputBuffer()
        // Trace lines and recognizer bugs go to stderr as they happen, after the
        // events decided before them.
        let log = ArenaLog(tracing: Set(trace)) { entry in
            out.flush()
            let line = entry.kind == .bug ? "gesturectl: bug in a recognizer: \(entry)\n" : "trace: \(entry)\n"
            writeStandardError(line)
        }
        for (i, path) in recordings.enumerated() {
            do {
                try Replay.stream(
                    recording: path, descPath: recording.desc, pen: recording.pen, configuration: configuration,
                    serial: UInt32(truncatingIfNeeded: i), log: log
                ) { warning in
                    out.flush()
                    writeStandardError(warning + "\n")
                } setAside: { line in
                    // What no gesture event tells: a touch that started nothing
                    // (a trace, when there is one, says it among its lines).
                    guard failures && trace.isEmpty else { return }
                    out.flush()
                    writeStandardError("set aside: " + line + "\n")
                } emit: { e in
                    guard failures || e.state != .failed else { return }
                    out.append(e.json)
                    out.append("\n")
                }
            } catch {
                out.flush()
                throw CleanExit.message("gesturectl replay: \(error)", code: 1)
            }
        }
        out.flush()
    }
}

/// Standard output through a 64 KiB buffer.
struct OutputBuffer {
    private var bytes: [UInt8] = []
    static let capacity = 1 << 16

    init() { bytes.reserveCapacity(OutputBuffer.capacity) }

    mutating func append(_ s: String) {
        bytes.append(contentsOf: s.utf8)
        if bytes.count >= OutputBuffer.capacity { flush() }
    }

    mutating func flush() {
        guard !bytes.isEmpty else { return }
        writeStandardOutput(bytes)
        bytes.removeAll(keepingCapacity: true)
    }
}
