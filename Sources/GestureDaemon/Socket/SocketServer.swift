import CSocketShim
import GestureCore
import GestureProtocol
import Glibc
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
        /// Clients one uid may hold at once, so one user cannot take every slot.
        public var maxClientsPerUser = 32
        /// The kernel's send buffer asked for each client (SO_SNDBUF; Linux
        /// doubles it). Small, so that a backlog waits in the daemon's queue,
        /// where it is counted and can be coalesced, not in the kernel.
        public var socketSendBuffer = 32 * 1024
        /// The same for a subscriber that asked for the latest `changed` only.
        public var coalescingSendBuffer = 4 * 1024
        /// How long a dropped client is given to read its final error line.
        public var linger = Millis(1000)
        /// How long the listener is left unwatched after `accept` ran out of
        /// descriptors (or kernel memory): the backlog waits instead of the loop spinning.
        public var acceptPause = Millis(1000)
        /// How long a client may stay connected without sending a line: one
        /// that never does (a stuck or hostile program) is closed, its final
        /// line saying why, so that it holds no slot and no descriptor. Every
        /// client sends its first request as it connects.
        public var firstLineWithin = Millis(60_000)
        public init() {}
    }

    final class Client {
        let fd: Int32
        let id: Int
        let cred: PeerCredentials
        var session: ClientSession
        var queue: OutboundQueue
        var filter: SubscriptionFilter?
        /// Size of the filter's JSON, for estimating a `status` reply without building it.
        var filterBytes = 0
        /// The `time` of the last `changed` delivered per gesture, for `changed: N` per second.
        var lastChanged: [String: EventTime] = [:]
        var changedSkipped = 0
        /// Actions waiting for room in the queue (a `status` that does not fit
        /// yet, and what came after it): nothing more is read meanwhile.
        var deferred: [ClientSession.Action] = []
        /// Set once the client is being closed: the deadline for its last lines.
        var closingDeadline: EventTime?
        /// When it is closed if it has sent no line by then (`silentUntil`).
        var firstLineDue = EventTime.zero
        /// The deadline for its first line, while it has sent none.
        var silentUntil: EventTime? { session.linesReceived == 0 ? firstLineDue : nil }
        var watched: (readable: Bool, writable: Bool)?
        /// Lines were queued since the last `flushPublished()`.
        var published = false

        init(fd: Int32, id: Int, cred: PeerCredentials, limits: Limits) {
            self.fd = fd
            self.id = id
            self.cred = cred
            session = ClientSession(limits: limits.session)
            queue = OutboundQueue(limits: limits.queue)
        }
    }

    public let listener: ListeningSocket
    public let limits: Limits
    /// What `hello` and `status` report; the daemon keeps it current.
    public var info: DaemonInfo
    /// Carries out `rotate`, `profile`, `pause` and `resume`; without one they are refused.
    public weak var controller: DaemonControl?
    /// Who may send those requests; anyone else gets `not_permitted`.
    public var rights = ControlRights(daemonUID: geteuid())
    /// The uid in the active session on a seat (logind), nil when there is none:
    /// `gestured` asks sd-login; without it no seat grants anything.
    public var activeSessionUser: (String) -> UInt32? = { _ in nil }
    public var log: (String) -> Void
    private weak var loop: SocketServerLoop?
    private let clock: () -> EventTime
    private let startedAt: EventTime
    private var clients: [Int32: Client] = [:]
    /// The same clients in the order they came, for publishing without
    /// building a list per event.
    private var clientList: [Client] = []
    /// Clients with lines published since the last `flushPublished()`.
    private var publishedTo: [Client] = []
    /// Event lines are encoded into this writer, then into a line from the pool.
    private var encoder = JSONWriter(capacity: 1024)
    private var linePool = LinePool()
    /// The `emitted` time of what is published until the next flush: the
    /// clock is read once per loop turn, not once per event.
    private var emittedAt: EventTime?
    /// Room for one gathering write (sendmsg) of up to this many lines.
    private var vectors = [iovec](repeating: iovec(), count: 64)
    private var nextClientID = 1
    public private(set) var eventsPublished = 0
    public private(set) var subscribersDropped = 0
    /// Set while the listener is not watched after descriptors ran out: when to watch it again.
    public private(set) var acceptPausedUntil: EventTime?
    /// A descriptor held in reserve: when `accept` fails for want of one, it is
    /// closed so one waiting client can be accepted and told why, then reopened.
    private var spareFD: Int32 = -1
    private var acceptLog = LogLimiter(burst: 1, window: Millis(10_000))
    /// Connect, subscribe and disconnect lines: a client reconnecting in a loop
    /// must not flood the journal.
    private var connectionLog = LogLimiter(burst: 30, window: Millis(10_000))
    /// Refused control requests: a client asking in a loop must not flood the journal.
    private var refusalLog = LogLimiter(burst: 20, window: Millis(10_000))

    public init(
        listener: ListeningSocket, info: DaemonInfo, limits: Limits = Limits(),
        clock: @escaping () -> EventTime = monotonicNow, log: @escaping (String) -> Void
    ) {
        self.listener = listener
        self.info = info
        self.limits = limits
        self.clock = clock
        self.log = log
        startedAt = clock()
        spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    /// Registers the listening socket with `loop`.
    public func start(on loop: SocketServerLoop) {
        self.loop = loop
        loop.watch(listener.fd, readable: true, writable: false)
    }

    public var clientCount: Int { clients.count }
    public var subscriberCount: Int { clientList.count { $0.filter != nil && $0.closingDeadline == nil } }

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
        if !c.deferred.isEmpty && !hangup { resumeDeferred(c) }
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
            let accepted = Result { () throws(Errno) in
                try retryingOnInterrupt { gestured_accept_nonblocking(listener.fd) }
            }
            let fd: Int32
            switch accepted {
            case .success(let descriptor): fd = descriptor
            case .failure(let e) where e.rawValue == ECONNABORTED: continue
            case .failure(.wouldBlock): return
            case .failure(let e):
                acceptFailed(errno: e.rawValue)
                return
            }
            let cred = SocketSys.peerCredentials(fd) ?? PeerCredentials(pid: 0, uid: UInt32.max, gid: UInt32.max)
            let id = nextClientID
            nextClientID += 1
            let who =
                "pid \(cred.pid)"
                + (SocketSys.commandName(pid: cred.pid).map { " (\(sanitizedForLog($0, maxCharacters: 32)))" } ?? "")
                + " uid \(cred.uid) gid \(cred.gid)"
            let sameUser = clients.values.count { $0.cred.uid == cred.uid }
            // Every slot taken: a user with fewer clients than the user with the
            // most takes that user's oldest client's place, so that a few users
            // cannot keep everyone else out (32 per uid makes four enough).
            if clients.count >= limits.maxClients && sameUser < limits.maxClientsPerUser,
                let victim = fairShareVictim(forUserHolding: sameUser)
            {
                evict(victim.client, holding: victim.holding, for: id, uid: cred.uid)
            }
            if clients.count >= limits.maxClients || sameUser >= limits.maxClientsPerUser {
                let why =
                    clients.count >= limits.maxClients
                    ? "too many clients (\(limits.maxClients)); try again later"
                    : "too many clients for uid \(cred.uid) (\(limits.maxClientsPerUser) per user); close some first"
                connectionLine("socket: client \(id) refused: \(who): \(why)")
                let line = ProtocolMessages.error(.tooManyClients, why) + "\n"
                _ = line.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                discardInput(fd)
                _ = close(fd)
                continue
            }
            SocketSys.setSendBuffer(fd, bytes: limits.socketSendBuffer)
            connectionLine("socket: client \(id) connected: \(who)")
            let c = Client(fd: fd, id: id, cred: cred, limits: limits)
            c.firstLineDue = clock() + limits.firstLineWithin
            clients[fd] = c
            clientList.append(c)
            // The first line: queued whatever the bounds (an empty queue takes any line).
            _ = c.queue.enqueue(SharedLine(ProtocolMessages.hello(info)))
            flush(c)
            if clients[fd] != nil { updateInterest(c) }
        }
    }

    /// With every slot taken: the oldest client of the uid holding the most,
    /// if that uid holds at least two more than the newcomer's (who then still
    /// holds no more than it); nil otherwise.
    private func fairShareVictim(forUserHolding held: Int) -> (client: Client, holding: Int)? {
        var counts: [UInt32: Int] = [:]
        for c in clientList where c.closingDeadline == nil { counts[c.cred.uid, default: 0] += 1 }
        guard let (uid, most) = counts.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }),
            most >= held + 2
        else { return nil }
        return clientList.first { $0.cred.uid == uid && $0.closingDeadline == nil }.map { ($0, most) }
    }

    /// Drops `c`, whose uid holds `held` clients, to make room for client `id`
    /// of `uid`: its final line says why.
    private func evict(_ c: Client, holding held: Int, for id: Int, uid: UInt32) {
        c.queue.replaceWithFinal(
            SharedLine(
                ProtocolMessages.error(
                    .tooManyClients,
                    "closed to make room for a client of another user: every one of the \(limits.maxClients) slots was taken, \(held) of them by uid \(c.cred.uid)"
                )))
        c.session.closedByServer()
        flush(c)
        remove(
            c,
            reason:
                "closed to make room for client \(id) (uid \(uid)): uid \(c.cred.uid) held \(held) of \(limits.maxClients)"
        )
    }

    private func connectionLine(_ line: String) {
        if let l = connectionLog.admit(line, now: clock()) { log(l) }
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
                let line =
                    ProtocolMessages.error(.tooManyClients, "gestured is out of file descriptors; try again later")
                    + "\n"
                _ = line.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                _ = close(fd)
            }
            spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
        }
        let now = clock()
        acceptPausedUntil = now + limits.acceptPause
        loop?.unwatch(listener.fd)
        let what =
            "socket: accept: \(String(cString: strerror(e))); not accepting clients for \(limits.acceptPause)"
            + (refused > 0 ? " (one waiting client was told so and closed)" : "")
        if let line = acceptLog.admit(what, now: now) { log(line) }
    }

    // MARK: reading

    private func read(_ c: Client) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        // At most 64 KiB per wakeup: a chatty client cannot starve the input loop.
        for _ in 0..<16 {
            guard !c.session.isClosed, !c.session.inputEnded, !c.session.hasPendingInput, c.deferred.isEmpty else {
                return
            }
            let n: Int
            do throws(Errno) {
                n = try FileDescriptor(rawValue: c.fd).read(into: &buffer)
            } catch {
                if error != .wouldBlock { drop(c, reason: "read: \(error)") }
                return
            }
            if n > 0 {
                apply(c.session.received(buffer[0..<n]), to: c)
                if clients[c.fd] == nil { return }
            } else {
                apply(c.session.endOfInput(), to: c)
                return
            }
        }
    }

    private func apply(_ actions: [ClientSession.Action], to c: Client) {
        guard c.deferred.isEmpty else {
            c.deferred += actions
            return
        }
        for (i, action) in actions.enumerated() {
            guard clients[c.fd] != nil else { return }
            switch action {
            case .send(let line):
                enqueue(SharedLine(line), to: c)
            case .subscribe(let f):
                c.filter = f
                c.filterBytes = f.json.utf8.count
                c.lastChanged = [:]
                if f.changed == .latest { SocketSys.setSendBuffer(c.fd, bytes: limits.coalescingSendBuffer) }
                connectionLine("socket: client \(c.id) subscribed: \(f.summary)")
            case .sendSubscribed(let f, let id):
                let known = Set(info.recognizers.map(\.name))
                let unknown = f.names.filter { !known.contains($0) }
                enqueue(SharedLine(ProtocolMessages.subscribed(f, unknownNames: Array(unknown), id: id)), to: c)
            case .unsubscribe:
                c.filter = nil
            case .sendStatus(let id):
                // Whether it would fit is known before it is built: a client that
                // asks for status faster than it reads waits for room (and is
                // not read from meanwhile) without the daemon doing the work.
                if !c.queue.canTake(bytes: estimatedStatusBytes) {
                    flush(c)
                    guard clients[c.fd] != nil else { return }
                    // Still no room: wait for the socket to take more (the queue
                    // is not empty, so the client is watched for writability).
                    if !c.queue.canTake(bytes: estimatedStatusBytes) {
                        c.deferred = Array(actions[i...])
                        return
                    }
                }
                enqueue(SharedLine(statusLine(id: id, for: c)), to: c)
            case .control(let request, let id):
                guard let grant = grant(for: c) else {
                    let what =
                        "socket: client \(c.id) (pid \(c.cred.pid), uid \(c.cred.uid)): \(request.command) refused: not permitted"
                    if let line = refusalLog.admit(what, now: clock()) { log(line) }
                    let message = rights.refusal(request.command, uid: c.cred.uid, seats: info.seats)
                    enqueue(SharedLine(ProtocolMessages.error(.notPermitted, message, id: id)), to: c)
                    continue
                }
                let who = "client \(c.id) (pid \(c.cred.pid), uid \(c.cred.uid), \(grant))"
                let reply =
                    controller?.control(request, from: who)
                    ?? .refused(.unavailable, "this socket has no daemon behind it to carry the request out")
                enqueue(SharedLine(ProtocolMessages.reply(reply, id: id)), to: c)
            case .close:
                beginClosing(c)
            }
        }
        if clients[c.fd] != nil { flush(c) }
    }

    /// Carries on with deferred actions once the queue has room.
    private func resumeDeferred(_ c: Client) {
        guard !c.deferred.isEmpty, c.closingDeadline == nil, c.queue.canTake(bytes: estimatedStatusBytes) else {
            return
        }
        let actions = c.deferred
        c.deferred = []
        apply(actions, to: c)
    }

    /// An upper bound of a `status` reply's size, from the sizes of its parts.
    private var estimatedStatusBytes: Int {
        let fixed =
            512 + info.configSource.utf8.count
            + info.devices.reduce(0) { $0 + 128 + $1.name.utf8.count * 6 + $1.node.utf8.count * 6 }
            + info.recognizers.reduce(0) {
                $0 + 64 + $1.name.utf8.count * 6 + $1.profiles.reduce(0) { $0 + 3 + $1.utf8.count * 6 }
            }
            + info.profile.name.utf8.count * 6
        return clients.values.reduce(fixed) { $0 + 256 + $1.filterBytes }
    }

    /// The client's right to change the daemon, as of now (the seats' active
    /// users are asked again each time), or nil.
    private func grant(for c: Client) -> ControlRights.Grant? {
        rights.grant(
            to: ControlRights.Peer(uid: c.cred.uid, gid: c.cred.gid, groups: c.cred.groups),
            activeSeats: info.seats.map { ControlRights.ActiveSeat(seat: $0, uid: activeSessionUser($0)) })
    }

    /// The `status` reply for `asking`. Other users' clients (their pids and
    /// filters: what they run and watch) are listed only to those who may
    /// change the daemon; anyone else sees their own.
    private func statusLine(id: JSONValue?, for asking: Client) -> String {
        let seesAll = grant(for: asking) != nil
        let shown = clients.values.filter { seesAll || $0.cred.uid == asking.cred.uid }
        let list = shown.sorted { $0.id < $1.id }.map {
            ProtocolMessages.SubscriberStatus(
                id: $0.id, pid: $0.cred.pid, uid: $0.cred.uid, gid: $0.cred.gid,
                filter: $0.filter, queuedLines: $0.queue.count,
                queuedBytes: $0.queue.queuedBytes,
                unsentBytes: SocketSys.unsentBytes($0.fd) ?? -1,
                sent: $0.queue.linesWritten, changedSkipped: $0.changedSkipped)
        }
        let uptime = (clock() - startedAt).seconds
        return ProtocolMessages.status(
            info, clients: list, uptimeSeconds: uptime, eventsPublished: eventsPublished,
            dropped: subscribersDropped, id: id)
    }

    // MARK: writing

    /// Publishes one event to every subscriber whose filter takes it; the line
    /// is encoded once, and only if someone wants it. `frameTime` is the kernel
    /// timestamp of the frame that decided the event. With `flush`, the lines
    /// are written at once; without, they wait in the subscribers' queues for
    /// `flushPublished()`, so that all the events of one loop turn leave in one
    /// write per subscriber.
    public func publish(_ event: GestureEvent, frameTime: EventTime, flush: Bool = true) {
        var line: SharedLine?
        var gesture: String?
        for c in clientList {
            guard c.closingDeadline == nil, let f = c.filter, f.matches(event) else { continue }
            var key: String?
            if event.state == .changed {
                switch f.changed {
                case .all: break
                case .latest:
                    key = gesture ?? (event.name + "\u{0}" + event.device)
                    gesture = key
                    if c.queue.hasWaiting(key!) { c.changedSkipped += 1 }
                case .perSecond(let n):
                    let g = gesture ?? (event.name + "\u{0}" + event.device)
                    gesture = g
                    if let last = c.lastChanged[g], event.time - last < Millis(1000 / Double(n)) {
                        c.changedSkipped += 1
                        continue
                    }
                    c.lastChanged[g] = event.time
                }
            } else if event.state != .began, !c.lastChanged.isEmpty {
                let g = gesture ?? (event.name + "\u{0}" + event.device)
                gesture = g
                c.lastChanged[g] = nil
            }
            if line == nil {
                let emitted = emittedAt ?? clock()
                emittedAt = emitted
                ProtocolMessages.writeEvent(event, frameTime: frameTime, emitted: emitted, to: &encoder)
                line = linePool.line(from: encoder)
                eventsPublished += 1
            }
            enqueue(line!, to: c, replacing: key)
            if !c.published {
                c.published = true
                publishedTo.append(c)
            }
        }
        if flush { flushPublished() }
    }

    /// Writes what was published since the last call: one gathering write per
    /// subscriber that received something.
    public func flushPublished() {
        emittedAt = nil
        guard !publishedTo.isEmpty else { return }
        for c in publishedTo {
            c.published = false
            guard clients[c.fd] === c else { continue }
            flush(c)
            if clients[c.fd] === c { updateInterest(c) }
        }
        publishedTo.removeAll(keepingCapacity: true)
    }

    private func enqueue(_ line: SharedLine, to c: Client, replacing key: String? = nil) {
        guard c.closingDeadline == nil else { return }
        if !c.queue.enqueue(line, replacing: key) { dropSlow(c) }
    }

    /// The client fell behind: what it has not begun to receive is dropped and
    /// replaced by a final `slow_consumer` line. The kernel's send buffer is
    /// raised first so that line fits behind what the kernel already holds;
    /// once it is written the socket is closed, and the client reads its
    /// backlog, then the reason, then end of file.
    private func dropSlow(_ c: Client) {
        guard c.closingDeadline == nil else { return }
        subscribersDropped += 1
        let unsent = SocketSys.unsentBytes(c.fd) ?? 0
        log(
            "socket: client \(c.id) (pid \(c.cred.pid)) dropped: fell behind with \(c.queue.count) lines, \(c.queue.queuedBytes) bytes queued and \(unsent) bytes unread in the socket"
        )
        c.queue.replaceWithFinal(
            SharedLine(
                ProtocolMessages.error(
                    .slowConsumer,
                    "you fell behind by \(c.queue.count) lines (\(c.queue.queuedBytes) bytes queued, \(unsent) bytes unread in the socket); read your events faster or subscribe with \"changed\":\"latest\""
                )))
        c.session.closedByServer()
        SocketSys.setSendBuffer(c.fd, bytes: 1 << 20)
        c.closingDeadline = clock() + limits.linger
    }

    /// Writes what the socket takes now, many lines per call; closes a client
    /// that is done or gone.
    private func flush(_ c: Client) {
        while !c.queue.isEmpty {
            let sent = vectors.withUnsafeMutableBufferPointer { v in
                Result { () throws(Errno) in
                    var msg = msghdr()
                    msg.msg_iov = v.baseAddress
                    msg.msg_iovlen = c.queue.gather(into: v)
                    return try retryingOnInterrupt { sendmsg(c.fd, &msg, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                }
            }
            switch sent {
            case .success(let n): c.queue.consume(n)
            case .failure(.wouldBlock): return
            case .failure(let e):
                drop(c, reason: "write: \(e)")
                return
            }
        }
        if c.closingDeadline != nil { remove(c, reason: "closed") }
    }

    /// Closes a client that sent no line within `firstLineWithin` of connecting.
    private func closeSilent(_ c: Client) {
        let seconds = formatFixed(Double(limits.firstLineWithin.value) / 1000, decimals: 0)
        connectionLine(
            "socket: client \(c.id) (pid \(c.cred.pid)) closed: no request within \(seconds) s of connecting")
        c.queue.replaceWithFinal(
            SharedLine(
                ProtocolMessages.error(
                    .idle,
                    "no request within \(seconds) s of connecting; send subscribe, status or another request first")))
        c.session.closedByServer()
        c.closingDeadline = clock() + limits.linger
        flush(c)
        if clients[c.fd] != nil { updateInterest(c) }
    }

    private func beginClosing(_ c: Client) {
        if c.closingDeadline == nil { c.closingDeadline = clock() + limits.linger }
    }

    private func updateInterest(_ c: Client) {
        let wanted = (
            readable: c.closingDeadline == nil && !c.session.isClosed && !c.session.inputEnded
                && !c.session.hasPendingInput && c.deferred.isEmpty,
            writable: !c.queue.isEmpty
        )
        if c.watched == nil || c.watched! != wanted {
            loop?.watch(c.fd, readable: wanted.readable, writable: wanted.writable)
            c.watched = wanted
        }
    }

    private func drop(_ c: Client, reason: String) { remove(c, reason: reason) }

    private func remove(_ c: Client, reason: String) {
        guard clients.removeValue(forKey: c.fd) != nil else { return }
        clientList.removeAll { $0 === c }
        if c.watched != nil { loop?.unwatch(c.fd) }
        // Unread input on a closed Unix socket turns the peer's end of file into
        // ECONNRESET; read it away so the client sees its last lines, then EOF.
        discardInput(c.fd)
        _ = close(c.fd)
        connectionLine("socket: client \(c.id) disconnected: \(reason)")
    }

    private func discardInput(_ fd: Int32) {
        var scratch = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<16 {
            let n = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n <= 0 { return }
        }
    }

    // MARK: time and shutdown

    /// The earliest deadline of a client being closed or of the listener's rest, for the loop's timer.
    public var nextDeadline: EventTime? {
        var earliest = acceptPausedUntil
        for c in clientList {
            // Requests left over from a client's last batch are answered on the next turn.
            if c.session.hasPendingInput && c.deferred.isEmpty && c.closingDeadline == nil { return clock() }
            if let d = c.closingDeadline ?? c.silentUntil, earliest == nil || d < earliest! { earliest = d }
        }
        return earliest
    }

    /// Closes clients whose last lines were not read in time; watches the
    /// listener again once its rest is over.
    public func expire(now: EventTime) {
        if let until = acceptPausedUntil, until <= now {
            acceptPausedUntil = nil
            loop?.watch(listener.fd, readable: true, writable: false)
        }
        for c in clients.values.sorted(by: { $0.id < $1.id })
        where c.session.hasPendingInput && c.deferred.isEmpty && c.closingDeadline == nil && clients[c.fd] != nil {
            apply(c.session.resume(), to: c)
            if clients[c.fd] != nil { updateInterest(c) }
        }
        for c in Array(clients.values) {
            if let d = c.closingDeadline, d <= now {
                remove(c, reason: "did not read its final line within the grace time")
            } else if c.closingDeadline == nil, let d = c.silentUntil, d <= now {
                closeSilent(c)
            }
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
        if spareFD >= 0 {
            _ = close(spareFD)
            spareFD = -1
        }
    }
}
