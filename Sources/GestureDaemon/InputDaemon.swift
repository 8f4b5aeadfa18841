import CLinux
import GestureCore
import Glibc
import LinuxInput
import LinuxSystem

extension DevicePipeline: RawEventSink {}

/// The live side of gestured: udev discovery and hotplug, one libevdev reader
/// and one pipeline per touchscreen, the deadline timer and the signals, all
/// on one `EventLoop`.
///
/// Output goes through `output`; the socket server will register its own fds
/// on `loop` and be another output.
public final class InputDaemon {
    public let loop: EventLoop
    public private(set) var configuration: Configuration
    /// The file SIGHUP reloads; nil when running on the built-in config.
    public let configPath: String?
    public let log: Logger
    /// Receives every gesture event; throws when the output is gone.
    private let output: (GestureEvent) throws(Errno) -> Void
    /// Also pass `failed` transitions to the output.
    public var includeFailures = false

    // Hooks for the service around the input side (socket, sd_notify, watchdog).
    /// Every event, failures included, with the kernel timestamp of the last
    /// frame the device's pipeline took before it (the frame that decided it).
    public var eventObserver: ((GestureEvent, EventTime) -> Void)?
    /// The open devices or the configuration changed.
    public var onChange: (() -> Void)?
    /// A reload begins, was applied, or was refused.
    public var reloadObserver: ((ReloadPhase) -> Void)?
    /// Another deadline for the one timer, and what to run when the timer fires.
    public var extraDeadline: (() -> EventTime?)?
    public var onTimer: ((EventTime) -> Void)?
    /// The daemon is stopping: gestures in flight were cancelled and published.
    public var onShutdown: (() -> Void)?

    public enum ReloadPhase: Sendable {
        case started
        case applied(Configuration)
        case refused(String)
        /// The file's content means the configuration already running.
        case unchanged
    }

    private let udev: Udev
    private var monitor: UdevMonitor?
    private let timer: DeadlineTimer
    private var signals: SignalReceiver?
    /// Open devices by udev syspath: the dedupe key.
    private var devices: [String: LiveDevice] = [:]
    private var nextSerial: UInt32 = 1
    /// What `run()` returns.
    private var exitStatus: Int32 = 0

    final class LiveDevice {
        let evdev: EvdevDevice
        var pipeline: DevicePipeline
        var registration: EventLoop.Registration?
        init(evdev: EvdevDevice, pipeline: DevicePipeline) { self.evdev = evdev; self.pipeline = pipeline }
        var label: String { "\(evdev.node.devnode ?? evdev.node.sysname) '\(evdev.description.name)'" }
    }

    public init(configuration: Configuration, configPath: String?, log: Logger,
                output: @escaping (GestureEvent) throws(Errno) -> Void) throws(Errno) {
        self.configuration = configuration
        self.configPath = configPath
        self.log = log
        self.output = output
        loop = try EventLoop()
        udev = try Udev()
        timer = try DeadlineTimer()
    }

    /// The syspaths of the devices in use.
    public var openDevices: [String] { devices.keys.sorted() }

    /// The devices in use, as `hello` and `status` list them.
    public var deviceSummaries: [DaemonInfo.Device] {
        devices.keys.sorted().compactMap { devices[$0] }.map {
            DaemonInfo.Device(name: $0.evdev.description.name, node: $0.evdev.node.devnode ?? $0.evdev.node.sysname,
                              sizeMM: $0.pipeline.decoder.geometry.sizeMM)
        }
    }

    /// Sets up signals, the udev monitor (before enumerating, so nothing slips
    /// through between the two), the timer, and opens the touchscreens present.
    public func start() throws(Errno) {
        let signals = try SignalReceiver(signals: [SIGTERM, SIGINT, SIGHUP])
        self.signals = signals
        try loop.register(signals.fd) { [unowned self] _ in handleSignals() }
        let monitor = try UdevMonitor(udev: udev)
        self.monitor = monitor
        try loop.register(monitor.fileDescriptor) { [unowned self] _ in handleUdev() }
        try loop.register(timer.fd) { [unowned self] _ in handleTimer() }
        rescan()
        if devices.isEmpty { log.info("no touchscreen yet; waiting for one to appear") }
    }

