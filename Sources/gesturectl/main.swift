import ArgumentParser

struct Gesturectl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gesturectl",
        abstract: "Talk to gestured, replay recordings through its recognizers, check configs.",
        subcommands: [ReplayCommand.self, CheckCommand.self, EvaluateCommand.self, ExplainCommand.self, BenchCommand.self,
                      DevicesCommand.self, SubscribeCommand.self, ActionsCommand.self, StatusCommand.self, RotateCommand.self,
                      ProfileCommand.self, PauseCommand.self, ResumeCommand.self, LisgdCommand.self])
}

Gesturectl.main()
