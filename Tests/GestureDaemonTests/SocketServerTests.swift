import GestureCore
import Glibc
import LinuxSystem
import Testing

@testable import GestureDaemon
@testable import GestureProtocol

/// A minimal poll(2) driver for the server in tests: the daemon uses its epoll
/// `EventLoop`; this one only has to deliver the same level-triggered readiness.
final class PollDriver: SocketServerLoop {
    var interest: [Int32: (readable: Bool, writable: Bool)] = [:]
    func watch(_ fd: Int32, readable: Bool, writable: Bool) { interest[fd] = (readable, writable) }
    func unwatch(_ fd: Int32) { interest[fd] = nil }

    /// One round of readiness, dispatched to `server`, then its deadlines at
    /// `now` (the real clock unless the test fakes it); the number of
    /// descriptors that were ready.
    @discardableResult
    func turn(_ server: SocketServer, timeoutMS: Int32 = 0, now: EventTime? = nil) -> Int {
        var fds = interest.map { fd, i in
            pollfd(fd: fd, events: Int16((i.readable ? POLLIN : 0) | (i.writable ? POLLOUT : 0)), revents: 0)
        }
        var ready = 0
        if poll(&fds, nfds_t(fds.count), timeoutMS) > 0 {
            for p in fds where p.revents != 0 {
                ready += 1
                server.handle(
                    fd: p.fd, readable: p.revents & Int16(POLLIN) != 0, writable: p.revents & Int16(POLLOUT) != 0,
                    hangup: p.revents & Int16(POLLHUP | POLLERR) != 0)
            }
        }
        server.expire(now: now ?? monotonicNow())
        return ready
    }
}

/// A test client on a real Unix socket, non-blocking, reading whole lines.
final class TestClient {
    let fd: Int32
    var buffer: [UInt8] = []
    var eof = false

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let r = try SocketSys.withAddress(path) { connect(fd, $0, $1) }
        if r != 0 { throw SocketError("connect", errno: errno) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
    deinit { close(fd) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        precondition(n == bytes.count)
    }

    /// Reads what is there now.
    func pull() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                buffer += chunk[0..<n]
                continue
            }
            if n == 0 { eof = true }
            return
        }
    }

    func takeLines() -> [String] {
        var out: [String] = []
        while let nl = buffer.firstIndex(of: 0x0A) {
            out.append(String(decoding: buffer[..<nl], as: UTF8.self))
            buffer.removeSubrange(...nl)
        }
        return out
    }

    /// Pumps the server until a whole line arrives.
    func line(_ server: SocketServer, _ driver: PollDriver, now: EventTime? = nil) -> String? {
        for _ in 0..<200 {
            if let nl = buffer.firstIndex(of: 0x0A) {
                let l = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                return l
            }
            if eof { return nil }
            driver.turn(server, timeoutMS: 10, now: now)
            pull()
        }
        return nil
    }
}

func temporarySocketPath(_ tag: String) -> String {
    "/tmp/gestured-test-\(getpid())-\(tag).sock"
}

func makeEvent(_ i: Int, kind: GestureKind = .tap, state: GestureState = .recognized) -> GestureEvent {
    GestureEvent(
        name: kind.rawValue, kind: kind, state: state, time: .seconds(Double(i)), device: "Test Touchscreen",
        fingers: 1, location: Point(x: Double(i), y: 2), locationNormalised: Point(x: 0.5, y: 0.5),
        detail: kind == .tap ? .tap(taps: 1) : .none, reason: state == .failed ? .tap(.moved(9, max: 5)) : nil)
}

@Suite(.serialized) struct SocketServerTests {
    let info = DaemonInfo(
        devices: [.init(name: "Test Touchscreen", node: "/dev/input/event5", sizeMM: Point(x: 200, y: 120))],
        recognizers: [.init(name: "tap", kind: .tap), .init(name: "circle", kind: .circle)])

    func makeServer(_ tag: String, limits: SocketServer.Limits = .init()) throws -> (SocketServer, PollDriver, String) {
        let path = temporarySocketPath(tag)
        let listener = try ListeningSocket.bind(path: path, group: nil)
        let server = SocketServer(listener: listener, info: info, limits: limits, log: { _ in })
        let driver = PollDriver()
        server.start(on: driver)
        return (server, driver, path)
    }

