import GestureClient
import GestureCore
import GestureProtocol
import Glibc
import LinuxSystem
import Testing

@testable import GestureDaemon

/// Who may rotate, switch the profile, pause and resume: one test per rule,
/// on the pure decision (logind's answer is an input).
struct ControlRightsTests {
    let daemon: UInt32 = 998
    let control = ControlRights.Group(name: "gestured-control", gid: 997)
    let alice: UInt32 = 1000, bob: UInt32 = 1001
    let gestured: UInt32 = 996  // the socket's group: reaching the socket grants nothing more

    var rights: ControlRights { ControlRights(daemonUID: daemon, controlGroup: control) }
    let nobodyAtTheSeat = [ControlRights.ActiveSeat(seat: "seat0", uid: nil)]

    @Test func rootMay() {
        #expect(rights.grant(to: .init(uid: 0, gid: 0), activeSeats: nobodyAtTheSeat) == .root)
    }

    @Test func theDaemonsOwnUserMay() {
        #expect(rights.grant(to: .init(uid: daemon, gid: gestured), activeSeats: nobodyAtTheSeat) == .daemonUser)
    }

    @Test func membersOfTheControlGroupMayAsPrimaryOrSupplementaryGroup() {
        #expect(
            rights.grant(to: .init(uid: bob, gid: control.gid), activeSeats: nobodyAtTheSeat)
                == .controlGroup("gestured-control"))
        #expect(
            rights.grant(to: .init(uid: bob, gid: bob, groups: [gestured, control.gid]), activeSeats: nobodyAtTheSeat)
                == .controlGroup("gestured-control"))
    }

    @Test func withoutAControlGroupNoGroupGrantsAnything() {
        let none = ControlRights(daemonUID: daemon)
        #expect(
            none.grant(
                to: .init(uid: bob, gid: control.gid, groups: [gestured, control.gid]), activeSeats: nobodyAtTheSeat)
                == nil)
    }

    @Test func theSubscribersGroupAloneGrantsNothing() {
        #expect(rights.grant(to: .init(uid: bob, gid: bob, groups: [gestured]), activeSeats: nobodyAtTheSeat) == nil)
    }

    @Test func theUserOfTheActiveSessionOnTheSeatMay() {
        let seats = [ControlRights.ActiveSeat(seat: "seat0", uid: alice)]
        #expect(
            rights.grant(to: .init(uid: alice, gid: alice, groups: [gestured]), activeSeats: seats)
                == .activeSession(seat: "seat0"))
    }

    @Test func anotherUserWhileSomeoneIsAtTheSeatMayNot() {
        let seats = [ControlRights.ActiveSeat(seat: "seat0", uid: alice)]
        #expect(rights.grant(to: .init(uid: bob, gid: bob, groups: [gestured]), activeSeats: seats) == nil)
    }

    @Test func noActiveSessionOrNoLogindGrantsNothing() {
        #expect(
            rights.grant(to: .init(uid: alice, gid: alice, groups: [gestured]), activeSeats: nobodyAtTheSeat) == nil)
        #expect(rights.grant(to: .init(uid: alice, gid: alice, groups: [gestured]), activeSeats: []) == nil)
    }

    /// Several touchscreens on several seats: the active user of any of them.
    @Test func theActiveUserOfAnySeatWithATouchscreenMay() {
        let seats = [
            ControlRights.ActiveSeat(seat: "seat0", uid: alice), ControlRights.ActiveSeat(seat: "seat1", uid: bob),
        ]
        #expect(rights.grant(to: .init(uid: bob, gid: bob), activeSeats: seats) == .activeSession(seat: "seat1"))
    }

    /// A peer SO_PEERCRED could not tell is nobody, whatever else matches.
    @Test func anUnknownPeerMayNot() {
        let seats = [ControlRights.ActiveSeat(seat: "seat0", uid: ControlRights.unknownUID)]
        let unknown = ControlRights.Peer(uid: ControlRights.unknownUID, gid: UInt32.max)
        #expect(
            ControlRights(daemonUID: daemon, controlGroup: .init(name: "x", gid: UInt32.max)).grant(
                to: unknown, activeSeats: seats) == nil)
    }

    /// logind is asked only when no credential already decides.
    @Test func theSeatIsLookedUpOnlyWhenNeeded() {
        var asked = 0
        func seats() -> [ControlRights.ActiveSeat] {
            asked += 1
            return nobodyAtTheSeat
        }
        _ = rights.grant(to: .init(uid: 0, gid: 0), activeSeats: seats())
        _ = rights.grant(to: .init(uid: bob, gid: control.gid), activeSeats: seats())
        #expect(asked == 0)
        _ = rights.grant(to: .init(uid: bob, gid: bob), activeSeats: seats())
        #expect(asked == 1)
    }

    @Test func theRefusalSaysWhoMay() {
        #expect(
            rights.refusal("rotate", uid: bob, seats: ["seat0"])
                == "uid 1001 may not rotate: changing the daemon is for root, the daemon's own user (uid 998), the user of the active session on seat0 and members of group 'gestured-control'; subscribing, status and ping are for every client"
        )
        #expect(
            ControlRights(daemonUID: daemon).refusal("pause", uid: bob, seats: ["seat0", "seat1"])
                == "uid 1001 may not pause: changing the daemon is for root, the daemon's own user (uid 998), the user of the active session on seat0 or seat1; no control group is set (gestured --control-group); subscribing, status and ping are for every client"
        )
    }

    @Test func theSeatsAreThoseOfTheTouchscreensInUseElseSeat0() {
        #expect(DaemonInfo().seats == ["seat0"])
        let info = DaemonInfo(devices: [
            .init(name: "a", node: "/dev/input/event1", sizeMM: Point(x: 1, y: 1)),
            .init(name: "b", node: "/dev/input/event2", sizeMM: Point(x: 1, y: 1), seat: "seat1"),
            .init(name: "c", node: "/dev/input/event3", sizeMM: Point(x: 1, y: 1)),
        ])
        #expect(info.seats == ["seat0", "seat1"])
    }

    /// The seat comes from udev's ID_SEAT, as logind assigns devices to seats.
    @Test func aTouchscreensSeatIsItsUdevIDSeat() throws {
        var d = EmbeddedDaemon()
        _ = d.plug(ControlTests.panel("Seat One Panel"), event: 4, properties: ["ID_SEAT": "seat1"])
        _ = d.plug(ControlTests.panel("Plain Panel"), event: 5)
        d.start()
        let seats = Dictionary(uniqueKeysWithValues: d.core.info.devices.map { ($0.name, $0.seat) })
        #expect(seats == ["Seat One Panel": "seat1", "Plain Panel": "seat0"])
    }
}