    /// Runs until SIGTERM/SIGINT (0) or a fatal output error (1).
    public func run() throws(Errno) -> Int32 {
        try loop.run()
        return exitStatus
    }

    // MARK: - Discovery and hotplug

    /// Opens every usable node udev lists that is not open yet, and closes the
    /// open ones udev no longer lists. At start, and after a netlink overflow.
    func rescan() {
        let nodes: [InputNode]
        do { nodes = try udev.enumerateInput() } catch {
            log.error(.system, "cannot enumerate input devices through udev: \(error)")
            return
        }
        let listed = Set(nodes.map(\.syspath))
        for (syspath, d) in devices where !listed.contains(syspath) {
            remove(d, because: "no longer listed by udev")
        }
        for node in nodes where node.isEventNode { add(node) }
    }

    func add(_ node: InputNode) {
        guard devices[node.syspath] == nil else { return }
        if let skip = DeviceSelection.check(node, configuration: configuration) {
            // A touchscreen skipped, or a rule applied, is news; a keyboard is not.
            var denied = false
            if case .deniedByConfig = skip { denied = true }
            let message = "skipping \(node.devnode ?? node.sysname) '\(node.name)': \(skip)"
            if denied || node.flag("ID_INPUT_TOUCHSCREEN") { log.info(message) } else { log.debug(message) }
            return
        }
        let evdev: EvdevDevice
        do { evdev = try EvdevDevice(node: node, udev: udev) } catch {
            switch error.errno {
            case .noSuchFile, .noDevice:
                log.info("\(node.devnode ?? node.sysname) went away before it could be used (\(error))")
            case .permissionDenied:
                log.error(.system, "\(error); run gestured as root or in the group owning the node (usually 'input')")
            default:
                log.error(.device, "cannot use \(node.devnode ?? node.sysname): \(error)")
            }
            return
        }
        if let skip = DeviceSelection.check(evdev.description) {
            log.info("skipping \(node.devnode ?? node.sysname) '\(evdev.description.name)': \(skip)")
            evdev.close()
            return
        }
        guard let pipeline = makePipeline(for: evdev) else { evdev.close(); return }
        let device = LiveDevice(evdev: evdev, pipeline: pipeline)
        do {
            device.registration = try loop.register(evdev.fd) { [unowned self, unowned device] events in
                handleInput(device, events)
            }
        } catch {
            log.error(.ours, "cannot watch \(device.label): epoll_ctl: \(error)")
            evdev.close()
            return
        }
        devices[node.syspath] = device
        let g = pipeline.decoder.geometry
        log.info("using \(device.label): \(evdev.isTypeA ? "type A via libmtdev, " : "")\(evdev.description.slotCount) slots, "
                 + "\(formatFixed(g.sizeMM.x, decimals: 0)) × \(formatFixed(g.sizeMM.y, decimals: 0)) mm (\(g.sizeSource.rawValue))"
                 + (CalibrationMatrix.isIdentity(g.calibration) ? "" : ", calibration \(g.calibration.map { formatFixed($0, decimals: 4) }.joined(separator: " "))")
                 + (g.rotation == .none ? "" : ", rotated \(g.rotation.rawValue)°"))
        onChange?()
    }

