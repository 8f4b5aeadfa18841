/// Who may change the daemon: `rotate`, `profile`, `pause` and `resume`.
/// Reaching the socket (group `gestured`) is enough to subscribe and to ask
/// for `status` or `ping`; a request that changes what every subscriber gets is
/// for the person at the screen and those an administrator named:
/// - root;
/// - the daemon's own user;
/// - members of the control group (`gestured --control-group`, by default
///   `gestured-control` when that group exists), as the client's primary or
///   supplementary group when it connected (SO_PEERCRED, SO_PEERGROUPS);
/// - the user of the active logind session on a seat of the touchscreens in
///   use (their udev `ID_SEAT`, `seat0` when none says otherwise or none is in use).
///
/// A pure value: the caller looks up the seats' active users (sd-login) and
/// hands the answer in, so each rule is tested without logind.
import GestureProtocol
import LinuxSystem

public struct ControlRights: Sendable, Equatable {
    public struct Group: Sendable, Equatable {
        public var name: String
        public var gid: UInt32
        public init(name: String, gid: UInt32) {
            self.name = name
            self.gid = gid
        }
    }

    /// The client as the kernel saw it when it connected.
    public struct Peer: Sendable, Equatable {
        public var uid: UInt32
        public var gid: UInt32
        /// Supplementary groups (SO_PEERGROUPS).
        public var groups: [UInt32]
        public init(uid: UInt32, gid: UInt32, groups: [UInt32] = []) {
            self.uid = uid
            self.gid = gid
            self.groups = groups
        }
    }

    /// What logind says of one seat: the uid in its active session, nil when
    /// no session is active there (or logind does not run).
    public struct ActiveSeat: Sendable, Equatable {
        public var seat: String
        public var uid: UInt32?
        public init(seat: String, uid: UInt32?) {
            self.seat = seat
            self.uid = uid
        }
    }

    /// Why a client may change the daemon; the log says it with the request.
    public enum Grant: Sendable, Equatable, CustomStringConvertible {
        case root
        case daemonUser
        case controlGroup(String)
        case activeSession(seat: String)

        public var description: String {
            switch self {
            case .root: return "root"
            case .daemonUser: return "the daemon's own user"
            case .controlGroup(let name): return "group '\(name)'"
            case .activeSession(let seat): return "active session on \(seat)"
            }
        }
    }

    public var daemonUID: UInt32
    public var controlGroup: Group?

    public init(daemonUID: UInt32, controlGroup: Group? = nil) {
        self.daemonUID = daemonUID
        self.controlGroup = controlGroup
    }

    /// The uid SO_PEERCRED could not tell (`(uid_t)-1`): never granted anything.
    public static let unknownUID = UInt32.max

    /// Why `peer` may change the daemon, or nil when it may not. `activeSeats`
    /// is asked only when no other rule grants it.
    public func grant(to peer: Peer, activeSeats: @autoclosure () -> [ActiveSeat]) -> Grant? {
        guard peer.uid != Self.unknownUID else { return nil }
        if peer.uid == 0 { return .root }
        if peer.uid == daemonUID { return .daemonUser }
        if let g = controlGroup, peer.gid == g.gid || peer.groups.contains(g.gid) { return .controlGroup(g.name) }
        if let seat = activeSeats().first(where: { $0.uid == peer.uid }) { return .activeSession(seat: seat.seat) }
        return nil
    }

    /// The refusal's message: who may, so that the user knows what to do.
    public func refusal(_ command: String, uid: UInt32, seats: [String]) -> String {
        "uid \(uid) may not \(command): \(whoMay(seats: seats)); subscribing, status and ping are for every client"
    }

    /// Who may change the daemon, in words (the refusal and the start-up log);
    /// no seats: the rule, not the seats of now.
    public func whoMay(seats: [String]) -> String {
        let seatText =
            seats.isEmpty
            ? "the touchscreens' seat (udev's ID_SEAT, seat0 by default)" : seats.joined(separator: " or ")
        var who =
            "changing the daemon is for root, the daemon's own user (uid \(daemonUID)), the user of the active session on \(seatText)"
        if let g = controlGroup {
            who += " and members of group '\(g.name)'"
        } else {
            who += "; no control group is set (gestured --control-group)"
        }
        return who
    }
}

extension ControlRequest {
    /// The protocol's name of the request, for messages.
    public var command: String {
        switch self {
        case .rotate: return "rotate"
        case .profile: return "profile"
        case .pause: return "pause"
        case .resume: return "resume"
        }
    }
}

extension DaemonInfo {
    /// The seats of the touchscreens in use (udev's `ID_SEAT`), `seat0` when none is in use.
    public var seats: [String] {
        var seen: [String] = []
        for d in devices where !seen.contains(d.seat) { seen.append(d.seat) }
        return seen.isEmpty ? [DaemonInfo.Device.defaultSeat] : seen
    }
}
