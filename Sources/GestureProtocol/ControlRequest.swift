import GestureCore

/// A request that changes how the daemon reads touches: the screen's rotation,
/// the active profile, a pause. It comes from a socket client that
/// `ControlRights` lets change the daemon (any client may subscribe). The socket
/// server parses it and checks the right, `DaemonCore` carries it out and answers.
public enum ControlRequest: Sendable, Equatable {
    /// Every touchscreen (nil), or those with this name as `status` shows it.
    case rotate(Rotation, device: String?)
    /// Makes this profile active, ending a pause.
    case profile(String)
    case pause
    /// Back to the profile active before the pause.
    case resume
}

/// The daemon's answer to a `ControlRequest`.
public enum ControlReply: Sendable, Equatable {
    /// The rotation and the names of the touchscreens in use that it applies to.
    case rotated(Rotation, devices: [String])
    /// The profile state after the request, the recognizers that take part now,
    /// and a warning when that is none because no recognizer has the profile.
    case profile(RuntimeProfile, recognizers: [String], warning: String?)
    case refused(ProtocolErrorCode, String)
}

/// The active profile, and whether the daemon is paused (then no recognizer takes part).
public struct RuntimeProfile: Sendable, Equatable {
    public var name: String
    public var paused: Bool
    public init(name: String = Profiles.defaultName, paused: Bool = false) {
        self.name = name
        self.paused = paused
    }
    /// What the arenas take: nil when paused.
    public var active: String? { paused ? nil : name }
}

/// Carries out the requests that change the daemon; the socket server only
/// parses them and writes the reply.
public protocol DaemonControl: AnyObject {
    /// `client` says who asked, for the log.
    func control(_ request: ControlRequest, from client: String) -> ControlReply
}
