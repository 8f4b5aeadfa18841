import GestureCore
import GestureDaemon
import Glibc
import LinuxInput
import LinuxSystem
import Testing

/// The event loop on real kernel objects (pipes, a timerfd, a signalfd). No
/// sleeps: every wait is an epoll_wait with a bound, returning as soon as the
/// kernel has something.
@Suite("EventLoop")
struct EventLoopTests {
    func write(_ fd: FileDescriptor, _ s: String) throws { try fd.writeAll(s) }

    func readAll(_ fd: FileDescriptor) -> String {
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 256)
        while let n = try? buf.withUnsafeMutableBytes({ try fd.read(into: $0) }), n > 0 {
            out.append(contentsOf: buf[0..<n])
        }
        return String(decoding: out, as: UTF8.self)
    }

    @Test func readableHandlerGetsTheData() throws {
        let loop = try EventLoop()
        let (r, w) = try FileDescriptor.pipe()
        defer {
            r.close()
            w.close()
        }
        var got: [String] = []
        try loop.register(r) { events in
            #expect(events.contains(.readable))
            got.append(readAll(r))
        }
        #expect(try loop.runOnce(timeoutMilliseconds: 0) == 0)
        try write(w, "hello")
        #expect(try loop.runOnce(timeoutMilliseconds: 1000) == 1)
        #expect(got == ["hello"])
        // Level-triggered and drained: nothing more.
        #expect(try loop.runOnce(timeoutMilliseconds: 0) == 0)
    }

    @Test func hangupWhenTheWriterCloses() throws {
        let loop = try EventLoop()
        let (r, w) = try FileDescriptor.pipe()
        defer { r.close() }
        var seen: EventLoop.Events = []
        let token = try loop.register(r) { events in seen = events }
        w.close()
        #expect(try loop.runOnce(timeoutMilliseconds: 1000) == 1)
        #expect(seen.contains(.hangup))
        loop.unregister(token)
        loop.unregister(token)  // idempotent
        #expect(loop.count == 0)
        #expect(try loop.runOnce(timeoutMilliseconds: 0) == 0)
    }

    /// A handler that unregisters another descriptor whose event is already in
    /// the same batch: that event is dropped, not delivered to a stale handler.
    @Test func unregisterInsideABatchDropsThePendingEvent() throws {
        let loop = try EventLoop()
        let a = try FileDescriptor.pipe(), b = try FileDescriptor.pipe()
        defer {
            a.read.close()
            a.write.close()
            b.read.close()
            b.write.close()
        }
        var calls: [String] = []
        var tokenA: EventLoop.Registration?
        var tokenB: EventLoop.Registration?
        // The loop holds its handlers: they must not hold it back.
        tokenA = try loop.register(a.read) { [unowned loop] _ in
            calls.append("a")
            _ = readAll(a.read)
            if let tokenB { loop.unregister(tokenB) }
        }
        tokenB = try loop.register(b.read) { [unowned loop] _ in
            calls.append("b")
            _ = readAll(b.read)
            if let tokenA { loop.unregister(tokenA) }
        }
        try write(a.write, "x")
        try write(b.write, "y")
        #expect(try loop.runOnce(timeoutMilliseconds: 1000) == 1)
        #expect(calls.count == 1)
        #expect(loop.count == 1)
    }

    @Test func stopEndsRun() throws {
        let loop = try EventLoop()
        let (r, w) = try FileDescriptor.pipe()
        defer {
            r.close()
            w.close()
        }
        var n = 0
        try loop.register(r) { [unowned loop] _ in
            _ = readAll(r)
            n += 1
            loop.stop()
        }
        try write(w, "go")
        try loop.run()
        #expect(n == 1)
    }

    @Test func deadlineTimerFiresAtItsAbsoluteDeadline() throws {
        let loop = try EventLoop()
        let timer = try DeadlineTimer()
        var firedAt: EventTime?
        try loop.register(timer.fd) { _ in
            if timer.acknowledge() { firedAt = monotonicNow() }
        }
        // Disarmed: nothing within 20 ms.
        try timer.arm(at: nil)
        #expect(try loop.runOnce(timeoutMilliseconds: 20) == 0)

        let deadline = monotonicNow() + Millis(30)
        try timer.arm(at: deadline)
        #expect(timer.deadline == deadline)
        while firedAt == nil { _ = try loop.runOnce(timeoutMilliseconds: 2000) }
        let fired = try #require(firedAt)
        #expect(fired >= deadline)
        // Late only by what a busy machine makes it: not a relative timer restarted.
        #expect(fired - deadline < Millis(10_000))
        #expect(timer.deadline == nil)
    }

    @Test func deadlineInThePastFiresAtOnceAndRearmingMovesIt() throws {
        let loop = try EventLoop()
        let timer = try DeadlineTimer()
        var fired = 0
        try loop.register(timer.fd) { _ in if timer.acknowledge() { fired += 1 } }
        // Armed far away, then moved to the past: one expiry, right away.
        try timer.arm(at: monotonicNow() + Millis(60_000))
        #expect(try loop.runOnce(timeoutMilliseconds: 0) == 0)
        try timer.arm(at: EventTime(microseconds: 1))
        #expect(try loop.runOnce(timeoutMilliseconds: 1000) == 1)
        #expect(fired == 1)
        #expect(try loop.runOnce(timeoutMilliseconds: 0) == 0)
    }

    /// SIGUSR1 sent to this thread while blocked in it: it is read from the
    /// signalfd instead of killing the process.
    @Test func signalArrivesOnTheLoop() throws {
        var old = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        let loop = try EventLoop()
        let receiver = try SignalReceiver(signals: [SIGUSR1])
        var got: [Int32] = []
        try loop.register(receiver.fd) { _ in got += receiver.receive() }
        pthread_kill(pthread_self(), SIGUSR1)
        #expect(try loop.runOnce(timeoutMilliseconds: 1000) == 1)
        #expect(got == [SIGUSR1])
    }
}
