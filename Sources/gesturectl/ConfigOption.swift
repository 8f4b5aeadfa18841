import ArgumentParser
import FoundationEssentials
import GestureConfig
import GestureCore
import GestureDaemon

/// `--config FILE`, shared by every subcommand that needs a configuration.
struct ConfigOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Config file (default: $GESTURED_CONFIG, then \(ConfigLoader.systemPath), then the built-in one).",
            valueName: "FILE"), completion: .file(extensions: ["toml"]))
    var config: String?

    func load() throws -> Configuration {
        try loadConfig(path: ConfigFile.resolve(explicit: config))
    }
}

/// Loads a config (nil: the built-in one) or exits 1 with its problems on stderr;
/// its warnings go to stderr too.
func loadConfig(path: String?) throws -> Configuration { try loaded(ConfigFile.load(path: path)) }

/// `loadConfig(path:)` on bytes already read from `file`.
func loadConfig(bytes: [UInt8], file: String) throws -> Configuration {
    try loaded(ConfigFile.load(bytes: bytes, file: file))
}

private func loaded(_ result: Result<Configuration, ConfigFile.ConfigFailure>) throws -> Configuration {
    switch result {
    case .success(let c):
        for w in c.warnings { writeStandardError("warning: \(w)\n") }
        return c
    case .failure(let f): throw CleanExit.message(f.description, code: 1)
    }
}

extension CleanExit {
    /// Exits with a message on stderr and a status.
    static func message(_ text: String, code: Int32) -> ExitCode {
        writeStandardError(text + "\n")
        return ExitCode(code)
    }
}

/// Where a recording's device is described, and its pen: replay's and explain's
/// options.
struct RecordingOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Device description (evemu .desc/.prop) when the recording has none beside it.", valueName: "FILE"),
        completion: .file())
    var desc: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A recording of the touchscreen's pen node, replayed beside the touchscreen's by timestamp: while the pen is in proximity (and [pen] release_ms after), touches start nothing.",
            valueName: "FILE"),
        completion: .file())
    var pen: String?
}
