import ArgumentParser

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