/// The same rights through the socket, with a real peer: a client that may
/// only subscribe gets `not_permitted` and changes nothing, and the log names
/// its uid; one in the control group or at the seat is carried out.
@Suite(.serialized) struct ControlRightsSocketTests {
    final class Recorder: DaemonControl {
        var requests: [(ControlRequest, String)] = []
        func control(_ request: ControlRequest, from client: String) -> ControlReply {
            requests.append((request, client))
            return .rotated(.cw90, devices: [])
        }
    }

    /// As root, the peer is `nobody` (setpriv), with `groups`; otherwise it is
    /// this test's own user, and the daemon is given another uid.
    struct Peer {
        let uid: UInt32
        let gid: UInt32
        let prefix: [String]
        init(groups: [UInt32]) {
            if geteuid() == 0 {
                uid = 65534
                gid = 65534
                prefix = [
                    "/usr/bin/setpriv", "--reuid=65534", "--regid=65534",
                    groups.isEmpty ? "--clear-groups" : "--groups=" + groups.map(String.init).joined(separator: ","),
                ]
            } else {
                uid = getuid()
                gid = getgid()
                prefix = []
            }
        }
        /// The peer's own group when not root, else a supplementary one set by setpriv.
        func controlGroup(_ extra: UInt32) -> UInt32 { geteuid() == 0 ? extra : gid }
    }

    func gesturectl() throws -> String {
        let exe = try #require(selfExecutable())
        let path = String(exe[..<(exe.lastIndex(of: "/") ?? exe.startIndex)]) + "/gesturectl"
        try #require(access(path, X_OK) == 0, "no gesturectl next to the tests at \(path)")
        return path
    }

