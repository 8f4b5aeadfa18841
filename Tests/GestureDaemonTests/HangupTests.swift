import GestureCore
import Glibc
import LinuxSystem
import Testing

@testable import GestureDaemon
@testable import GestureProtocol

/// On the daemon's real event loop: a subscriber that goes away is removed at
/// once, instead of epoll reporting its hangup over and over.
@Suite(.serialized) struct HangupTests {
    @Test func aSubscriberThatDisconnectsIsRemovedAndTheLoopGoesQuiet() throws {
        let path = temporarySocketPath("hangup")
        let listener = try ListeningSocket.bind(path: path, group: nil)
        let server = SocketServer(listener: listener, info: DaemonInfo(devices: [], recognizers: []), log: { _ in })
        let loop = try EventLoop()
        let adapter = EventLoopSocketAdapter(loop: loop, log: Logger(program: "test", verbose: false))
        adapter.server = server
        server.start(on: adapter)
        defer { server.shutdown() }
        var client: TestClient? = try TestClient(path: path)
        for _ in 0..<20 {
            _ = try loop.runOnce(timeoutMilliseconds: 10)
            client!.pull()
        }
        client!.send("{\"cmd\":\"subscribe\",\"name\":\"circle\"}\n")
        for _ in 0..<20 {
            _ = try loop.runOnce(timeoutMilliseconds: 10)
            client!.pull()
        }
        #expect(server.subscriberCount == 1)
        client = nil  // the subscriber exits (Ctrl-C on gesturectl subscribe)
        var wakeups = 0
        for _ in 0..<50 { wakeups += try loop.runOnce(timeoutMilliseconds: 10) }
        #expect(server.clientCount == 0)
        #expect(wakeups <= 3, "the loop kept waking for a closed peer: \(wakeups) handler calls in 50 turns")
    }
}
