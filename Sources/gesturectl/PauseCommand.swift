import ArgumentParser

struct PauseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pause",
        abstract: "Stop recognizing gestures until `gesturectl resume` (a screen turned off or locked).",
        discussion:
            "No recognizer takes part from the next touch on; a gesture in flight finishes. The pause outlives a config reload.\n\n"
            + controlRightsHelp)

    @OptionGroup var socket: SocketOption

    @Flag(name: .long, help: "Print the daemon's reply as one JSON line.")
    var json = false

    func run() throws {
        printProfileReply(try askDaemon(socket, requestLine("pause"), command: "pause").reply, json: json)
    }
}
