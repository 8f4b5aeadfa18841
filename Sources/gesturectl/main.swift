import ArgumentParser

struct Gesturectl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gesturectl",
        abstract: "Talk to gestured, replay recordings through its recognizers, check configs.",
        subcommands: [ReplayCommand.self, CheckCommand.self, BenchCommand.self, DevicesCommand.self])
}

Gesturectl.main()
