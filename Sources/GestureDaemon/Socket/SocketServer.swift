import CSocketShim
import Glibc
import GestureCore
import LinuxSystem

/// What the server needs from an event loop: level-triggered readiness for its
/// descriptors. Hang-ups and errors are reported whatever the interest.
public protocol SocketServerLoop: AnyObject {
    /// Starts or changes watching `fd`.
    func watch(_ fd: Int32, readable: Bool, writable: Bool)
    /// Stops watching `fd` (before it is closed).
    func unwatch(_ fd: Int32)
}

/// The subscribers' socket: accepts clients, runs each one's `ClientSession`,
/// and fans events out through bounded per-client queues. Never blocks: every
/// descriptor is non-blocking, and a client that cannot keep up is dropped.
public final class SocketServer {
    public struct Limits: Sendable {
        public var session = ClientSession.Limits()
        public var queue = OutboundQueue.Limits()
        public var maxClients = 128
        /// How long a dropped client is given to read its final error line.
        public var linger = Millis(1000)
        /// How long the listener is left unwatched after `accept` ran out of
        /// descriptors (or kernel memory): the backlog waits instead of the loop spinning.
        public var acceptPause = Millis(1000)
        public init() {}
    }

    final class Client {
        let fd: Int32
        let id: Int
        let cred: PeerCredentials
        var session: ClientSession
        var queue: OutboundQueue
        var filter: SubscriptionFilter?
        var sent = 0
        /// Set once the client is being closed: the deadline for its last lines.
        var closingDeadline: EventTime?
        var watched: (readable: Bool, writable: Bool)?

        init(fd: Int32, id: Int, cred: PeerCredentials, limits: Limits) {
            self.fd = fd; self.id = id; self.cred = cred
            session = ClientSession(limits: limits.session)
            queue = OutboundQueue(limits: limits.queue)
        }
    }

    public let listener: ListeningSocket
    public let limits: Limits
    /// What `hello` and `status` report; the daemon keeps it current.
    public var info: DaemonInfo
    public var log: (String) -> Void
    private weak var loop: SocketServerLoop?
    private let clock: () -> EventTime
    private let startedAt: EventTime
    private var clients: [Int32: Client] = [:]
    private var nextClientID = 1
    public private(set) var eventsPublished = 0
    public private(set) var subscribersDropped = 0
    /// Set while the listener is not watched after descriptors ran out: when to watch it again.
    public private(set) var acceptPausedUntil: EventTime?
    /// A descriptor held in reserve: when `accept` fails for want of one, it is
    /// closed so one waiting client can be accepted and told why, then reopened.
    private var spareFD: Int32 = -1
    private var acceptLog = LogLimiter(burst: 1, window: Millis(10_000))

