import GestureCore
import Glibc
import LinuxSystem

/// Puts the socket server's descriptors on the daemon's one `EventLoop`.
final class EventLoopSocketAdapter: SocketServerLoop {
    let loop: EventLoop
    weak var server: SocketServer?
    /// After any socket activity: a client may now have a deadline for the timer.
    var afterActivity: () -> Void = {}
    private var registrations: [Int32: EventLoop.Registration] = [:]
    private let log: Logger

    init(loop: EventLoop, log: Logger) {
        self.loop = loop
        self.log = log
    }

    func watch(_ fd: Int32, readable: Bool, writable: Bool) {
        var interest: EventLoop.Events = []
        if readable { interest.insert(.readable) }
        if writable { interest.insert(.writable) }
        do {
            if let r = registrations[fd] {
                try loop.modify(r, interest: interest)
            } else {
                registrations[fd] = try loop.register(FileDescriptor(rawValue: fd), for: interest) {
                    [unowned self] events in
                    server?.handle(
                        fd: fd, readable: events.contains(.readable), writable: events.contains(.writable),
                        hangup: events.contains(.hangup) || events.contains(.error))
                    afterActivity()
                }
            }
        } catch {
            log.error(.ours, "epoll_ctl for socket fd \(fd): \(error)")
        }
    }

    func unwatch(_ fd: Int32) {
        if let r = registrations.removeValue(forKey: fd) { loop.unregister(r) }
    }
}
