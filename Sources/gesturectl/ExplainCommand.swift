import ArgumentParser

struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "explain", abstract: "Draw why.")
    func run() throws {}
}
