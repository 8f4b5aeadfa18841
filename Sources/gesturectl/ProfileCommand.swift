import ArgumentParser
import GestureCore

struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Show or switch gestured's active profile.",
        discussion: """
            Only the recognizers whose `profiles` list NAME take part in touches from the \
            next touch on (a gesture in flight finishes). Switching also ends a pause. A \
            NAME no recognizer has is accepted with a warning: then none takes part until \
            another profile is chosen or a reload brings one. The profile outlives a \
            config reload; the daemon starts with "default".

            Any client may show the profile; switching it is restricted. \(controlRightsHelp)
            """)

    @Argument(help: ArgumentHelp("The profile to make active; without it, show the active one.", valueName: "NAME"))
    var name: String?

    @OptionGroup var socket: SocketOption

    @Flag(name: .long, help: "Print the daemon's reply as one JSON line.")
    var json = false

    func validate() throws {
        if let name, let problem = Profiles.nameProblem(name) { throw ValidationError(problem) }
    }

    func run() throws {
        guard let name else {
            let hello = try askDaemon(socket, requestLine("ping"), command: "profile").hello
            if json {
                print(#"{"profile":\#(hello["profile"]?.json ?? "null"),"paused":\#(hello["paused"]?.json ?? "null")}"#)
                return
            }
            print(text(hello["profile"]) + (hello["paused"] == .bool(true) ? " (paused)" : ""))
            return
        }
        let reply = try askDaemon(socket, requestLine("profile", [("name", quoted(name))]), command: "profile").reply
        printProfileReply(reply, json: json)
    }
}