    public init(listener: ListeningSocket, info: DaemonInfo, limits: Limits = Limits(),
                clock: @escaping () -> EventTime = monotonicNow, log: @escaping (String) -> Void) {
        self.listener = listener; self.info = info; self.limits = limits; self.clock = clock; self.log = log
        startedAt = clock()
        spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    /// Registers the listening socket with `loop`.
    public func start(on loop: SocketServerLoop) {
        self.loop = loop
        loop.watch(listener.fd, readable: true, writable: false)
    }

    public var clientCount: Int { clients.count }
    public var subscriberCount: Int { clients.values.count { $0.filter != nil && $0.closingDeadline == nil } }

    /// Whether `fd` is one of the server's (the listener or a client).
    public func owns(_ fd: Int32) -> Bool { fd == listener.fd || clients[fd] != nil }

    /// Readiness reported by the loop for one of the server's descriptors.
    public func handle(fd: Int32, readable: Bool, writable: Bool, hangup: Bool) {
        if fd == listener.fd {
            acceptClients()
            return
        }
        guard let c = clients[fd] else { return }
        if writable || hangup { flush(c) }
        guard clients[fd] != nil else { return }
        if readable || hangup { read(c) }
        guard clients[fd] != nil else { return }
        if hangup {
            // EPOLLHUP/EPOLLERR: the peer is gone for good. epoll reports them
            // whatever the interest, so keeping the client would spin the loop.
            remove(c, reason: "peer closed")
            return
        }
        updateInterest(c)
    }

    // MARK: accepting

    private func acceptClients() {
        for _ in 0..<16 {
            let fd = gestured_accept_nonblocking(listener.fd)
            if fd < 0 {
                let e = errno
                switch e {
                case EINTR, ECONNABORTED: continue
                case EAGAIN: return
                default:
                    acceptFailed(errno: e)
                    return
                }
            }
            let cred = SocketSys.peerCredentials(fd) ?? PeerCredentials(pid: 0, uid: UInt32.max, gid: UInt32.max)
            let id = nextClientID
            nextClientID += 1
            let who = "pid \(cred.pid)" + (SocketSys.commandName(pid: cred.pid).map { " (\($0))" } ?? "") + " uid \(cred.uid) gid \(cred.gid)"
            if clients.count >= limits.maxClients {
                log("socket: client \(id) refused: \(who): already \(clients.count) clients")
                let line = ProtocolMessages.error(.tooManyClients, "too many clients (\(limits.maxClients)); try again later") + "\n"
                _ = line.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                _ = close(fd)
                continue
            }
            log("socket: client \(id) connected: \(who)")
            let c = Client(fd: fd, id: id, cred: cred, limits: limits)
            clients[fd] = c
            _ = c.queue.enqueue(SharedLine(ProtocolMessages.hello(info)))
            flush(c)
            if clients[fd] != nil { updateInterest(c) }
        }
    }

    /// `accept` failed for a reason waiting will cure (EMFILE, ENFILE, ENOBUFS,
    /// ENOMEM) or one it will not: either way the listener stays readable, so
    /// watching it would spin the loop. One waiting client is accepted on the
    /// spare descriptor and told why; the listener rests for `acceptPause`.
    private func acceptFailed(errno e: Int32) {
        var refused = 0
        if (e == EMFILE || e == ENFILE) && spareFD >= 0 {
            _ = close(spareFD)
            let fd = gestured_accept_nonblocking(listener.fd)
            if fd >= 0 {
                refused = 1
                let line = ProtocolMessages.error(.tooManyClients, "gestured is out of file descriptors; try again later") + "\n"
                _ = line.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                _ = close(fd)
            }
            spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
        }
        let now = clock()
        acceptPausedUntil = now + limits.acceptPause
        loop?.unwatch(listener.fd)
        let what = "socket: accept: \(String(cString: strerror(e))); not accepting clients for \(limits.acceptPause)"
            + (refused > 0 ? " (one waiting client was told so and closed)" : "")
        if let line = acceptLog.admit(what, now: now) { log(line) }
    }

    // MARK: reading

    private func read(_ c: Client) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        // At most 64 KiB per wakeup: a chatty client cannot starve the input loop.
        for _ in 0..<16 {
            guard !c.session.isClosed, !c.session.inputEnded else { return }
            let n = buffer.withUnsafeMutableBytes { Glibc.read(c.fd, $0.baseAddress, $0.count) }
            if n > 0 {
                apply(c.session.received(buffer[0..<n]), to: c)
                if clients[c.fd] == nil { return }
            } else if n == 0 {
                apply(c.session.endOfInput(), to: c)
                return
            } else {
                switch errno {
                case EINTR: continue
                case EAGAIN: return
                default:
                    drop(c, reason: "read: \(String(cString: strerror(errno)))")
                    return
                }
            }
        }
    }

    private func apply(_ actions: [ClientSession.Action], to c: Client) {
        for action in actions {
            guard clients[c.fd] != nil else { return }
            switch action {
            case .send(let line):
                enqueue(SharedLine(line), to: c)
            case .subscribe(let f):
                c.filter = f
                log("socket: client \(c.id) subscribed: \(f.json)")
            case .unsubscribe:
                c.filter = nil
            case .sendStatus(let id):
                enqueue(SharedLine(statusLine(id: id)), to: c)
            case .close:
                beginClosing(c)
            }
        }
        if clients[c.fd] != nil { flush(c) }
    }

    private func statusLine(id: JSONValue?) -> String {
        let list = clients.values.sorted { $0.id < $1.id }.map {
            ProtocolMessages.SubscriberStatus(id: $0.id, pid: $0.cred.pid, uid: $0.cred.uid, gid: $0.cred.gid,
                                              filter: $0.filter, queuedLines: $0.queue.count,
                                              queuedBytes: $0.queue.queuedBytes, sent: $0.sent)
        }
        let uptime = (clock() - startedAt).seconds
        return ProtocolMessages.status(info, clients: list, uptimeSeconds: uptime, eventsPublished: eventsPublished,
                                       dropped: subscribersDropped, id: id)
    }

