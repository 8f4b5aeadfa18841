import GestureCore
import Glibc
import LinuxSystem
import Testing

@testable import GestureClient
@testable import GestureDaemon
@testable import GestureProtocol

/// What one client can make the daemon do: bounded work per request and per
/// turn of the loop, bounded filters, a fair share of the client slots, logs
/// that cannot be forged or flooded.
@Suite(.serialized) struct RequestLoadTests {
    let info = DaemonInfo(
        devices: [.init(name: "Test Touchscreen", node: "/dev/input/event5", sizeMM: Point(x: 200, y: 120))],
        recognizers: [.init(name: "tap", kind: .tap), .init(name: "circle", kind: .circle)])

    func makeServer(
        _ tag: String, info: DaemonInfo? = nil, limits: SocketServer.Limits = .init(),
        clock: FakeClock? = nil, log: @escaping (String) -> Void = { _ in }
    ) throws -> (SocketServer, PollDriver, String) {
        let path = temporarySocketPath(tag)
        let listener = try ListeningSocket.bind(path: path, group: nil)
        let server: SocketServer
        if let clock {
            server = SocketServer(
                listener: listener, info: info ?? self.info, limits: limits, clock: { clock.now }, log: log)
        } else {
            server = SocketServer(listener: listener, info: info ?? self.info, limits: limits, log: log)
        }
        let driver = PollDriver()
        server.start(on: driver)
        return (server, driver, path)
    }

    @Test func seventyStatusRequestsInOneWriteAreAnsweredAFewPerTurnInOrder() throws {
        let (server, driver, path) = try makeServer("statusflood")
        defer { server.shutdown() }
        let c = try TestClient(path: path)
        _ = c.line(server, driver)
        c.send((0..<70).map { "{\"cmd\":\"status\",\"id\":\($0)}\n" }.joined())
        // One turn of the loop with the request bytes ready.
        var fds = [pollfd(fd: c.fd, events: 0, revents: 0)]
        _ = poll(&fds, 1, 0)
        driver.turn(server, timeoutMS: 1000)
        c.pull()
        let firstTurn = c.takeLines().count
        #expect(firstTurn <= 4, "one turn answered \(firstTurn) status requests")
        var ids = Array(0..<firstTurn)
        for _ in 0..<200 where ids.count < 70 {
            driver.turn(server, timeoutMS: 5)
            c.pull()
            for l in c.takeLines() { ids.append(Int(try JSONValue.parse(l)["id"]?.number ?? -1)) }
        }
        #expect(ids == Array(0..<70), "every request answered, in order")
    }

    @Test func theSessionAnswersABatchPerCallAndKeepsTheRest() {
        var s = ClientSession()
        let first = s.received(Array((0..<40).map { "{\"cmd\":\"ping\",\"id\":\($0)}\n" }.joined().utf8))
        #expect(first.count == 16)
        #expect(s.hasPendingInput)
        #expect(s.resume().count == 16)
        let last = s.resume()
        #expect(last.count == 8)
        #expect(last.last == .send("{\"type\":\"pong\",\"id\":39}"))
        #expect(!s.hasPendingInput)
        // A status is worth several pings.
        var t = ClientSession()
        let statuses = t.received(Array((0..<10).map { _ in "{\"cmd\":\"status\"}\n" }.joined().utf8))
        #expect(statuses.count == 2)
    }

    @Test func aFilterOverItsLimitsIsRefusedWithTheLimit() {
        var s = ClientSession()
        let many = (0..<33).map { "\"n\($0)\"" }.joined(separator: ",")
        let a = s.received(Array("{\"cmd\":\"subscribe\",\"name\":[\(many)]}\n".utf8))
        #expect(a.count == 1)
        let e = try? JSONValue.parse(a.first.flatMap { if case .send(let l) = $0 { l } else { nil } } ?? "")
        #expect(e?["code"] == .string("bad_argument"))
        #expect(e?["message"]?.string?.contains("at most 32") == true)
        let long = (0..<20).map { "\"" + String(repeating: "x", count: 60) + "\($0)\"" }.joined(separator: ",")
        let b = s.received(Array("{\"cmd\":\"subscribe\",\"name\":[\(long)]}\n".utf8))
        let e2 = try? JSONValue.parse(b.first.flatMap { if case .send(let l) = $0 { l } else { nil } } ?? "")
        #expect(e2?["message"]?.string?.contains("at most 1024") == true)
        #expect(s.subscription == nil)
    }

