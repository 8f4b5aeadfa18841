import CLinux
import GestureConfig
import GestureCore
import GestureProtocol
import Glibc
import LinuxInput
import LinuxSystem

/// Collects one read of a device for the core, in a buffer reused from read
/// to read.
final class ReadBuffer: RawEventSink {
    var inputs: [DeviceInput] = []
    init() { inputs.reserveCapacity(256) }
    func feed(_ e: RawEvent) { inputs.append(.event(e)) }
    func beginResync() { inputs.append(.dropped) }
}

/// Where gestured touches the world: one epoll `EventLoop` with the udev
/// monitor, one libevdev reader per touchscreen (where a byte is read), the
/// timerfd, the signalfd, the config watcher and the socket server (where an
/// event leaves). It decides nothing: each readiness becomes an input to
/// `DaemonCore`, and the core's actions are carried out here, in order.
public final class DaemonLoop: DaemonControl {
    public private(set) var core: DaemonCore
    public let loop: EventLoop
    public let server: SocketServer?
    private let notifier: SystemdNotifier
    private let log: Logger
    private let udev: Udev
    private let timer: DeadlineTimer
    private var monitor: UdevMonitor?
    private var monitorRegistration: EventLoop.Registration?
    private var signals: SignalReceiver?
    private var watcher: ConfigWatcher?
    private let adapter: EventLoopSocketAdapter
    /// Open devices by syspath, and their registrations once watched.
    private var devices: [String: (evdev: EvdevDevice, registration: EventLoop.Registration?)] = [:]
    /// The uinput twins of exclusive devices, by the device's syspath.
    private var twins: [String: UinputTwin] = [:]
    /// Twins a write failed on, logged once each.
    private var twinWriteFailed: Set<String> = []
    private let buffer = ReadBuffer()
    /// The action list being carried out; reused, so a read allocates none.
    private var actions: [DaemonCore.Action] = []
    /// Set while an action list is carried out: what it asks the world answers
    /// into `queue` then, not into the core at once.
    private var carryingOut = false
    /// Answers to actions (an open's `.opened`, a listing, a read), and socket
    /// expiries, waiting for the current action list to be finished; handled in
    /// order, as an event loop runs the tasks queued while it ran one.
    private var queue: [Queued] = []
    private var queueHead = 0
    private var draining = false
    enum Queued {
        case input(DaemonCore.Input)
        /// `SocketServer.expire` may answer a client's pending control
        /// request, which is an input of its own: never run inside a list.
        case expireClients(EventTime)
    }
    /// `--stdout`: events are encoded here and collected in `output`, which is
    /// written once per input (one write for every event of a read).
    private var stdoutEncoder = JSONWriter(capacity: 1024)
    private var output: [UInt8] = []
    private var exitStatus: Int32 = 0
    /// What the core last heard about the sockets.
    private var reportedSockets: (deadline: EventTime?, subscribers: Int) = (nil, 0)
    /// The core's answer to the control request being carried out.
    private var controlReply: ControlReply?

    public init(
        configuration: Configuration, options: DaemonCore.Options, listener: ListeningSocket?,
        notifier: SystemdNotifier, log: Logger, arenaLog: ArenaLog? = nil
    ) throws(Errno) {
        var options = options
        options.watchdogInterval = notifier.watchdogInterval
        core = DaemonCore(configuration: configuration, options: options)
        core.arenaLog = arenaLog
        self.notifier = notifier
        self.log = log
        loop = try EventLoop()
        udev = try Udev()
        timer = try DeadlineTimer()
        adapter = EventLoopSocketAdapter(loop: loop, log: log)
        server = listener.map {
            SocketServer(listener: $0, info: DaemonInfo(configuration: configuration), log: { [log] in log.info($0) })
        }
        adapter.server = server
    }

    /// Sets up signals, the udev monitor (before enumerating, so nothing slips
    /// through between the two), the timer, the socket and the config watcher;
    /// then the core lists and opens the touchscreens and tells systemd it is ready.
    public func start() throws(Errno) {
        let signals = try SignalReceiver(signals: [SIGTERM, SIGINT, SIGHUP])
        self.signals = signals
        try loop.register(signals.fd) { [unowned self] _ in signalsReady() }
        let monitor = try UdevMonitor(udev: udev)
        self.monitor = monitor
        monitorRegistration = try loop.register(monitor.fileDescriptor) { [unowned self] _ in udevReady() }
        try loop.register(timer.fd) { [unowned self] _ in
            timer.acknowledge()
            send(.timerFired(at: monotonicNow()))
        }
        if let server {
            adapter.afterActivity = { [unowned self] in reportSockets() }
            server.controller = self
            server.start(on: adapter)
            log.info("socket: listening (\(server.listener.origin))")
        }
        if let path = core.options.configPath {
            do throws(Errno) {
                let w = try ConfigWatcher(path: path)
                watcher = w
                try loop.register(w.fd) { [unowned self, unowned w] _ in
                    if w.configChanged() { send(.configFileChanged) }
                }
            } catch {
                log.warning(
                    .system,
                    "cannot watch the directory of \(path) for changes (inotify: \(error)); reload with SIGHUP instead")
            }
        }
        send(.start(at: monotonicNow()))
    }

