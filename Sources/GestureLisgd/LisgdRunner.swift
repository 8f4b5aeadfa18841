import GestureClient
import GestureConfig
import GestureCore
import Glibc
import LinuxInput
import LinuxSystem

/// `gesturectl lisgd` at run time: one touchscreen read through libevdev into
/// the daemon's own `DevicePipeline` (decoder, arena, recognizers), on one
/// epoll loop with the pipeline's deadline on a timerfd; each event a binding
/// routes becomes its command, started with `/bin/sh -c` and not waited for.
public final class LisgdRunner {
    private let translation: LisgdTranslation
    private let evdev: EvdevDevice
    private let pipeline: DevicePipeline
    private let sink: Sink
    private let loop: EventLoop
    private let timer: DeadlineTimer
    private let signals: SignalReceiver
    private let commands: ActionRunner
    private let bindingCommands: [Int: [ActionRunner.Command]]
    private let verbose: Bool
    private let say: (String) -> Void
    private var exitStatus: Int32 = 0
    /// Commands running at once, at most; past it a binding's command is not
    /// started and that is said.
    public static let maxRunning = 64

    final class Sink: RawEventSink {
        let pipeline: DevicePipeline
        init(_ p: DevicePipeline) { pipeline = p }
        func feed(_ e: RawEvent) { pipeline.feed(e) }
        func beginResync() { pipeline.beginResync() }
    }

    /// Sets up the loop on an open device. Signals are blocked from here on
    /// (they arrive on a signalfd); commands get them back unblocked.
    public init(
        translation: LisgdTranslation, configuration: Configuration, device: EvdevDevice,
        verbose: Bool, say: @escaping (String) -> Void
    ) throws(Errno) {
        self.translation = translation
        bindingCommands = LisgdRunner.commands(of: translation)
        self.evdev = device
        self.verbose = verbose
        self.say = say
        let (matrix, invalid) = CalibrationMatrix.of(device.node)
        if let invalid {
            say("ignoring \(CalibrationMatrix.udevProperty)=\"\(invalid)\": expected six numbers")
        }
        guard
            let geometry = configuration.geometry(
                for: device.description, syspath: device.node.syspath,
                calibration: matrix)
        else { throw Errno.noDevice }
        pipeline = DevicePipeline(
            description: device.description, geometry: geometry, configuration: configuration,
            initialTrackingIDs: device.currentTrackingIDs(),
            initialToolTypes: device.currentToolTypes(), initialSlot: device.currentSlot())
        // No binding runs on a failure, and nothing else here reads events.
        pipeline.arena.emitsFailures = false
        sink = Sink(pipeline)
        signals = try SignalReceiver(signals: [SIGTERM, SIGINT, SIGHUP, SIGCHLD])
        loop = try EventLoop()
        timer = try DeadlineTimer()
        // As lisgd's system() runs them: in our session, with our stdin, and
        // nothing said of how they ended unless asked (-v).
        commands = ActionRunner(maxRunning: LisgdRunner.maxRunning, newSession: false, reportsExits: verbose, warn: say)
    }

    /// Runs until a signal ends it (0) or the device goes away (1).
    public func run() throws(Errno) -> Int32 {
        try loop.register(evdev.fd) { [unowned self] events in
            readDevice()
            if events.contains(.hangup) || events.contains(.error) { stop("the device hung up (\(events))", status: 1) }
        }
        try loop.register(timer.fd) { [unowned self] _ in
            timer.acknowledge()
            // Input the kernel queued before now goes first: a lift stamped
            // before the deadline must not count as too late.
            readDevice()
            pipeline.advance(to: monotonicNow())
            dispatch()
        }
        try loop.register(signals.fd) { [unowned self] _ in
            for s in signals.receive() {
                if s == SIGCHLD { commands.reap() } else { stop(nil, status: 0) }
            }
        }
        try loop.run()
        pipeline.cancelAll(at: monotonicNow(), because: .daemonStopping)
        pipeline.drain { _ in }
        commands.reap()
        return exitStatus
    }

    /// Each binding's command as the runner takes it, by binding number: made
    /// once with the translation, not again for every fire.
    private static func commands(of translation: LisgdTranslation) -> [Int: [ActionRunner.Command]] {
        var made: [Int: [ActionRunner.Command]] = [:]
        for (_, route) in translation.routes {
            let bindings: [LisgdBinding]
            switch route {
            case .swipe(let b): bindings = [b]
            case .slider(let plus, let minus): bindings = [plus, minus].compactMap { $0 }
            }
            for b in bindings { made[b.number] = [ActionRunner.Command(exec: b.command, label: "binding \(b.number)")] }
        }
        return made
    }

    private func stop(_ why: String?, status: Int32) {
        if let why { say(why) }
        exitStatus = status
        loop.stop()
    }

    private func readDevice() {
        switch evdev.read(into: sink) {
        case .drained: break
        case .gone(let e):
            stop(
                "\(evdev.node.devnode ?? evdev.node.syspath): \(e == .noDevice ? "the device went away" : "read failed: \(e)")",
                status: 1)
        }
        dispatch()
    }

    private func dispatch() {
        pipeline.drain { e in
            if verbose, e.state != .failed, translation.route(named: e.name) != nil { say("event: \(e.json)") }
            guard let b = translation.binding(for: e), let command = bindingCommands[b.number] else { return }
            if verbose { say("binding \(b.number) '\(b.text)': execute \(b.command)") }
            commands.run(command, eventLine: nil, environment: [], event: e.name)
        }
        do { try timer.arm(at: pipeline.nextDeadline) } catch { say("timerfd_settime: \(error)") }
    }
}

extension LisgdRunner {
    /// Opens the touchscreen at `path` (a symlink such as
    /// /dev/input/by-path/first-touchscreen is followed) as the calling user,
    /// the node udev knows for it. `option` is the command's option that names
    /// the node, for the errors.
    public static func openDevice(_ path: String, option: String = "-d") throws(LisgdError) -> EvdevDevice {
        var st = stat()
        guard stat(path, &st) == 0 else {
            throw LisgdError(
                "\(path): \(Errno.current); give the touchscreen's node with \(option) (`gesturectl devices` lists them)"
            )
        }
        guard st.st_mode & S_IFMT == S_IFCHR else {
            throw LisgdError("\(path) is not a device node; give the touchscreen's /dev/input/eventN with \(option)")
        }
        let udev: Udev
        do { udev = try Udev() } catch { throw LisgdError("cannot set up libudev: \(error)") }
        guard let syspath = udev.syspath(ofCharacterDevice: UInt64(st.st_rdev)), let node = udev.node(syspath: syspath)
        else {
            throw LisgdError("\(path): udev knows no input device with that node")
        }
        guard node.isEventNode else {
            throw LisgdError(
                "\(path) is not an input event node (\(node.syspath)); give the touchscreen's /dev/input/eventN with \(option)"
            )
        }
        do {
            return try EvdevDevice(node: node, udev: udev)
        } catch {
            if error.errno == .permissionDenied {
                throw LisgdError(
                    "cannot read \(node.devnode ?? path): \(error.errno). gesturectl lisgd reads the touchscreen as you (uid \(getuid())): "
                        + "install gestured's udev rule (70-gestured-touchscreen.rules: the user at the seat may read touchscreens) "
                        + "and log in again, or ask the administrator for read access to \(node.devnode ?? path)")
            }
            throw LisgdError("\(path): \(error)")
        }
    }
}