    @Test func aClientAskingForStatusFasterThanItReadsWaitsWithinTheBound() throws {
        var limits = SocketServer.Limits()
        limits.queue = .init(maxLines: 1024, maxBytes: 8192)
        let (server, driver, path) = try makeServer("statusfit", limits: limits)
        defer { server.shutdown() }
        // Subscribers with sizeable filters make each status reply large.
        let others = try (0..<8).map { _ in try TestClient(path: path) }
        let names = (0..<10).map { "\"recognizer_\($0)_with_a_long_name\"" }.joined(separator: ",")
        for o in others {
            _ = o.line(server, driver)
            o.send("{\"cmd\":\"subscribe\",\"name\":[\(names)]}\n")
            _ = o.line(server, driver)
        }
        let c = try TestClient(path: path)
        _ = c.line(server, driver)
        // It does not read: the socket fills, then the queue up to its bound;
        // the rest waits, unbuilt, and the client is not dropped.
        c.send((0..<200).map { "{\"cmd\":\"status\",\"id\":\($0)}\n" }.joined())
        for _ in 0..<100 { driver.turn(server, timeoutMS: 1) }
        #expect(server.clientCount == 9)
        #expect(server.subscribersDropped == 0)
        // When it reads, every reply comes, in order.
        var ids: [Int] = []
        while ids.count < 200, let l = c.line(server, driver) {
            ids.append(Int(try JSONValue.parse(l)["id"]?.number ?? -1))
        }
        #expect(ids == Array(0..<200))
    }

    @Test func helloLargerThanTheQueueBoundIsStillSent() throws {
        var limits = SocketServer.Limits()
        limits.queue = .init(maxLines: 1024, maxBytes: 256)
        let big = DaemonInfo(
            devices: info.devices,
            recognizers: (0..<40).map { .init(name: "recognizer_\($0)", kind: .tap) })
        let (server, driver, path) = try makeServer("bighello", info: big, limits: limits)
        defer { server.shutdown() }
        let c = try TestClient(path: path)
        let hello = try JSONValue.parse(#require(c.line(server, driver)))
        #expect(hello["type"] == .string("hello"))
        guard case .array(let rs)? = hello["recognizers"] else {
            Issue.record("no recognizers")
            return
        }
        #expect(rs.count == 40)
    }

    @Test func oneUserCannotTakeEveryClientSlot() throws {
        let (server, driver, path) = try makeServer("peruser")
        defer { server.shutdown() }
        var clients: [TestClient] = []
        var hellos = 0, refusals: [String] = []
        for _ in 0..<40 {
            let c = try TestClient(path: path)
            clients.append(c)
            guard let l = c.line(server, driver), let v = try? JSONValue.parse(l) else { continue }
            if v["type"] == .string("hello") { hellos += 1 }
            if v["code"] == .string("too_many_clients") { refusals.append(v["message"]?.string ?? "") }
        }
        #expect(hellos == 32)
        #expect(refusals.count == 8)
        #expect(refusals.first?.contains("uid \(getuid())") == true)
        #expect(server.clientCount == 32)
    }

    @Test func aProcessNameCannotForgeLogLinesAndFiltersAreNotLoggedWhole() throws {
        var logs: [String] = []
        let (server, driver, path) = try makeServer("logs", log: { logs.append($0) })
        defer { server.shutdown() }
        let original = readWholeFile("/proc/self/comm") ?? "gestured-tests\n"
        writeWholeFile("/proc/self/comm", "x\nforged: y\u{1b}[2J")
        defer { writeWholeFile("/proc/self/comm", original) }
        let c = try TestClient(path: path)
        _ = c.line(server, driver)
        let names = (0..<30).map { "\"name\($0)\"" }.joined(separator: ",")
        c.send("{\"cmd\":\"subscribe\",\"name\":[\(names)]}\n")
        _ = c.line(server, driver)
        #expect(!logs.isEmpty)
        for l in logs {
            #expect(!l.contains("\n") && !l.contains("\u{1b}"), "a raw control character reached the log: \(l)")
            #expect(l.utf8.count < 300, "a log line of \(l.utf8.count) bytes")
            #expect(!l.contains("name29"), "the filter was logged whole: \(l)")
        }
        #expect(logs.contains { $0.contains("x\\nforged") })
    }

    @Test func aClientReconnectingInALoopDoesNotFloodTheLog() throws {
        var logs: [String] = []
        let clock = FakeClock()
        let (server, driver, path) = try makeServer("logflood", clock: clock, log: { logs.append($0) })
        defer { server.shutdown() }
        for _ in 0..<200 {
            let c = try TestClient(path: path)
            _ = c.line(server, driver, now: clock.now)
        }
        for _ in 0..<10 { driver.turn(server, timeoutMS: 2, now: clock.now) }
        #expect(server.clientCount == 0)
        #expect(logs.count <= 30, "\(logs.count) lines for 200 connections in one second")
        clock.advance(ms: 11_000)
        let c = try TestClient(path: path)
        _ = c.line(server, driver, now: clock.now)
        #expect(
            logs.last?.contains("suppressed") == true,
            "the next window does not say what was held back: \(logs.last ?? "")")
    }