    /// Runs until SIGTERM/SIGINT (0) or a fatal output error (1).
    public func run() throws(Errno) -> Int32 {
        try loop.run()
        return exitStatus
    }

    // MARK: - Readiness becomes input

    private func udevReady() {
        guard let monitor else { return }
        while true {
            switch monitor.receive() {
            case .drained:
                return
            case .overflow:
                send(.udevOverflow)
            case .failed(let e):
                // Level-triggered: what cannot be received must not stay queued.
                monitor.discardPending()
                send(.udevFailed(e, at: monotonicNow()))
                return
            case .event(let e):
                send(.udev(e, at: monotonicNow()))
            }
            if monitorRegistration == nil { return }
        }
    }

    private func deviceReady(_ syspath: String, _ evdev: EvdevDevice, _ events: EventLoop.Events) {
        let end: DaemonCore.ReadEnd
        switch evdev.read(into: buffer) {
        case .drained:
            end =
                events.contains(.hangup) || events.contains(.error)
                ? .hangup(events.description, at: monotonicNow()) : .drained
        case .gone(let e):
            end = .gone(e, at: monotonicNow())
        }
        send(.read(syspath: syspath, buffer.inputs, end: end))
        buffer.inputs.removeAll(keepingCapacity: true)
    }

    private func signalsReady() {
        guard let signals else { return }
        for s in signals.receive() { send(.signal(s, at: monotonicNow())) }
    }

    private func reportSockets() {
        guard let server else { return }
        let now = (deadline: server.nextDeadline, subscribers: server.subscriberCount)
        guard now.deadline != reportedSockets.deadline || now.subscribers != reportedSockets.subscribers else { return }
        reportedSockets = now
        send(.sockets(nextDeadline: now.deadline, subscribers: now.subscribers))
    }

    /// A client's rotate, profile, pause or resume, carried out by the core at
    /// once. The server asks from its own readiness handler, or from an expiry
    /// the queue runs, both outside any action list.
    public func control(_ request: ControlRequest, from client: String) -> ControlReply {
        guard !carryingOut else {
            assertionFailure("a control request arrived while an action list was being carried out")
            log.error(.ours, "a control request from \(client) arrived while another input was being handled; refused")
            return .refused(.unavailable, "gestured was busy with another input; try again")
        }
        controlReply = nil
        defer { controlReply = nil }
        handle(.control(request, from: client, at: monotonicNow()))
        let reply = controlReply
        if !draining { drainQueue() }
        return reply ?? .refused(.unavailable, "gestured did not answer the request")
    }

    // MARK: - Actions

    /// Gives the core one input and carries out its actions. An action that
    /// asks the world something (open, list, read, load) answers with the next
    /// input; that answer waits in the queue until every action of the list
    /// is carried out, so a list is never interrupted by the handling of
    /// another (its later actions, a timer it arms, were decided before).
    public func send(_ input: DaemonCore.Input) {
        queue.append(.input(input))
        if !draining { drainQueue() }
    }

    private func drainQueue() {
        draining = true
        while queueHead < queue.count {
            let next = queue[queueHead]
            queueHead += 1
            switch next {
            case .input(let input): handle(input)
            case .expireClients(let now):
                server?.expire(now: now)
                // Clients closed or answered: the core learns the next deadline.
                reportSockets()
            }
        }
        queue.removeAll(keepingCapacity: true)
        queueHead = 0
        draining = false
    }

    /// One input, and its action list carried out in order; a list that ends
    /// in `.continueRead` (a frame written to a twin ahead of the recognizers)
    /// is followed at once by `.readContinued`, before anything queued.
    private func handle(_ input: DaemonCore.Input) {
        var next: DaemonCore.Input? = input
        while let input = next {
            next = nil
            core.handle(input, into: &actions)
            carryingOut = true
            var touchedSockets = false
            for action in actions {
                switch action {
                case .publish, .shutDownSocket, .expireClients: touchedSockets = true
                case .continueRead: next = .readContinued
                default: break
                }
                execute(action)
            }
            actions.removeAll(keepingCapacity: true)
            // What this input published leaves now: one write per subscriber, one to stdout.
            if touchedSockets { server?.flushPublished() }
            if !output.isEmpty { writeOutput() }
            carryingOut = false
            if touchedSockets { reportSockets() }
        }
    }

    private func writeOutput() {
        let failure = output.withUnsafeBytes { bytes -> Errno? in
            do throws(Errno) {
                try FileDescriptor.standardOutput.writeAll(bytes)
                return nil
            } catch { return error }
        }
        output.removeAll(keepingCapacity: true)
        if let failure { send(.outputFailed(failure, at: monotonicNow())) }
    }

