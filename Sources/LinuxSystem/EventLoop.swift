import CLinux
import Glibc

/// A one-thread epoll loop: file descriptors with a handler each, run until
/// stopped. Everything the daemon does happens inside a handler, on the thread
/// that called `run()`; no locks, no other threads.
///
/// ```swift
/// let loop = try EventLoop()
/// let token = try loop.register(fd, for: .readable) { events in
///     if events.contains(.hangup) { … }
///     // read until EAGAIN: registrations are level-triggered
/// }
/// try loop.run()            // returns after some handler calls loop.stop()
/// loop.unregister(token)    // before closing fd
/// ```
///
/// Rules:
/// - Registrations are level-triggered: a handler that leaves data unread is
///   called again on the next turn.
/// - `unregister` before you close the descriptor. Unregistering (or stopping)
///   from inside any handler is safe, also for a descriptor whose event is
///   still pending in the same batch: that event is dropped.
/// - The loop does not own the descriptors; it never closes them.
/// - Not thread-safe: register, unregister and stop from the loop's thread.
public final class EventLoop {
    /// What a handler is told about its descriptor.
    public struct Events: OptionSet, Sendable, CustomStringConvertible {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let readable = Events(rawValue: EPOLLIN.rawValue)
        public static let writable = Events(rawValue: EPOLLOUT.rawValue)
        /// The peer closed or the device went away (always reported).
        public static let hangup = Events(rawValue: EPOLLHUP.rawValue)
        /// An error is pending on the descriptor (always reported).
        public static let error = Events(rawValue: EPOLLERR.rawValue)
        /// The peer shut down its writing side (sockets).
        public static let peerClosed = Events(rawValue: EPOLLRDHUP.rawValue)

        public var description: String {
            var names: [String] = []
            if contains(.readable) { names.append("readable") }
            if contains(.writable) { names.append("writable") }
            if contains(.hangup) { names.append("hangup") }
            if contains(.error) { names.append("error") }
            if contains(.peerClosed) { names.append("peer-closed") }
            return names.joined(separator: "|")
        }
    }

    /// Identifies one registration. Tokens are never reused, so a stale event
    /// for a descriptor number that was unregistered and reused is recognised.
    public struct Registration: Hashable, Sendable {
        public let id: UInt64
        public let fd: FileDescriptor
    }

    public typealias Handler = (Events) -> Void

    private let epoll: FileDescriptor
    private var handlers: [UInt64: (fd: FileDescriptor, handler: Handler)] = [:]
    private var nextID: UInt64 = 1
    private var stopped = false
    private var buffer: [epoll_event]

    /// - Parameter batchSize: at most this many ready descriptors per turn.
    public init(batchSize: Int = 32) throws(Errno) {
        let fd = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard fd >= 0 else { throw Errno.current }
        epoll = FileDescriptor(rawValue: fd)
        buffer = Array(repeating: epoll_event(), count: max(1, batchSize))
    }

    deinit { epoll.close() }

    /// Number of live registrations.
    public var count: Int { handlers.count }

    /// Calls `handler` on this thread whenever `fd` is ready for `interest`
    /// (hangup and error are always reported).
    @discardableResult
    public func register(
        _ fd: FileDescriptor, for interest: Events = .readable,
        handler: @escaping Handler
    ) throws(Errno) -> Registration {
        let id = nextID
        nextID += 1
        var ev = epoll_event()
        ev.events = interest.rawValue
        ev.data.u64 = id
        _ = try retryingOnInterrupt { epoll_ctl(epoll.rawValue, EPOLL_CTL_ADD, fd.rawValue, &ev) }
        handlers[id] = (fd, handler)
        return Registration(id: id, fd: fd)
    }

    /// Changes what a registration waits for (e.g. add `.writable` while a
    /// socket has queued output).
    public func modify(_ r: Registration, interest: Events) throws(Errno) {
        guard handlers[r.id] != nil else { return }
        var ev = epoll_event()
        ev.events = interest.rawValue
        ev.data.u64 = r.id
        _ = try retryingOnInterrupt { epoll_ctl(epoll.rawValue, EPOLL_CTL_MOD, r.fd.rawValue, &ev) }
    }

    /// Stops calling the handler. Idempotent; does not close the descriptor.
    public func unregister(_ r: Registration) {
        guard handlers.removeValue(forKey: r.id) != nil else { return }
        var ev = epoll_event()
        // Fails with EBADF/ENOENT if the fd was closed first; nothing to undo then.
        _ = epoll_ctl(epoll.rawValue, EPOLL_CTL_DEL, r.fd.rawValue, &ev)
    }

    /// Makes `run()` return after the current handler.
    public func stop() { stopped = true }

    /// Dispatches ready descriptors until `stop()` is called. Sleeps in
    /// epoll_wait with no timeout: with nothing ready, the thread is idle.
    public func run() throws(Errno) {
        stopped = false
        while !stopped {
            _ = try runOnce(timeoutMilliseconds: -1)
        }
    }

    /// Waits at most `timeoutMilliseconds` (-1: forever) for one batch and
    /// dispatches it. Returns the number of handlers called. For tests and for
    /// callers that drive the loop themselves.
    @discardableResult
    public func runOnce(timeoutMilliseconds: Int32) throws(Errno) -> Int {
        let capacity = Int32(buffer.count)
        // The buffer holds at least one entry (init), so it has a base address.
        let n = buffer.withUnsafeMutableBufferPointer { buf -> Int32 in
            guard let base = buf.baseAddress else { return 0 }
            return epoll_wait(epoll.rawValue, base, capacity, timeoutMilliseconds)
        }
        if n < 0 {
            let e = Errno.current
            if e == .interrupted { return 0 }
            throw e
        }
        var called = 0
        for i in 0..<Int(n) {
            let ev = buffer[i]
            // Looked up at dispatch time: an earlier handler in this batch may
            // have unregistered it.
            guard let entry = handlers[ev.data.u64] else { continue }
            entry.handler(Events(rawValue: ev.events))
            called += 1
            if stopped { break }
        }
        return called
    }
}
