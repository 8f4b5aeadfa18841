import GestureCore
import Glibc
import LinuxSystem
import Testing

@testable import GestureDaemon
@testable import GestureProtocol

/// A connection that never sends a line is closed after `firstLineWithin`,
/// its final line saying why; one that has spoken may stay as long as it likes.
@Suite(.serialized) struct SilentClientTests {
    func makeServer(_ tag: String, clock: FakeClock, log: @escaping (String) -> Void = { _ in }) throws -> (
        SocketServer, PollDriver, String
    ) {
        let path = temporarySocketPath(tag)
        let listener = try ListeningSocket.bind(path: path, group: nil)
        let server = SocketServer(
            listener: listener, info: DaemonInfo(recognizers: [.init(name: "pan", kind: .pan)]),
            limits: .init(), clock: { clock.now }, log: log)
        let driver = PollDriver()
        server.start(on: driver)
        return (server, driver, path)
    }

    @Test func aClientThatNeverSpeaksIsClosedAndTheOthersStay() throws {
        let clock = FakeClock()
        var logged: [String] = []
        let (server, driver, path) = try makeServer("silent", clock: clock) { logged.append($0) }
        defer { server.shutdown() }
        let silent = try TestClient(path: path)
        let blank = try TestClient(path: path)
        let subscriber = try TestClient(path: path)
        let asker = try TestClient(path: path)
        for c in [silent, blank, subscriber, asker] { #expect(c.line(server, driver, now: clock.now) != nil) }
        subscriber.send("{\"cmd\":\"subscribe\"}\n")
        #expect(subscriber.line(server, driver, now: clock.now)?.contains("subscribed") == true)
        asker.send("{\"cmd\":\"status\"}\n")
        #expect(asker.line(server, driver, now: clock.now)?.contains("\"status\"") == true)
        // Blank lines are no request.
        blank.send("\n\n")
        driver.turn(server, now: clock.now)
        #expect(server.clientCount == 4)
        // The bound is a deadline the loop's timer is set to.
        #expect(server.nextDeadline == clock.now + Millis(60_000))

        clock.advance(ms: 59_000)
        driver.turn(server, now: clock.now)
        #expect(server.clientCount == 4)
        clock.advance(ms: 1_000)
        driver.turn(server, now: clock.now)
        for c in [silent, blank] {
            let last = try JSONValue.parse(#require(c.line(server, driver, now: clock.now)))
            #expect(last["code"] == .string("idle"))
            #expect(last["final"] == .bool(true))
            #expect(c.line(server, driver, now: clock.now) == nil && c.eof)
        }
        #expect(server.clientCount == 2)
        #expect(logged.filter { $0.contains("closed: no request within 60 s of connecting") }.count == 2)

        // Those who spoke stay, however long they are quiet after.
        clock.advance(ms: 3_600_000)
        driver.turn(server, now: clock.now)
        #expect(server.clientCount == 2)
        server.publish(makeEvent(1), frameTime: .seconds(1))
        #expect(subscriber.line(server, driver, now: clock.now)?.contains("\"recognized\"") == true)
    }
}
