import ArgumentParser

struct ResumeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resume",
        abstract: "Recognize gestures again after `gesturectl pause`, with the profile active before it.",
        discussion: controlRightsHelp)

    @OptionGroup var socket: SocketOption

    @Flag(name: .long, help: "Print the daemon's reply as one JSON line.")
    var json = false

    func run() throws {
        printProfileReply(try askDaemon(socket, requestLine("resume"), command: "resume").reply, json: json)
    }
}