    func run(_ peer: Peer, _ args: [String], _ server: SocketServer, _ driver: PollDriver) throws -> (Int32, String) {
        if geteuid() == 0 {
            try #require(access("/usr/bin/setpriv", X_OK) == 0, "setpriv (util-linux) is needed as root")
        }
        // stderr too: gesturectl says there why it was refused.
        return runWhilePumping(
            ["/bin/sh", "-c", "exec \"$@\" 2>&1", "sh"] + peer.prefix + [try gesturectl()] + args,
            server: server, driver: driver)
    }

    @Test func aPeerWithoutRightsIsRefusedAndOneWithThemIsCarriedOut() throws {
        let path = temporarySocketPath("rights")
        var logs: [String] = []
        let server = SocketServer(
            listener: try ListeningSocket.bind(path: path, mode: 0o666, group: nil), info: DaemonInfo(),
            log: { logs.append($0) })
        let recorder = Recorder()
        server.controller = recorder
        let driver = PollDriver()
        server.start(on: driver)
        defer { server.shutdown() }
        let extraGroup: UInt32 = 4242
        let plain = Peer(groups: [])
        server.rights = ControlRights(daemonUID: plain.uid &+ 1)
        var atTheSeat: UInt32?
        server.activeSessionUser = { seat in seat == "seat0" ? atTheSeat : nil }

        // Subscribers' rights only: refused, with who may and what to do.
        var (status, out) = try run(plain, ["rotate", "90", "--socket", path], server, driver)
        #expect(status == 1)
        #expect(
            out.contains(
                "gesturectl rotate: uid \(plain.uid) may not rotate: changing the daemon is for root, the daemon's own user"
            ), "\(out)")
        #expect(out.contains("(not_permitted)"), "\(out)")
        #expect(out.contains("run gesturectl as the user logged in at the touchscreen"), "\(out)")
        #expect(recorder.requests.isEmpty)
        #expect(logs.contains { $0.hasSuffix("uid \(plain.uid)): rotate refused: not permitted") }, "\(logs)")
        // Reading stays open to it.
        (status, out) = try run(plain, ["status", "--socket", path], server, driver)
        #expect(status == 0, "\(out)")

        // In the control group (a supplementary group when root can set one).
        let member = Peer(groups: [extraGroup])
        server.rights = ControlRights(
            daemonUID: plain.uid &+ 1,
            controlGroup: .init(name: "ctl", gid: member.controlGroup(extraGroup)))
        (status, out) = try run(member, ["rotate", "90", "--socket", path], server, driver)
        #expect(status == 0, "\(out)")
        #expect(recorder.requests.last?.1.hasSuffix("uid \(member.uid), group 'ctl')") == true, "\(recorder.requests)")