    @Test func statusNamesWithTerminalEscapesArePrintedEscaped() throws {
        let evil = DaemonInfo(
            devices: [
                .init(
                    name: "Evil\u{1b}]0;pwned\u{07}\u{1b}[2JTouch", node: "/dev/input/event9",
                    sizeMM: Point(x: 100, y: 60))
            ],
            recognizers: [.init(name: "tap\u{1b}[31m", kind: .tap)])
        let (server, driver, path) = try makeServer("ctlstatus", info: evil)
        defer { server.shutdown() }
        let exe = try #require(selfExecutable())
        let gesturectl = String(exe[..<(exe.lastIndex(of: "/") ?? exe.startIndex)]) + "/gesturectl"
        guard access(gesturectl, X_OK) == 0 else {
            Issue.record("no gesturectl next to the tests at \(gesturectl)")
            return
        }
        let (status, output) = runWhilePumping(
            [gesturectl, "status", "--socket", path], server: server, driver: driver)
        #expect(status == 0)
        #expect(!output.contains("\u{1b}") && !output.contains("\u{07}"), "raw escapes reached the terminal: \(output)")
        #expect(output.contains("Evil\\u{1b}]0;pwned"))
    }

    @Test func helloSaysWhenADeviceSizeIsAGuess() throws {
        let guessed = DaemonInfo(devices: [
            .init(
                name: "No Resolution", node: "/dev/input/event3",
                sizeMM: Point(x: 150, y: 84), sizeSource: .fallback)
        ])
        let (server, driver, path) = try makeServer("fallback", info: guessed)
        defer { server.shutdown() }
        let c = try TestClient(path: path)
        let hello = try JSONValue.parse(#require(c.line(server, driver)))
        guard case .array(let ds)? = hello["devices"] else {
            Issue.record("no devices")
            return
        }
        #expect(ds.first?["size_source"] == .string("fallback"))
    }

    @Test func subscribedListsNamesNoRecognizerHas() throws {
        let (server, driver, path) = try makeServer("unknown")
        defer { server.shutdown() }
        let c = try TestClient(path: path)
        _ = c.line(server, driver)
        c.send("{\"cmd\":\"subscribe\",\"name\":[\"tap\",\"doubletap\"]}\n")
        let reply = try JSONValue.parse(#require(c.line(server, driver)))
        #expect(reply["type"] == .string("subscribed"))
        #expect(reply["unknown_names"] == .array([.string("doubletap")]))
    }
}

/// Runs a program while turning the server's loop, so it can talk to the
/// server on this thread; its exit status and standard output.
func runWhilePumping(_ args: [String], server: SocketServer, driver: PollDriver) -> (Int32, String) {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { return (-1, "") }
    _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var pid: pid_t = 0
    var env: [String] = []
    var p = environ
    while let entry = p.pointee {
        env.append(String(cString: entry))
        p += 1
    }
    let r = withCStrings(args) { a in withCStrings(env) { e in posix_spawn(&pid, args[0], &actions, nil, a, e) } }
    close(fds[1])
    defer { close(fds[0]) }
    guard r == 0 else { return (-1, "") }
    var out: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 4096)
    var status: Int32 = 0
    var exited = false
    // At most 60 s: a program can take seconds to start on a loaded machine.
    let end = monotonicNow() + Millis(60_000)
    while monotonicNow() < end {
        driver.turn(server, timeoutMS: 5)
        while true {
            let n = read(fds[0], &buf, buf.count)
            if n > 0 { out += buf[0..<n] } else { break }
        }
        if waitpid(pid, &status, WNOHANG) == pid {
            exited = true
            break
        }
    }
    if !exited {
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
        return (-1, String(decoding: out, as: UTF8.self))
    }
    while true {
        let n = read(fds[0], &buf, buf.count)
        if n > 0 { out += buf[0..<n] } else { break }
    }
    return (status & 0x7f == 0 ? (status >> 8) & 0xff : -1, String(decoding: out, as: UTF8.self))
}
