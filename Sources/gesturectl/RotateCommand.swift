import ArgumentParser
import GestureCore

/// A rotation as `gesturectl rotate` takes it: degrees clockwise, or the name
/// xrandr (and Sxmo's rotate hook) gives the screen's orientation.
struct RotationArgument: ExpressibleByArgument {
    var rotation: Rotation

    /// xrandr's names, by the touch transformation each stands for: "left" is
    /// Sxmo's matrix `0 -1 1 / 1 0 0`, the same turn as rotation 90 here.
    static let names: [(String, Rotation)] = [
        ("normal", .none), ("left", .cw90), ("inverted", .cw180),
        ("invert", .cw180), ("right", .cw270),
    ]

    init?(argument: String) {
        if let degrees = Int(argument), let r = Rotation(rawValue: degrees) {
            rotation = r
            return
        }
        guard let r = Self.names.first(where: { $0.0 == argument })?.1 else { return nil }
        rotation = r
    }

    static var allValueStrings: [String] { ["0", "90", "180", "270"] + names.map(\.0) }
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

struct RotateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate",
        abstract: "Turn gestured's touchscreens with the screen, from the next touch on.",
        discussion: """
            ROTATION means what `rotation` in a [[device]] table of the config means: the \
            screen as the user sees it is the panel turned this many degrees clockwise, \
            after calibration. Swipe directions, edges and locations follow from the next \
            touch sequence on; a gesture in flight keeps its orientation. The rotation \
            outlives a config reload, not a restart of the daemon.

            xrandr's names are taken too, so a rotation hook can pass them on: normal (0), \
            left (90), inverted or invert (180), right (270). lisgd's -o 1 (xrandr right) is \
            270 here, -o 3 (left) is 90.

            \(controlRightsHelp)
            """)

    @Argument(
        help: ArgumentHelp(
            "Degrees clockwise, or the name xrandr gives the orientation.",
            valueName: "ROTATION"))
    var rotation: RotationArgument

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Only the touchscreen with this name, as `gesturectl status` shows it (default: every touchscreen).",
            valueName: "NAME"))
    var device: String?

    @OptionGroup var socket: SocketOption

    @Flag(name: .long, help: "Print the daemon's reply as one JSON line.")
    var json = false

    func validate() throws {
        if device?.isEmpty == true {
            throw ValidationError("--device takes a touchscreen's name; leave it out for every touchscreen")
        }
    }

    func run() throws {
        var fields = [("rotation", String(rotation.rotation.rawValue))]
        if let device { fields.append(("device", quoted(device))) }
        let reply = try askDaemon(socket, requestLine("rotate", fields), command: "rotate").reply
        if json {
            print(reply.json)
            return
        }
        let devices = strings(reply["devices"])
        let which =
            device != nil
            ? devices.map { "'\($0)'" }.joined(separator: ", ")
            : devices.isEmpty
                ? "every touchscreen (none in use now)"
                : "every touchscreen (" + devices.map { "'\($0)'" }.joined(separator: ", ") + ")"
        print("rotation \(text(reply["rotation"]))° for \(which), from the next touch on")
    }
}