    /// A fresh decoder and arena for an open device, from the current config.
    /// Touches down right now are ignored until lifted.
    private func makePipeline(for evdev: EvdevDevice) -> DevicePipeline? {
        let node = evdev.node
        let (matrix, invalid) = CalibrationMatrix.of(node)
        if let invalid {
            log.warning(.device, "\(node.devnode ?? node.sysname): ignoring \(CalibrationMatrix.udevProperty)=\"\(invalid)\": expected six numbers; check the udev rule that sets it")
        }
        guard let geometry = configuration.geometry(for: evdev.description, syspath: node.syspath, calibration: matrix) else {
            log.info("skipping \(node.devnode ?? node.sysname): \(SkipReason.noPositionAxes)")
            return nil
        }
        if let problems = evdev.description.axisProblems {
            log.warning(.device, "\(node.devnode ?? node.sysname) '\(evdev.description.name)': \(problems)")
        }
        if geometry.sizeSource == .fallback {
            log.warning(.config, "'\(evdev.description.name)' reports no resolution and no [[device]] size_mm in \(configuration.source) matches it; assuming \(formatFixed(geometry.sizeMM.x, decimals: 0)) × \(formatFixed(geometry.sizeMM.y, decimals: 0)) mm. Set size_mm = [width, height] in a [[device]] entry for it.")
        }
        let serial = nextSerial
        nextSerial &+= 1
        return DevicePipeline(description: evdev.description, geometry: geometry, configuration: configuration,
                              serial: serial, initialTrackingIDs: evdev.currentTrackingIDs(),
                              initialToolTypes: evdev.currentToolTypes(), initialSlot: evdev.currentSlot())
    }

    /// Tears a device down, once: every live touch and every gesture in flight
    /// is cancelled, then the fd is unregistered and closed. Called for ENODEV,
    /// EPOLLHUP/EPOLLERR and udev remove, whichever comes first.
    func remove(_ device: LiveDevice, because reason: String) {
        guard devices[device.evdev.node.syspath] === device else { return }
        devices[device.evdev.node.syspath] = nil
        if let r = device.registration { loop.unregister(r) }
        device.registration = nil
        device.pipeline.cancelAll(at: monotonicNow(), reason: "device removed")
        publish(device.pipeline)
        device.evdev.close()
        log.info("removed \(device.label): \(reason)")
        rearmTimer()
        onChange?()
    }

    // MARK: - Handlers

    private func handleInput(_ device: LiveDevice, _ events: EventLoop.Events) {
        let dropped = device.evdev.droppedCount
        let clamped = device.pipeline.decoder.clampedCount
        let outcome = device.evdev.read(into: device.pipeline)
        publish(device.pipeline)
        if clamped == 0, let first = device.pipeline.decoder.firstClamped {
            log.warning(.device, "\(device.label): position \(first.value) is outside the range the device declares; such values are clamped to the range (logged once)")
        }
        if device.evdev.droppedCount != dropped {
            log.warning(.system, "\(device.label): the kernel's event buffer overflowed (SYN_DROPPED) while gestured was not reading; resynced through libevdev, touches that vanished meanwhile were cancelled")
        }
        switch outcome {
        case .drained:
            if events.contains(.hangup) || events.contains(.error) {
                remove(device, because: "the kernel reported \(events)")
                return
            }
        case .gone(let e):
            if e == .noDevice {
                remove(device, because: "ENODEV: unplugged")
            } else {
                log.error(.device, "\(device.label): read failed: \(e)")
                remove(device, because: "read failed: \(e)")
            }
            return
        }
        rearmTimer()
    }

    private func handleUdev() {
        guard let monitor else { return }
        while true {
            switch monitor.receive() {
            case .drained:
                return
            case .overflow:
                log.warning(.system, "udev events were lost (netlink ENOBUFS); re-enumerating input devices")
                rescan()
            case .failed(let e):
                log.error(.system, "reading udev events: \(e)")
                return
            case .event(let e):
                guard e.node.isEventNode else { continue }
                log.debug("udev \(e.action.rawValue) \(e.node.devnode ?? e.node.sysname) \(e.node.syspath)")
                switch e.action {
                case .add, .change:
                    add(e.node)
                case .remove:
                    if let d = devices[e.node.syspath] { remove(d, because: "udev remove") }
                case .bind, .unbind, .other:
                    continue
                }
            }
        }
    }