    private func execute(_ action: DaemonCore.Action) {
        switch action {
        case .open(let node):
            do {
                let evdev = try EvdevDevice(node: node, udev: udev)
                devices[node.syspath] = (evdev, nil)
                send(.opened(snapshot(of: evdev, node: node)))
            } catch {
                send(.openFailed(node, error))
            }
        case .watch(let syspath):
            guard let d = devices[syspath] else { return }
            do {
                // The handler holds its device: a read looks nothing up. It is
                // unregistered before the device is closed.
                let r = try loop.register(d.evdev.fd) { [unowned self, evdev = d.evdev] events in
                    deviceReady(syspath, evdev, events)
                }
                devices[syspath]?.registration = r
            } catch {
                send(.watchFailed(syspath: syspath, error, at: monotonicNow()))
            }
        case .close(let syspath):
            twins.removeValue(forKey: syspath)?.destroy()
            twinWriteFailed.remove(syspath)
            guard let d = devices.removeValue(forKey: syspath) else { return }
            if let r = d.registration { loop.unregister(r) }
            d.evdev.close()
        case .makeTwin(let syspath):
            guard let d = devices[syspath] else { return }
            do {
                let twin = try UinputTwin(of: d.evdev)
                twins[syspath] = twin
                send(
                    .twinMade(
                        syspath: syspath, twin: .success(twin.syspath ?? twin.devnode ?? "(a uinput device)")))
            } catch {
                send(.twinMade(syspath: syspath, twin: .failure(.init(error.description))))
            }
        case .continueRead:
            break  // `handle` answers it once the list is carried out
        case .writeTwin(let syspath, let events):
            guard let twin = twins[syspath] else { return }
            do { try twin.write(events) } catch {
                if twinWriteFailed.insert(syspath).inserted {
                    log.error(.system, "\(syspath): writing to its uinput twin failed: \(error)")
                }
            }
        case .publish(let e, let frameTime):
            server?.publish(e, frameTime: frameTime, flush: false)
        case .print(let e):
            stdoutEncoder.reset()
            e.writeFields(to: &stdoutEncoder)
            stdoutEncoder.close()
            stdoutEncoder.withBytes { output.append(contentsOf: $0) }
            output.append(0x0A)
        case .armTimer(let t):
            do { try timer.arm(at: t) } catch { log.error(.ours, "timerfd_settime: \(error)") }
        case .notify(let n):
            switch n {
            case .ready(let status): notifier.ready(status: status)
            case .reloading: notifier.reloading()
            case .status(let s): notifier.status(s)
            case .stopping: notifier.stopping()
            case .watchdog: notifier.watchdog()
            }
        case .log(let line):
            switch line.level {
            case .debug: log.debug(line.message)
            case .info: log.info(line.message)
            case .warning(let f): log.warning(f, line.message)
            case .error(let f): log.error(f, line.message)
            }
        case .rescan:
            do { send(.devicesListed(try udev.enumerateInput())) } catch {
                send(.listingFailed(error, at: monotonicNow()))
            }
        case .drainInput:
            for syspath in devices.keys.sorted() {
                if let d = devices[syspath], d.registration != nil { deviceReady(syspath, d.evdev, []) }
            }
            send(.inputDrained)
        case .loadConfig(let trigger, let onlyIfChanged):
            let result = ConfigFile.load(path: core.options.configPath, trust: ConfigFile.daemonTrust())
            // A reload for a change on disk uses only a complete version: one
            // that nobody wrote to while it was read. Otherwise the write's end
            // brings another `.configFileChanged`.
            if onlyIfChanged, let watcher, !watcher.readWasUndisturbed() {
                log.debug("\(trigger), and was written to again while being read; reading it when that write ends")
                return
            }
            var snapshots: [String: DeviceSnapshot] = [:]
            if case .success = result {
                for (syspath, d) in devices {
                    snapshots[syspath] = snapshot(of: d.evdev, node: udev.node(syspath: syspath) ?? d.evdev.node)
                }
            }
            send(
                .configLoaded(
                    result, trigger: trigger, onlyIfChanged: onlyIfChanged, devices: snapshots,
                    at: monotonicNow()))
        case .updateInfo(let info):
            server?.info = info
        case .expireClients(let now):
            queue.append(.expireClients(now))
        case .pauseUdev:
            if let r = monitorRegistration { loop.unregister(r) }
            monitorRegistration = nil
        case .resumeUdev:
            guard let monitor, monitorRegistration == nil else { return }
            do {
                monitorRegistration = try loop.register(monitor.fileDescriptor) { [unowned self] _ in udevReady() }
            } catch {
                log.error(.ours, "cannot watch the udev monitor again: epoll_ctl: \(error)")
            }
        case .shutDownSocket:
            // The cancellations just published go before the final line.
            server?.flushPublished()
            server?.shutdown()
        case .reply(let r):
            controlReply = r
        case .stop(let status):
            exitStatus = status
            loop.stop()
        }
    }

    private func snapshot(of evdev: EvdevDevice, node: InputNode) -> DeviceSnapshot {
        DeviceSnapshot(
            node: node, description: evdev.description, isTypeA: evdev.isTypeA,
            trackingIDs: evdev.currentTrackingIDs(), toolTypes: evdev.currentToolTypes(),
            slot: evdev.currentSlot(), positions: evdev.currentPositions(), toolsDown: evdev.penToolsDown())
    }
}
