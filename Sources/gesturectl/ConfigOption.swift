import ArgumentParser
import Foundation
import GestureConfig
import GestureCore

/// `--config FILE`, shared by every subcommand that needs a configuration.
struct ConfigOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Config file (default: $GESTURED_CONFIG, then \(ConfigLoader.systemPath), then the built-in one).", valueName: "FILE"))
    var config: String?

    func load() throws -> Configuration {
        let path = config ?? ProcessInfo.processInfo.environment["GESTURED_CONFIG"]
            ?? (FileManager.default.fileExists(atPath: ConfigLoader.systemPath) ? ConfigLoader.systemPath : nil)
        guard let path else { return ConfigLoader.builtIn() }
        return try loadConfig(path: path)
    }
}

func loadConfig(path: String) throws -> Configuration {
    guard let data = FileManager.default.contents(atPath: path) else {
        throw ValidationError("\(path): cannot read the config file")
    }
    do {
        return try ConfigLoader.load(text: String(decoding: data, as: UTF8.self), file: path)
    } catch {
        throw CleanExit.message(error.description, code: 1)
    }
}

extension CleanExit {
    /// Exits with a message on stderr and a status.
    static func message(_ text: String, code: Int32) -> ExitCode {
        FileHandle.standardError.write(Data((text + "\n").utf8))
        return ExitCode(code)
    }
}
