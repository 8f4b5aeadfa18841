import GestureCore
import Glibc
import LinuxInput
import LinuxSystem

/// Puts the socket server's descriptors on the daemon's one `EventLoop`.
final class EventLoopSocketAdapter: SocketServerLoop {
    let loop: EventLoop
    weak var server: SocketServer?
    /// After any socket activity: a client may now have a deadline for the timer.
    var afterActivity: () -> Void = {}
    private var registrations: [Int32: EventLoop.Registration] = [:]
    private let log: Logger

    init(loop: EventLoop, log: Logger) { self.loop = loop; self.log = log }

    func watch(_ fd: Int32, readable: Bool, writable: Bool) {
        var interest: EventLoop.Events = []
        if readable { interest.insert(.readable) }
        if writable { interest.insert(.writable) }
        do {
            if let r = registrations[fd] {
                try loop.modify(r, interest: interest)
            } else {
                registrations[fd] = try loop.register(FileDescriptor(rawValue: fd), for: interest) { [unowned self] events in
                    server?.handle(fd: fd, readable: events.contains(.readable), writable: events.contains(.writable),
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

/// gestured as a service: the input side, the subscribers' socket, config
/// reload on SIGHUP and on change of the file, and systemd's notify protocol
/// (READY, STATUS, RELOADING, WATCHDOG from the loop's own timer, STOPPING).
public final class GesturedService {
    public let daemon: InputDaemon
    public let server: SocketServer?
    public let notifier: SystemdNotifier
    private let adapter: EventLoopSocketAdapter
    private var watcher: ConfigWatcher?
    private var nextWatchdog: EventTime?
    private let log: Logger

    public init(daemon: InputDaemon, listener: ListeningSocket?, notifier: SystemdNotifier, log: Logger) {
        self.daemon = daemon
        self.notifier = notifier
        self.log = log
        adapter = EventLoopSocketAdapter(loop: daemon.loop, log: log)
        server = listener.map {
            SocketServer(listener: $0, info: DaemonInfo(configuration: daemon.configuration),
                         log: { [log] in log.info($0) })
        }
        adapter.server = server
        adapter.afterActivity = { [unowned daemon] in daemon.rearmTimer() }
    }

    /// Starts everything and tells systemd we are ready: devices enumerated,
    /// socket listening.
    public func start() throws(Errno) {
        if let server {
            server.start(on: adapter)
            daemon.eventObserver = { [unowned server] e, frameTime in server.publish(e, frameTime: frameTime) }
            log.info("socket: listening (\(server.listener.origin))")
        }
        daemon.onChange = { [unowned self] in refreshInfo() }
        daemon.reloadObserver = { [unowned self] phase in reloaded(phase) }
        daemon.extraDeadline = { [unowned self] in
            [server?.nextDeadline, nextWatchdog].compactMap { $0 }.min()
        }
        daemon.onTimer = { [unowned self] now in timerFired(now) }
        daemon.onShutdown = { [unowned self] in
            notifier.stopping()
            server?.shutdown()
        }
        if let path = daemon.configPath {
            do throws(Errno) {
                watcher = try ConfigWatcher(path: path)
            } catch {
                log.warning(.system, "cannot watch the directory of \(path) for changes (inotify: \(error)); reload with SIGHUP instead")
            }
            if let w = watcher {
                try daemon.loop.register(w.fd) { [unowned self, unowned w] _ in
                    if w.configChanged() { daemon.reload(trigger: "\(path) changed", onlyIfChanged: true) }
                }
            }
        }
        try daemon.start()
        if let interval = notifier.watchdogInterval {
            nextWatchdog = monotonicNow()
            log.info("systemd watchdog: pinging every \(interval)")
        }
        refreshInfo()
        daemon.rearmTimer()
        notifier.ready(status: statusLine())
    }

    public func run() throws(Errno) -> Int32 { try daemon.run() }

    private func statusLine() -> String {
        let d = daemon.openDevices.count
        let s = server?.subscriberCount ?? 0
        return "\(d) touchscreen\(d == 1 ? "" : "s"), \(daemon.configuration.recognizers.count) recognizers, \(s) subscriber\(s == 1 ? "" : "s")"
    }

    private func refreshInfo() {
        server?.info = DaemonInfo(configuration: daemon.configuration, devices: daemon.deviceSummaries)
        notifier.status(statusLine())
    }

    private func reloaded(_ phase: InputDaemon.ReloadPhase) {
        switch phase {
        case .started:
            notifier.reloading()
        case .applied:
            refreshInfo()
            notifier.ready(status: statusLine())
        case .refused(let why):
            // systemd sees a reload that changed nothing, and why.
            notifier.reloading()
            notifier.ready(status: "reload refused, previous config kept: \(why.split(separator: "\n").first ?? "")")
        case .unchanged:
            break
        }
    }

    private func timerFired(_ now: EventTime) {
        server?.expire(now: now)
        if let due = nextWatchdog, due <= now, let interval = notifier.watchdogInterval {
            // Sent from the loop's own timer: a wedged loop stops the pings.
            notifier.watchdog()
            nextWatchdog = now + interval
        }
    }
}
