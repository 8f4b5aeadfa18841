import ArgumentParser
import Foundation
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
func loadConfig(path: String?) throws -> Configuration {
    switch ConfigFile.load(path: path) {
    case .success(let c):
        for w in c.warnings { FileHandle.standardError.write(Data("warning: \(w)\n".utf8)) }
        return c
    case .failure(let f): throw CleanExit.message(f.description, code: 1)
    }
}

extension CleanExit {
    /// Exits with a message on stderr and a status.
    static func message(_ text: String, code: Int32) -> ExitCode {
        FileHandle.standardError.write(Data((text + "\n").utf8))
        return ExitCode(code)
    }
}
