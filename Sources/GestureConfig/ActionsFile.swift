import GestureCore

/// A user's `actions.toml`, read by `gesturectl actions`: `[[action]]` tables,
/// each a command and what events it runs for, and how many commands may run
/// at once.
public struct ActionsFile: Sendable, Equatable {
    /// One `[[action]]`: `exec` runs through `/bin/sh -c` for every event that
    /// every given match accepts (a match left out accepts anything).
    public struct Action: Sendable, Equatable {
        public var exec: String
        /// Recognizer names (the configured ones).
        public var names: [String] = []
        public var kinds: [GestureKind] = []
        /// Empty: `recognized` events and slider steps (events with a `step`), nothing else.
        public var states: [GestureState] = []
        /// Swipe or circle directions, as events carry them.
        public var directions: [String] = []
        public var fingers: [Int] = []
        /// Edge names, as events of recognizers with an `edge` filter carry them.
        public var edges: [String] = []
        /// The line of the action's `[[action]]` header, for messages.
        public var line: Int

        public init(exec: String, line: Int) {
            self.exec = exec
            self.line = line
        }
    }

    public var actions: [Action]
    /// `max_running` when the file sets it.
    public var maxRunning: Int?
    /// The path it was read from, for messages.
    public var file: String
    /// Things worth saying that are not errors (no actions at all).
    public var warnings: [String] = []

    public init(actions: [Action], maxRunning: Int? = nil, file: String) {
        self.actions = actions
        self.maxRunning = maxRunning
        self.file = file
    }

    /// Commands running at once when neither the file nor the command line says.
    public static let defaultMaxRunning = 4
    /// The largest `max_running` accepted.
    public static let maxRunningLimit = 64

    /// The states an action may name: every state an event can carry.
    public static let states: [GestureState] = [.began, .changed, .ended, .recognized, .cancelled, .failed]

    /// The edge names events carry (the configured `edge` of their recognizer;
    /// a recognizer with `edge = "none"` sends no edge).
    public static var edges: [String] { Edge.allCases.filter { $0 != .none }.map(\.rawValue) }

    /// The directions events carry: a swipe's, and a circle's turn.
    public static var directions: [String] {
        SwipeRecognizer.Direction.allCases.map(\.rawValue) + ["clockwise", "counterclockwise"]
    }

    /// `$XDG_CONFIG_HOME/gestured/actions.toml`, else `~/.config/gestured/actions.toml`.
    /// A relative `XDG_CONFIG_HOME` is ignored, as the XDG base directory
    /// specification asks. Nil when there is no home either.
    public static func defaultPath(xdgConfigHome: String?, home: String?) -> String? {
        if let xdg = xdgConfigHome, xdg.hasPrefix("/") {
            return (xdg.hasSuffix("/") ? String(xdg.dropLast()) : xdg) + "/gestured/actions.toml"
        }
        guard let home, !home.isEmpty else { return nil }
        return (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/.config/gestured/actions.toml"
    }
}