        // The user of the seat's active session.
        server.rights = ControlRights(daemonUID: plain.uid &+ 1)
        atTheSeat = plain.uid
        (status, out) = try run(plain, ["pause", "--socket", path], server, driver)
        #expect(recorder.requests.count == 2, "\(out)")
        #expect(recorder.requests.last?.0 == .pause)
        #expect(
            recorder.requests.last?.1.hasSuffix("uid \(plain.uid), active session on seat0)") == true,
            "\(recorder.requests)")
        // Someone else at the seat: refused again.
        atTheSeat = plain.uid &+ 2
        (status, _) = try run(plain, ["resume", "--socket", path], server, driver)
        #expect(status == 1)
        #expect(recorder.requests.count == 2)
    }

    /// `status` lists other users' clients (their pids and filters) only to
    /// those who may change the daemon; anyone else sees their own.
    @Test(.enabled(if: geteuid() == 0, "a second uid needs root"))
    func statusShowsOtherUsersClientsOnlyToThoseWhoMayChangeTheDaemon() throws {
        let path = temporarySocketPath("status-rights")
        let server = SocketServer(
            listener: try ListeningSocket.bind(path: path, mode: 0o666, group: nil), info: DaemonInfo(),
            log: { _ in })
        let driver = PollDriver()
        server.start(on: driver)
        defer { server.shutdown() }
        let plain = Peer(groups: [])
        server.rights = ControlRights(daemonUID: plain.uid &+ 1)
        server.activeSessionUser = { _ in nil }
        // Root's own client, connected before either asks.
        let roots = try DaemonConnection(path: path)
        defer { _ = roots }
        func uids(_ out: String) -> [Int]? {
            let line = out.split(separator: "\n").first { $0.hasPrefix("{") }.map(String.init) ?? ""
            guard let v = try? JSONValue.parse(line), case .array(let list)? = v["clients"] else { return nil }
            return list.compactMap { if case .number(let u)? = $0["uid"] { Int(u) } else { nil } }
        }
        var (status, out) = try run(plain, ["status", "--json", "--socket", path], server, driver)
        #expect(status == 0, "\(out)")
        #expect(uids(out) == [Int(plain.uid)], "\(out)")
        let member = Peer(groups: [4242])
        server.rights = ControlRights(daemonUID: plain.uid &+ 1, controlGroup: .init(name: "ctl", gid: 4242))
        (status, out) = try run(member, ["status", "--json", "--socket", path], server, driver)
        #expect(status == 0, "\(out)")
        #expect(uids(out)?.sorted() == [0, Int(member.uid)], "\(out)")
    }

    /// Every slot taken by one user: another user still gets in, in place of
    /// that user's oldest client, which is told why.
    @Test(.enabled(if: geteuid() == 0, "a second uid needs root"))
    func aUserWithFewerClientsTakesTheSlotOfTheOneWithMost() throws {
        let path = temporarySocketPath("fair-share")
        var limits = SocketServer.Limits()
        limits.maxClients = 3
        var logs: [String] = []
        let server = SocketServer(
            listener: try ListeningSocket.bind(path: path, mode: 0o666, group: nil), info: DaemonInfo(),
            limits: limits, log: { logs.append($0) })
        let driver = PollDriver()
        server.start(on: driver)
        defer { server.shutdown() }
        server.activeSessionUser = { _ in nil }
        var roots: [DaemonConnection] = []
        for _ in 0..<3 {
            roots.append(try DaemonConnection(path: path))
            _ = driver.turn(server, timeoutMS: 1000)
        }
        let plain = Peer(groups: [])
        let (status, out) = try run(plain, ["status", "--socket", path], server, driver)
        #expect(status == 0, "\(out)")
        // The oldest of root's three heard why, after its hello.
        var heard: [String] = []
        while case .line(let l) = roots[0].readLine(timeoutMS: 1000) { heard.append(l) }
        #expect(heard.last?.contains("\"code\":\"too_many_clients\"") == true, "\(heard)")
        #expect(heard.last?.contains("closed to make room for a client of another user") == true, "\(heard)")
        #expect(logs.contains { $0.contains("closed to make room for client") }, "\(logs)")
    }

    /// The reply to a refused request carries its id; the connection stays.
    /// (This process must not be root, which may always: as root the test
    /// above shows the refusal through gesturectl.)
    @Test(.enabled(if: geteuid() != 0)) func theRefusalIsAnErrorWithTheRequestsID() throws {
        let path = temporarySocketPath("refusedid")
        let server = SocketServer(
            listener: try ListeningSocket.bind(path: path, group: nil), info: DaemonInfo(), log: { _ in })
        let recorder = Recorder()
        server.controller = recorder
        server.rights = ControlRights(daemonUID: getuid() &+ 1)
        let driver = PollDriver()
        server.start(on: driver)
        defer { server.shutdown() }
        let c = try TestClient(path: path)
        _ = c.line(server, driver)
        c.send(#"{"cmd":"profile","name":"locked","id":7}"# + "\n" + #"{"cmd":"ping","id":8}"# + "\n")
        let refused = try JSONValue.parse(#require(c.line(server, driver)))
        #expect(refused["code"] == .string("not_permitted"))
        #expect(refused["id"] == .number(7))
        #expect(refused["final"] == nil)
        #expect(try #require(c.line(server, driver)) == #"{"type":"pong","id":8}"#)
        #expect(recorder.requests.isEmpty)
    }

    /// SO_PEERGROUPS: the supplementary groups the peer had when it connected.
    @Test func aPeersSupplementaryGroupsAreRead() throws {
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer {
            close(pair[0])
            close(pair[1])
        }
        let n = getgroups(0, nil)
        var mine = [gid_t](repeating: 0, count: Int(max(n, 0)))
        _ = getgroups(n, &mine)
        let cred = try #require(SocketSys.peerCredentials(pair[0]))
        #expect(cred.uid == geteuid())
        #expect(Set(cred.groups) == Set(mine))
    }
}