    private func handleTimer() {
        timer.acknowledge()
        let now = monotonicNow()
        for d in devices.values {
            d.pipeline.advance(to: now)
            publish(d.pipeline)
        }
        onTimer?(now)
        rearmTimer()
    }

    private func handleSignals() {
        guard let signals else { return }
        for s in signals.receive() {
            switch s {
            case SIGTERM, SIGINT:
                log.info("\(s == SIGTERM ? "SIGTERM" : "SIGINT"): cancelling gestures in flight and stopping")
                shutdown(reason: "daemon stopping")
                return
            case SIGHUP:
                reload()
            default:
                log.error(.ours, "unexpected signal \(s) on the signalfd")
            }
        }
    }

    // MARK: - Timer, output, reload, shutdown

    /// Arms the one timer at the earliest deadline of any arena, or disarms it.
    public func rearmTimer() {
        var earliest: EventTime? = extraDeadline?()
        for d in devices.values {
            if let t = d.pipeline.nextDeadline, earliest == nil || t < earliest! { earliest = t }
        }
        do { try timer.arm(at: earliest) } catch {
            log.error(.ours, "timerfd_settime: \(error)")
        }
    }

    private func publish(_ pipeline: DevicePipeline) {
        let frameTime = pipeline.decoder.lastFrame.time
        pipeline.drain { e in
            eventObserver?(e, frameTime)
            guard includeFailures || e.state != .failed, exitStatus == 0 else { return }
            do { try output(e) } catch {
                log.error(.system, "cannot write events: \(error); stopping")
                exitStatus = 1
                loop.stop()
            }
        }
    }

    /// Cancels everything in flight, closes every device and stops the loop.
    public func shutdown(reason: String) {
        let now = monotonicNow()
        for d in devices.values {
            if let r = d.registration { loop.unregister(r) }
            d.pipeline.cancelAll(at: now, reason: reason)
            publish(d.pipeline)
            d.evdev.close()
        }
        devices.removeAll()
        onShutdown?()
        loop.stop()
    }

    /// SIGHUP: loads the config file again. A bad file is reported and the
    /// running config stays. A good one replaces every device's arena (gestures
    /// in flight are cancelled; fingers down stay ignored until lifted) and the
    /// device rules are applied again.
    /// `trigger` names the cause in the log; `onlyIfChanged` skips a file whose
    /// content means the running configuration (an editor touching it).
    public func reload(trigger: String = "SIGHUP", onlyIfChanged: Bool = false) {
        let result = ConfigFile.load(path: configPath)
        switch result {
        case .failure(let e):
            for line in e.description.split(separator: "\n") { log.error(.config, String(line)) }
            log.info("\(trigger): \(configPath ?? "the config") has errors; keeping the previous configuration")
            reloadObserver?(.refused(e.description))
            return
        case .success(let c):
            if onlyIfChanged && c == configuration {
                log.debug("\(trigger): \(c.source) unchanged")
                reloadObserver?(.unchanged)
                return
            }
            reloadObserver?(.started)
            configuration = c
        }
        log.info("\(trigger): loaded \(configuration.source): \(configuration.recognizers.count) recognizers, \(configuration.devices.count) device rule(s)")
        for d in Array(devices.values) {
            let node = udev.node(syspath: d.evdev.node.syspath) ?? d.evdev.node
            if let skip = DeviceSelection.check(node, configuration: configuration) {
                remove(d, because: "after reload: \(skip)")
                continue
            }
            d.pipeline.cancelAll(at: monotonicNow(), reason: "config reloaded")
            publish(d.pipeline)
            guard let fresh = makePipeline(for: d.evdev) else { remove(d, because: "after reload: no usable geometry"); continue }
            d.pipeline = fresh
        }
        rescan()
        rearmTimer()
        reloadObserver?(.applied(configuration))
        onChange?()
    }
}
