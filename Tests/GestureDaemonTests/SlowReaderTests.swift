import GestureCore
import Glibc
import Testing

@testable import GestureDaemon
@testable import GestureProtocol

func panEvent(_ state: GestureState, _ i: Int, name: String = "pan") -> GestureEvent {
    GestureEvent(
        name: name, kind: .pan, state: state, time: .milliseconds(Double(i) * 10), device: "Test Touchscreen",
        fingers: 1, location: Point(x: Double(i), y: 2), locationNormalised: Point(x: 0.5, y: 0.5),
        detail: .pan(translation: Point(x: Double(i), y: 0), velocity: Point(x: 100, y: 0)),
        reason: state == .cancelled ? .teardown(.daemonStopping) : nil)
}

/// A subscriber that reads slowly: it learns why it was dropped, `status` shows
/// what the kernel holds for it, and it can ask for fewer `changed` events.
@Suite(.serialized) struct SlowReaderTests {
    func makeServer(_ tag: String, clock: FakeClock, limits: SocketServer.Limits = .init()) throws -> (
        SocketServer, PollDriver, String
    ) {
        let path = temporarySocketPath(tag)
        let listener = try ListeningSocket.bind(path: path, group: nil)
        let server = SocketServer(
            listener: listener, info: DaemonInfo(recognizers: [.init(name: "pan", kind: .pan)]),
            limits: limits, clock: { clock.now }, log: { _ in })
        let driver = PollDriver()
        server.start(on: driver)
        return (server, driver, path)
    }

    func subscribe(_ c: TestClient, _ request: String, _ server: SocketServer, _ driver: PollDriver, _ clock: FakeClock)
    {
        _ = c.line(server, driver, now: clock.now)
        c.send(request + "\n")
        _ = c.line(server, driver, now: clock.now)
    }

    @Test func aReaderFarBehindStillReadsWhyItWasDropped() throws {
        let clock = FakeClock()
        let (server, driver, path) = try makeServer("farbehind", clock: clock)
        defer { server.shutdown() }
        let c = try TestClient(path: path)
        subscribe(c, "{\"cmd\":\"subscribe\"}", server, driver, clock)
        // A long pan nobody reads: the kernel's buffer fills, then the queue overflows.
        server.publish(panEvent(.began, 0), frameTime: .zero)
        var i = 1
        while server.subscribersDropped == 0 && i < 100_000 {
            server.publish(panEvent(.changed, i), frameTime: .zero)
            driver.turn(server, timeoutMS: 0, now: clock.now)
            i += 1
        }
        #expect(server.subscribersDropped == 1)
        // Without any time passing the connection is already closed: the final
        // line went in behind the backlog the kernel holds.
        #expect(server.clientCount == 0)
        var lines: [String] = []
        while !c.eof {
            c.pull()
            lines += c.takeLines()
        }
        let last = try JSONValue.parse(#require(lines.last))
        #expect(last["code"] == .string("slow_consumer"))
        #expect(last["final"] == .bool(true))
        #expect(lines.count > 20, "the backlog the kernel held comes first")
    }

    @Test func statusCountsWhatTheKernelHoldsUnread() throws {
        let clock = FakeClock()
        let (server, driver, path) = try makeServer("outq", clock: clock)
        defer { server.shutdown() }
        let slow = try TestClient(path: path)
        subscribe(slow, "{\"cmd\":\"subscribe\"}", server, driver, clock)
        for i in 0..<20 { server.publish(panEvent(.changed, i), frameTime: .zero) }
        let asker = try TestClient(path: path)
        _ = asker.line(server, driver, now: clock.now)
        asker.send("{\"cmd\":\"status\"}\n")
        let status = try JSONValue.parse(#require(asker.line(server, driver, now: clock.now)))
        guard case .array(let clients)? = status["clients"] else {
            Issue.record("no clients")
            return
        }
        let entry = try #require(clients.first { $0["subscribed"] == .bool(true) })
        #expect((entry["unsent_bytes"]?.number ?? 0) > 20 * 200, "status: \(entry.json)")
        #expect(entry["queued_lines"] == .number(0))
        #expect(entry["sent"] == .number(22), "hello, subscribed and 20 events were written")
    }

    @Test func latestOnlyKeepsOneWaitingChangedPerGestureAndEveryEnding() throws {
        let clock = FakeClock()
        var limits = SocketServer.Limits()
        limits.coalescingSendBuffer = 1  // the kernel's minimum: the backlog waits in the daemon's queue
        let (server, driver, path) = try makeServer("latest", clock: clock, limits: limits)
        defer { server.shutdown() }
        let c = try TestClient(path: path)
        subscribe(c, "{\"cmd\":\"subscribe\",\"changed\":\"latest\"}", server, driver, clock)
        server.publish(panEvent(.began, 0), frameTime: .zero)
        for i in 1...3000 { server.publish(panEvent(.changed, i), frameTime: .zero) }
        server.publish(panEvent(.ended, 3001), frameTime: .zero)
        var events: [JSONValue] = []
        while let l = c.line(server, driver, now: clock.now) { events.append(try JSONValue.parse(l)) }
        let states = events.compactMap { $0["state"]?.string }
        #expect(states.first == "began")
        #expect(states.last == "ended")
        #expect(states.filter { $0 == "changed" }.count < 100, "\(states.count) events delivered")
        #expect(server.subscribersDropped == 0)
        // The last changed before the end is the latest value.
        let lastChanged = try #require(events.last { $0["state"] == .string("changed") })
        #expect(lastChanged["translation_mm"] == .array([.number(3000), .number(0)]))
    }

    @Test func atMostNChangedPerSecondPerGesture() throws {
        let clock = FakeClock()
        let (server, driver, path) = try makeServer("persecond", clock: clock)
        defer { server.shutdown() }
        let c = try TestClient(path: path)
        subscribe(c, "{\"cmd\":\"subscribe\",\"changed\":10}", server, driver, clock)
        // Two pans at once, 100 changed per second each, for two seconds.
        for name in ["pan", "other"] { server.publish(panEvent(.began, 0, name: name), frameTime: .zero) }
        for i in 1...200 {
            for name in ["pan", "other"] { server.publish(panEvent(.changed, i, name: name), frameTime: .zero) }
        }
        for name in ["pan", "other"] { server.publish(panEvent(.cancelled, 201, name: name), frameTime: .zero) }
        var got: [String: [String]] = [:]
        for _ in 0..<200 {
            driver.turn(server, timeoutMS: 1, now: clock.now)
            c.pull()
            for l in c.takeLines() {
                let v = try JSONValue.parse(l)
                got[v["name"]?.string ?? "?", default: []].append(v["state"]?.string ?? "?")
            }
            if got.values.allSatisfy({ $0.last == "cancelled" }) && got.count == 2 { break }
        }
        for name in ["pan", "other"] {
            let states = got[name] ?? []
            #expect(states.first == "began")
            #expect(states.last == "cancelled")
            #expect((19...21).contains(states.filter { $0 == "changed" }.count), "\(name): \(states.count) events")
        }
    }
}