    // MARK: writing

    /// Publishes one event to every subscriber whose filter takes it; the line
    /// is encoded once, and only if someone wants it. `frameTime` is the kernel
    /// timestamp of the frame that decided the event.
    public func publish(_ event: GestureEvent, frameTime: EventTime) {
        var line: SharedLine?
        for c in Array(clients.values) {
            guard c.closingDeadline == nil, let f = c.filter, f.matches(event) else { continue }
            if line == nil {
                line = SharedLine(ProtocolMessages.event(event, frameTime: frameTime, emitted: clock()))
                eventsPublished += 1
            }
            enqueue(line!, to: c)
            if clients[c.fd] != nil { flush(c); if clients[c.fd] != nil { updateInterest(c) } }
        }
    }

    private func enqueue(_ line: SharedLine, to c: Client) {
        guard c.closingDeadline == nil else { return }
        if !c.queue.enqueue(line) {
            subscribersDropped += 1
            log("socket: client \(c.id) (pid \(c.cred.pid)) dropped: fell behind with \(c.queue.count) lines, \(c.queue.queuedBytes) bytes queued")
            c.queue.replaceWithFinal(SharedLine(ProtocolMessages.error(
                .slowConsumer, "you fell behind by \(c.queue.count) lines (\(c.queue.queuedBytes) bytes); read your events faster")))
            c.session.closedByServer()
            c.closingDeadline = clock() + limits.linger
        }
    }

    /// Writes what the socket takes now; closes a client that is done or gone.
    private func flush(_ c: Client) {
        while true {
            let r: Int? = c.queue.withPendingBytes { bytes in
                send(c.fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            guard let n = r else { break }  // queue empty
            if n >= 0 {
                c.queue.consume(n)
                if c.queue.isEmpty { c.sent += 1 } else { continue }
                continue
            }
            switch errno {
            case EINTR: continue
            case EAGAIN: return
            default:
                drop(c, reason: "write: \(String(cString: strerror(errno)))")
                return
            }
        }
        if c.closingDeadline != nil { remove(c, reason: "closed") }
    }

    private func beginClosing(_ c: Client) {
        if c.closingDeadline == nil { c.closingDeadline = clock() + limits.linger }
    }

    private func updateInterest(_ c: Client) {
        let wanted = (readable: c.closingDeadline == nil && !c.session.isClosed && !c.session.inputEnded,
                      writable: !c.queue.isEmpty)
        if c.watched == nil || c.watched! != wanted {
            loop?.watch(c.fd, readable: wanted.readable, writable: wanted.writable)
            c.watched = wanted
        }
    }

    private func drop(_ c: Client, reason: String) { remove(c, reason: reason) }

    private func remove(_ c: Client, reason: String) {
        guard clients.removeValue(forKey: c.fd) != nil else { return }
        if c.watched != nil { loop?.unwatch(c.fd) }
        _ = close(c.fd)
        log("socket: client \(c.id) disconnected: \(reason)")
    }

    // MARK: time and shutdown

    /// The earliest deadline of a client being closed or of the listener's rest, for the loop's timer.
    public var nextDeadline: EventTime? {
        (clients.values.compactMap(\.closingDeadline) + [acceptPausedUntil].compactMap { $0 }).min()
    }

    /// Closes clients whose last lines were not read in time; watches the
    /// listener again once its rest is over.
    public func expire(now: EventTime) {
        if let until = acceptPausedUntil, until <= now {
            acceptPausedUntil = nil
            loop?.watch(listener.fd, readable: true, writable: false)
        }
        for c in Array(clients.values) {
            if let d = c.closingDeadline, d <= now { remove(c, reason: "did not read its final line within the grace time") }
        }
    }

    /// Tells every client the daemon stops, writes what fits, closes everything.
    public func shutdown() {
        for c in Array(clients.values) {
            c.queue.replaceWithFinal(SharedLine(ProtocolMessages.error(.shuttingDown, "gestured is stopping")))
            c.closingDeadline = clock()
            flush(c)
            remove(c, reason: "daemon stopping")
        }
        if acceptPausedUntil == nil { loop?.unwatch(listener.fd) }
        acceptPausedUntil = nil
        listener.close()
        if spareFD >= 0 { _ = close(spareFD); spareFD = -1 }
    }
}