    @Test func helloSubscribeAndReceiveAnEvent() throws {
        let (server, driver, path) = try makeServer("hello")
        defer { server.shutdown() }
        var st = stat()
        #expect(stat(path, &st) == 0)
        #expect(st.st_mode & 0o777 == 0o660)

        let c = try TestClient(path: path)
        let hello = try JSONValue.parse(#require(c.line(server, driver)))
        #expect(hello["type"] == .string("hello"))
        #expect(hello["protocol"] == .number(1))
        let inDefault = JSONValue.array([.string("default")])
        #expect(
            hello["recognizers"]
                == .array([
                    .object([("name", .string("tap")), ("kind", .string("tap")), ("profiles", inDefault)]),
                    .object([("name", .string("circle")), ("kind", .string("circle")), ("profiles", inDefault)]),
                ]))
        #expect(hello["profile"] == .string("default"))
        #expect(hello["paused"] == .bool(false))
        guard case .array(let devices)? = hello["devices"] else {
            Issue.record("no devices in hello")
            return
        }
        #expect(devices.first?["rotation"] == .number(0))

        c.send("{\"cmd\":\"subscribe\",\"kind\":\"tap\",\"id\":1}\n")
        let subscribed = try JSONValue.parse(#require(c.line(server, driver)))
        #expect(subscribed["type"] == .string("subscribed"))
        #expect(subscribed["id"] == .number(1))

        server.publish(makeEvent(1, kind: .circle), frameTime: .seconds(0.9))  // filtered out
        server.publish(makeEvent(2), frameTime: .seconds(1.9))
        let e = try JSONValue.parse(#require(c.line(server, driver)))
        #expect(e["type"] == .string("event"))
        #expect(e["kind"] == .string("tap"))
        #expect(e["time"] == .number(2))
        #expect(e["frame_time"] == .number(1.9))
        #expect(e["taps"] == .number(1))
        #expect(server.eventsPublished == 1)

        c.send("{\"cmd\":\"status\"}\n")
        let status = try JSONValue.parse(#require(c.line(server, driver)))
        #expect(status["type"] == .string("status"))
        guard case .array(let clients)? = status["clients"] else {
            Issue.record("no clients")
            return
        }
        #expect(clients.count == 1)
        #expect(clients[0]["pid"] == .number(Double(getpid())))
        #expect(clients[0]["subscribed"] == .bool(true))
    }

    @Test func malformedLineGetsAnErrorAndTheConnectionLives() throws {
        let (server, driver, path) = try makeServer("malformed")
        defer { server.shutdown() }
        let c = try TestClient(path: path)
        _ = c.line(server, driver)
        c.send("this is not json\n")
        let err = try JSONValue.parse(#require(c.line(server, driver)))
        #expect(err["type"] == .string("error"))
        #expect(err["code"] == .string("malformed"))
        c.send("{\"cmd\":\"ping\"}\n")
        #expect(c.line(server, driver) == "{\"type\":\"pong\"}")
    }

    @Test func floodOfBadLinesEndsInADisconnect() throws {
        let (server, driver, path) = try makeServer("flood")
        defer { server.shutdown() }
        let c = try TestClient(path: path)
        _ = c.line(server, driver)
        c.send(String(repeating: "x", count: 70_000) + "\n" + String(repeating: "{\n", count: 10))
        var codes: [String] = []
        while let l = c.line(server, driver) { codes.append(try JSONValue.parse(l)["code"]?.string ?? "?") }
        #expect(codes == ["line_too_long", "malformed", "malformed", "malformed", "malformed", "too_many_errors"])
        #expect(c.eof)
        #expect(server.clientCount == 0)
    }

    @Test func stalledSubscriberIsDroppedWhileAnotherReceivesEveryEvent() throws {
        var limits = SocketServer.Limits()
        limits.queue = .init(maxLines: 64, maxBytes: 16 * 1024)
        let (server, driver, path) = try makeServer("stall", limits: limits)
        defer { server.shutdown() }
        let reader = try TestClient(path: path)
        let stalled = try TestClient(path: path)
        for c in [reader, stalled] {
            _ = c.line(server, driver)
            c.send("{\"cmd\":\"subscribe\"}\n")
            _ = c.line(server, driver)
        }
        let total = 20_000
        var received = 0
        for i in 0..<total {
            server.publish(makeEvent(i), frameTime: .seconds(Double(i)))
            if i % 8 == 0 {
                driver.turn(server)
                reader.pull()
                received += reader.takeLines().count
            }
        }
        for _ in 0..<100 where received < total {
            driver.turn(server, timeoutMS: 5)
            reader.pull()
            received += reader.takeLines().count
        }
        #expect(received == total)
        #expect(server.subscribersDropped == 1)
        #expect(server.subscriberCount == 1)

        // The stalled one wakes up: it finds the events it had, then the final error, then EOF.
        var last: String?
        var count = 0
        while let l = stalled.line(server, driver) {
            last = l
            count += 1
        }
        #expect(stalled.eof)
        #expect(count < total)
        let final = try JSONValue.parse(#require(last))
        #expect(final["code"] == .string("slow_consumer"))
        #expect(final["final"] == .bool(true))
    }

    @Test func failuresOnlyForThoseWhoAsk() throws {
        let (server, driver, path) = try makeServer("failures")
        defer { server.shutdown() }
        let plain = try TestClient(path: path)
        let wants = try TestClient(path: path)
        _ = plain.line(server, driver)
        _ = wants.line(server, driver)
        plain.send("{\"cmd\":\"subscribe\"}\n")
        _ = plain.line(server, driver)
        wants.send("{\"cmd\":\"subscribe\",\"failures\":true}\n")
        _ = wants.line(server, driver)
        server.publish(makeEvent(1, state: .failed), frameTime: .seconds(1))
        server.publish(makeEvent(2), frameTime: .seconds(2))
        let w1 = try JSONValue.parse(#require(wants.line(server, driver)))
        #expect(w1["state"] == .string("failed"))
        #expect(w1["reason"] == .string("moved 9.0 mm > 5.0 mm"))
        let p1 = try JSONValue.parse(#require(plain.line(server, driver)))
        #expect(p1["state"] == .string("recognized"))
    }

    @Test func staleSocketIsReplacedLiveOneIsAnError() throws {
        let path = temporarySocketPath("stale")
        // A stale file: bound, then its owner closed without unlinking.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        _ = try SocketSys.withAddress(path) { Glibc.bind(fd, $0, $1) }
        close(fd)
        let first = try ListeningSocket.bind(path: path, group: nil)
        #expect(throws: SocketError.self) { _ = try ListeningSocket.bind(path: path, group: nil) }
        do {
            _ = try ListeningSocket.bind(path: path, group: nil)
        } catch {
            #expect(error.description.contains("another gestured is already listening"))
        }
        first.close()
        var st = stat()
        #expect(stat(path, &st) != 0)  // removed on close
    }

    @Test func clientGoingAwayMidStreamIsForgotten() throws {
        let (server, driver, path) = try makeServer("gone")
        defer { server.shutdown() }
        var c: TestClient? = try TestClient(path: path)
        _ = c!.line(server, driver)
        c!.send("{\"cmd\":\"subscribe\"}\n")
        _ = c!.line(server, driver)
        c = nil
        for i in 0..<10 {
            server.publish(makeEvent(i), frameTime: .seconds(1))
            driver.turn(server)
        }
        #expect(server.clientCount == 0)
    }

    /// The daemon publishes every event of a loop turn, then flushes once: a
    /// subscriber gets them together, in order, stamped with one `emitted`.
    @Test func eventsOfOneTurnLeaveTogetherOnTheFlush() throws {
        let (server, driver, path) = try makeServer("turn")
        defer { server.shutdown() }
        let a = try TestClient(path: path), b = try TestClient(path: path)
        for c in [a, b] {
            _ = c.line(server, driver)
            c.send("{\"cmd\":\"subscribe\"}\n")
            _ = c.line(server, driver)
        }
        for i in 1...5 { server.publish(makeEvent(i), frameTime: .seconds(Double(i)), flush: false) }
        a.pull()
        #expect(a.takeLines().isEmpty)
        server.flushPublished()
        for c in [a, b] {
            c.pull()
            let events = try c.takeLines().map { try JSONValue.parse($0) }
            #expect(events.map { $0["time"] } == (1...5).map { .number(Double($0)) })
            #expect(Set(events.compactMap { $0["emitted"]?.number }).count == 1)
        }
        #expect(server.eventsPublished == 5)
    }

    /// Event lines are reused once written; a line still queued for a reader
    /// that lags must keep its event while later events pass through the others.
    @Test func aLineQueuedForALaggingReaderIsNotReused() throws {
        let (server, driver, path) = try makeServer("reuse")
        defer { server.shutdown() }
        let quick = try TestClient(path: path), lagging = try TestClient(path: path)
        for c in [quick, lagging] {
            _ = c.line(server, driver)
            c.send("{\"cmd\":\"subscribe\"}\n")
            _ = c.line(server, driver)
        }
        // More than the lagging reader's socket holds: the rest waits in its queue.
        let total = 600
        var quickTimes: [Double] = []
        for i in 0..<total {
            server.publish(makeEvent(i), frameTime: .seconds(Double(i)))
            quick.pull()
            quickTimes += try quick.takeLines().map { try JSONValue.parse($0)["time"]?.number ?? -1 }
        }
        #expect(quickTimes == (0..<total).map(Double.init))
        var laggingTimes: [Double] = []
        while laggingTimes.count < total, let l = lagging.line(server, driver) {
            laggingTimes.append(try JSONValue.parse(l)["time"]?.number ?? -1)
        }
        #expect(laggingTimes == (0..<total).map(Double.init))
        #expect(server.subscribersDropped == 0)
    }
}
