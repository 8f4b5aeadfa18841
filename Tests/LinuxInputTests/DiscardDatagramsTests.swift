import Glibc
import LinuxSystem
import Testing

/// After a receive error the udev monitor's socket is emptied, so the
/// level-triggered descriptor stops polling readable. Shown on a datagram
/// socket pair, the kind of socket the monitor reads.
@Suite struct DiscardDatagramsTests {
    func pair() throws -> (FileDescriptor, FileDescriptor) {
        var fds: [Int32] = [-1, -1]
        let r = socketpair(
            AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds)
        try #require(r == 0)
        return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    }

    func readable(_ fd: FileDescriptor) -> Bool {
        var p = pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) == 1
    }

    @Test func queuedDatagramsAreDroppedAndTheSocketGoesQuiet() throws {
        let (a, b) = try pair()
        defer {
            a.close()
            b.close()
        }
        for message in ["add@/devices/a", "remove@/devices/b", "change@/devices/c"] { try b.writeAll(message) }
        #expect(readable(a))
        #expect(a.discardDatagrams(limit: 100) == 3)
        #expect(!readable(a))
        #expect(a.discardDatagrams(limit: 100) == 0)
    }

    @Test func aFloodIsDiscardedAtMostLimitAtATime() throws {
        let (a, b) = try pair()
        defer {
            a.close()
            b.close()
        }
        for i in 0..<10 { try b.writeAll("message \(i)") }
        #expect(a.discardDatagrams(limit: 4) == 4)
        #expect(readable(a))
        #expect(a.discardDatagrams(limit: 100) == 6)
        #expect(!readable(a))
    }
}
