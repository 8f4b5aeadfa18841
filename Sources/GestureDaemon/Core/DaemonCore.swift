import GestureConfig
import GestureCore
import GestureProtocol
import Glibc
import LinuxInput
import LinuxSystem

/// What the kernel and udev say about one device the loop has opened: the
/// input to every decision about it. The loop reads it from libevdev (no system
/// call); tests build it from a recording's description.
public struct DeviceSnapshot: Sendable {
    /// udev's view of the node now (properties such as the calibration matrix).
    public var node: InputNode
    /// As the decoder sees it (slotted: type A devices after libmtdev).
    public var description: DeviceDescription
    public var isTypeA: Bool
    /// Per slot, as libevdev knows them now: touches already down are ignored until lifted.
    public var trackingIDs: [Int32]
    public var toolTypes: [Int32]
    public var slot: Int
    /// Per slot, the last position reported: a touch landing on it again reports none.
    public var positions: [SlotPosition]
    /// A pen node's tool keys down (BTN_TOOL_PEN…): a pen already in proximity.
    public var toolsDown: [UInt16]

    public init(
        node: InputNode, description: DeviceDescription, isTypeA: Bool = false,
        trackingIDs: [Int32] = [], toolTypes: [Int32] = [], slot: Int = 0, positions: [SlotPosition] = [],
        toolsDown: [UInt16] = []
    ) {
        self.toolsDown = toolsDown
        self.node = node
        self.description = description
        self.isTypeA = isTypeA
        self.trackingIDs = trackingIDs
        self.toolTypes = toolTypes
        self.slot = slot
        self.positions = positions
    }
}

/// One item of what a read of a device brought: a kernel event, or the mark
/// that the kernel's buffer overflowed (SYN_DROPPED) and what follows is
/// libevdev's resync.
public enum DeviceInput: Sendable, Equatable {
    case event(RawEvent)
    case dropped
}

/// gestured's decisions as a value: every input the outside world gives the
/// daemon (udev, a device's events, the timer, a signal, a parsed config, the
/// socket's state) goes in through `handle`, and what to do comes out as
/// actions; the caller (`DaemonLoop`, or a test on a fake clock) does the I/O.
/// It never reads a clock: every input that needs the time carries it.
///
/// ```swift
/// var core = DaemonCore(configuration: c, options: .init())
/// for action in core.handle(.start(at: now)) { … }   // .rescan: enumerate udev
/// ```
public struct DaemonCore {
    /// Where each device's arena traces the recognizers asked for (`--trace`)
    /// and reports recognizer bugs; nil: nowhere.
    public var arenaLog: ArenaLog?

    public struct Options: Sendable {
        /// The config file a reload reads; nil means the built-in config.
        public var configPath: String?
        /// Print events on stdout (`--stdout`), and failed transitions too (`--failures`).
        public var printEvents = false
        public var printFailures = false
        /// Half of systemd's `WatchdogSec`, when it expects pings.
        public var watchdogInterval: Millis?
        /// How long the udev monitor rests after a receive error before it is read again.
        public var udevBackoff = Millis(1000)
        /// After a failed listing, the wait before the next try: doubling from
        /// the first to the last (EMFILE at start-up passes once descriptors free up).
        public var listingRetryFirst = Millis(1000)
        public var listingRetryLast = Millis(60_000)
        /// The config file was refused at start, for this reason: the daemon
        /// runs with no recognizers (its socket stays up) and says so in its
        /// status until a reload loads the file.
        public var refusedAtStart: String?
        public init(
            configPath: String? = nil, printEvents: Bool = false, printFailures: Bool = false,
            watchdogInterval: Millis? = nil, refusedAtStart: String? = nil
        ) {
            self.configPath = configPath
            self.refusedAtStart = refusedAtStart
            self.printEvents = printEvents
            self.printFailures = printFailures
            self.watchdogInterval = watchdogInterval
        }
    }

    public enum Input: Sendable {
        /// The loop has its descriptors: enumerate, open what is there, then say ready.
        case start(at: EventTime)
        /// What udev lists now (at start, after a netlink overflow, after a reload).
        case devicesListed([InputNode])
        case listingFailed(Errno, at: EventTime)
        /// A udev add, change or remove.
        indirect case udev(InputNodeEvent, at: EventTime)
        /// The kernel dropped udev messages (ENOBUFS).
        case udevOverflow
        /// Receiving from the udev monitor failed; the loop has discarded what was pending.
        case udevFailed(Errno, at: EventTime)
        /// A device the core asked to open is open.
        indirect case opened(DeviceSnapshot)
        /// `.makeTwin` was carried out: the device is grabbed and its twin is
        /// `twin` (its input device's syspath), or it failed and why.
        case twinMade(syspath: String, twin: Result<String, TwinFailure>)
        indirect case openFailed(InputNode, EvdevDevice.OpenError)
        case watchFailed(syspath: String, Errno, at: EventTime)
        /// A read of a device: everything it had, then how the read ended.
        case read(syspath: String, [DeviceInput], end: ReadEnd)
        /// `.continueRead` was reached: the twin has the frame; the rest of the read.
        case readContinued
        /// The timer fired; the core asks for every device's queued input first.
        case timerFired(at: EventTime)
        /// Every device was read after `timerFired`: now time may advance.
        case inputDrained
        case signal(Int32, at: EventTime)
        /// The config file changed on disk.
        case configFileChanged
        /// A reload's file was parsed; `devices` is the kernel's view of every open device now.
        indirect case configLoaded(
            Result<Configuration, ConfigFile.ConfigFailure>, trigger: String, onlyIfChanged: Bool,
            devices: [String: DeviceSnapshot], at: EventTime)
        /// The socket server's state after it was active.
        case sockets(nextDeadline: EventTime?, subscribers: Int)
        /// Writing to stdout failed.
        case outputFailed(Errno, at: EventTime)
        /// A socket client asks to rotate, switch profile, pause or resume;
        /// `client` says who, for the log. Answered with `.reply`.
        indirect case control(ControlRequest, from: String, at: EventTime)
    }

    /// Why a device's twin could not be made.
    public struct TwinFailure: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public init(_ message: String) { self.message = message }
        public var description: String { message }
    }

    public enum ReadEnd: Sendable, Equatable {
        /// Everything the kernel had was read.
        case drained
        /// epoll reported a hang-up or an error on the descriptor.
        case hangup(String, at: EventTime)
        /// The read failed for good (ENODEV: unplugged).
        case gone(Errno, at: EventTime)
    }

    public enum Notification: Sendable, Equatable {
        case ready(status: String)
        case reloading
        case status(String)
        case stopping
        case watchdog
    }

    public struct LogLine: Sendable, Equatable, CustomStringConvertible {
        public enum Level: Sendable, Equatable { case debug, info, warning(Fault), error(Fault) }
        public var level: Level
        public var message: String
        public var description: String {
            switch level {
            case .debug: "debug: \(message)"
            case .info: message
            case .warning(let f): "warning (\(f.rawValue)): \(message)"
            case .error(let f): "error (\(f.rawValue)): \(message)"
            }
        }
    }

    public enum Action: Sendable {
        /// Open the node and answer `.opened` or `.openFailed`.
        case open(InputNode)
        /// Start reading an opened device.
        case watch(syspath: String)
        /// Stop reading and close a device (and remove its twin).
        case close(syspath: String)
        /// Make the uinput twin of an exclusive device and grab the device;
        /// answer `.twinMade`.
        case makeTwin(syspath: String)
        /// Write events to a device's twin, now.
        case writeTwin(syspath: String, [RawEvent])
        /// Carry out the actions before it (a frame written to a twin ahead of
        /// the recognizers), then answer `.readContinued` at once, before any
        /// other input: the recognizers' turn on that frame and the rest of the read.
        case continueRead
        /// To the socket's subscribers; `frameTime` is the kernel time of the frame that decided it.
        case publish(GestureEvent, frameTime: EventTime)
        /// To stdout.
        case print(GestureEvent)
        /// The one timer, at an absolute CLOCK_MONOTONIC time; nil disarms it.
        case armTimer(EventTime?)
        case notify(Notification)
        case log(LogLine)
        /// Enumerate udev and answer `.devicesListed` or `.listingFailed`.
        case rescan
        /// Read every open device now, then answer `.inputDrained`.
        case drainInput
        /// Parse the config file and answer `.configLoaded`.
        case loadConfig(trigger: String, onlyIfChanged: Bool)
        /// What `hello` and `status` report.
        case updateInfo(DaemonInfo)
        /// Close socket clients whose grace time is over.
        case expireClients(at: EventTime)
        /// Stop and resume watching the udev monitor.
        case pauseUdev
        case resumeUdev
        /// Tell every client the daemon stops and close the socket.
        case shutDownSocket
        case stop(exitStatus: Int32)
        /// The answer to a `.control` input, for the client that asked.
        case reply(ControlReply)
    }

    /// A class, so that the per-read lookup and the deadline scan take one
    /// reference instead of copying the node's and the description's fields.
    final class OpenDevice {
        var node: InputNode
        let description: DeviceDescription
        let isTypeA: Bool
        var pipeline: DevicePipeline
        /// What the apps get, for an exclusive device; it outlives reloads.
        var relay: TwinRelay?
        /// Its twin's syspath once made.
        var twin: String?
        var label: String { "\(node.devnode ?? node.sysname) '\(shownName(description.name))'" }
        init(node: InputNode, description: DeviceDescription, isTypeA: Bool, pipeline: DevicePipeline) {
            self.node = node
            self.description = description
            self.isTypeA = isTypeA
            self.pipeline = pipeline
        }
    }

    /// An open pen node and the touchscreen it is the pen of.
    struct PenLink {
        var node: InputNode
        var screen: String
        var label: String { "\(node.devnode ?? node.sysname) '\(shownName(node.name))'" }
    }

    /// Why the core asked for a listing: what to say when it is done.
    enum Listing { case start, reload, resync }

    /// A read of a device being handled: where it stopped when a frame went to
    /// the twin ahead of the recognizers (`.continueRead`).
    struct ReadInProgress {
        var syspath: String
        var device: OpenDevice
        var inputs: [DeviceInput]
        var next = 0
        var end: ReadEnd
        var resyncs = 0
        /// The decoder's clamped count when the read began.
        var clamped: Int
        /// Frames the twin got that the decoder and the arena have not seen
        /// yet: `inputs[start..<next]`, from the first one's SYN_REPORT (its
        /// other events were decoded as they came); `framed`, what the decoder
        /// made of that SYN_REPORT when the relay had it decoded to judge it.
        var ahead: (start: Int, framed: Bool?)?
        /// The last frame in `ahead`'s range did not go ahead: it waits for the arena.
        var stopped = false

        /// Goes on with the read of a device without a twin: every event to
        /// the decoder and the arena.
        mutating func go(on p: DevicePipeline) {
            assert(ahead == nil, "only a twin's frames go ahead")
            while next < inputs.count {
                let input = inputs[next]
                next += 1
                switch input {
                case .event(let e):
                    p.feed(e)
                case .dropped:
                    p.beginResync()
                    resyncs += 1
                }
            }
        }

        /// Goes on with the read of an exclusive device, whose twin `relay`
        /// feeds; stops after frames that went ahead (`ahead` is set).
        mutating func go(on p: DevicePipeline, through relay: inout TwinRelay) {
            if let (start, framed) = ahead {
                // The twin has these frames: the decoder and the arena's turn.
                ahead = nil
                for i in start..<next {
                    guard case .event(let e) = inputs[i] else { continue }
                    let made = (i == start ? framed : nil) ?? p.decode(e)
                    if made { p.recognize() }
                    guard e.type == EV.SYN && e.code == SYN.REPORT else { continue }
                    let outlook = p.arena.consumeOutlook(fingers: relay.outlookFingers)
                    if stopped && i == next - 1 {
                        _ = relay.endFrame(outlook, at: e.time)
                    } else {
                        _ = relay.endForwardedFrame(outlook, at: e.time)
                    }
                }
                stopped = false
            }
            reading: while next < inputs.count {
                let input = inputs[next]
                next += 1
                switch input {
                case .event(let e):
                    guard relay.feed(e) else {
                        // After a frame that went ahead, the decoder waits for the write.
                        if ahead == nil, p.decode(e) { p.recognize() }
                        continue
                    }
                    // The frame's end. The decoder is given it before the write only
                    // when the relay asks whether a consuming recognizer could take
                    // the sequence it begins, and only if no frame of this read went
                    // ahead (the decoder is behind them); a touch the decoder ignores
                    // makes no frame, and then the arena decides, as for any frame.
                    var framed: Bool?
                    let behind = ahead != nil
                    let goesAhead = relay.forwardAhead(at: e.time) { fingers in
                        if behind { return true }
                        let f = p.decode(e)
                        framed = f
                        return !f || p.mayConsume(fingers: fingers)
                    }
                    if goesAhead {
                        // Frames that go ahead one after another leave in one write.
                        if ahead == nil { ahead = (next - 1, framed) }
                        continue
                    }
                    if behind {
                        // This one waits for the arena, which has not seen those before it.
                        stopped = true
                        break reading
                    }
                    if framed ?? p.decode(e) { p.recognize() }
                    _ = relay.endFrame(p.arena.consumeOutlook(fingers: relay.outlookFingers), at: e.time)
                case .dropped:
                    if ahead != nil {
                        // The resync is decoded after the frames before it.
                        next -= 1
                        break reading
                    }
                    p.beginResync()
                    resyncs += 1
                }
            }
        }
    }

    public private(set) var configuration: Configuration
    public let options: Options
    /// Open devices by udev syspath: the dedupe key.
    var devices: [String: OpenDevice] = [:] { didSet { lastRead = nil } }
    /// The device the last read came from: reads come one device at a time,
    /// so most need no hashing of the syspath.
    var lastRead: (syspath: String, device: OpenDevice)?
    /// Opens asked for and not answered yet.
    var opening: Set<String> = []
    /// The read stopped at `.continueRead`, until `.readContinued`.
    var readInProgress: ReadInProgress?
    /// Pen nodes udev knows of (`PenPairing.isPen`), by syspath, paired or not.
    var tablets: [String: InputNode] = [:]
    /// Pen nodes open beside their touchscreen, by syspath; and those asked to open.
    var pens: [String: PenLink] = [:]
    var openingPens: Set<String> = []
    var listing: Listing?
    var nextSerial: UInt32 = 1
    var armed: EventTime?
    /// The time the timer fired at, until the devices' queued input is read.
    var pendingAdvance: EventTime?
    var socketDeadline: EventTime?
    var subscribers = 0
    var nextWatchdog: EventTime?
    var udevPausedUntil: EventTime?
    /// When a failed listing is tried again, and the wait after that one.
    var listingRetryAt: EventTime?
    var listingRetryWait: Millis?
    var udevErrors = LogLimiter(burst: 3, window: Millis(60_000))
    var stopping = false
    var printing: Bool
    /// What clients set at runtime; it outlives a reload, not a restart. A
    /// rotation for every touchscreen, and rotations by device name (a later
    /// one for every touchscreen replaces them).
    var runtimeRotation: Rotation?
    var runtimeRotations: [String: Rotation] = [:]
    public private(set) var profile = RuntimeProfile()
    var controlLog = LogLimiter(burst: 20, window: Millis(10_000))

    public init(configuration: Configuration, options: Options) {
        self.configuration = configuration
        self.options = options
        printing = options.printEvents
        refused = options.refusedAtStart
    }

    /// Why the config file was refused at start, until a reload loads it.
    private var refused: String?

    /// The syspaths of the devices in use.
    public var openDevices: [String] { devices.keys.sorted() }

    /// The devices in use, as `hello` and `status` list them.
    public var info: DaemonInfo {
        var i = DaemonInfo(
            configuration: configuration,
            devices: openDevices.compactMap { devices[$0] }.map {
                DaemonInfo.Device(
                    name: $0.description.name, node: $0.node.devnode ?? $0.node.sysname,
                    sizeMM: $0.pipeline.decoder.geometry.sizeMM,
                    sizeSource: $0.pipeline.decoder.geometry.sizeSource,
                    rotation: $0.pipeline.decoder.rotation,
                    seat: $0.node.properties["ID_SEAT"].flatMap { $0.isEmpty ? nil : $0 }
                        ?? DaemonInfo.Device.defaultSeat)
            }, profile: profile)
        i.configRefused = refused
        return i
    }

    /// systemd's STATUS line.
    public var statusLine: String {
        let d = devices.count
        let mode = profile.paused ? ", paused" : profile.name == Profiles.defaultName ? "" : ", profile \(profile.name)"
        let refusal = refused.map { "config refused, recognizing nothing until it is fixed: \($0); " } ?? ""
        return
            "\(refusal)\(d) touchscreen\(d == 1 ? "" : "s"), \(configuration.recognizers.count) recognizers\(mode), \(subscribers) subscriber\(subscribers == 1 ? "" : "s")"
    }

    /// The earliest deadline the timer must wake for.
    public var nextDeadline: EventTime? {
        var earliest: EventTime?
        func take(_ t: EventTime?) { if let t, earliest == nil || t < earliest! { earliest = t } }
        for d in devices.values {
            take(d.pipeline.nextDeadline)
            if let r = d.relay { take(r.nextDeadline) }
        }
        take(socketDeadline)
        take(nextWatchdog)
        take(udevPausedUntil)
        take(listingRetryAt)
        return earliest
    }

    public mutating func handle(_ input: Input) -> [Action] {
        var actions: [Action] = []
        handle(input, into: &actions)
        return actions
    }

    /// Applies one input; appends what the caller must do, in order.
    public mutating func handle(_ input: Input, into actions: inout [Action]) {
        if stopping {
            if case .control = input { actions.append(.reply(.refused(.unavailable, "gestured is stopping"))) }
            return
        }
        switch input {
        case .start(let now):
            if let interval = options.watchdogInterval {
                nextWatchdog = now
                log(.info, "systemd watchdog: pinging every \(interval)", into: &actions)
            }
            listing = .start
            actions.append(.rescan)
        case .devicesListed(let nodes):
            listed(nodes, into: &actions)
        case .listingFailed(let e, let now):
            let wait = listingRetryWait ?? options.listingRetryFirst
            listingRetryWait = min(Millis(wait.value * 2), options.listingRetryLast)
            listingRetryAt = now + wait
            log(
                .error(.system), "cannot enumerate input devices through udev: \(e); trying again in \(wait)",
                into: &actions)
            finishListing(into: &actions)
        case .udev(let e, let now):
            guard e.node.isEventNode else { break }
            log(
                .debug, "udev \(e.action.rawValue) \(e.node.devnode ?? e.node.sysname) \(e.node.syspath)",
                into: &actions)
            switch e.action {
            case .add, .change:
                consider(e.node, into: &actions)
            case .remove:
                tablets.removeValue(forKey: e.node.syspath)
                remove(e.node.syspath, because: "udev remove", at: now, into: &actions)
            case .bind, .unbind, .other:
                break
            }
        case .udevOverflow:
            log(
                .warning(.system), "udev events were lost (netlink ENOBUFS); re-enumerating input devices",
                into: &actions)
            listing = listing ?? .resync
            actions.append(.rescan)
        case .udevFailed(let e, let now):
            udevFailed(e, at: now, into: &actions)
        case .opened(let snapshot):
            opened(snapshot, into: &actions)
        case .twinMade(let syspath, let result):
            twinMade(syspath, result, into: &actions)
        case .openFailed(let node, let error):
            opening.remove(node.syspath)
            openingPens.remove(node.syspath)
            let name = node.devnode ?? node.sysname
            switch error.errno {
            case .noSuchFile, .noDevice:
                log(.info, "\(name) went away before it could be used (\(error))", into: &actions)
            case .permissionDenied:
                log(
                    .error(.system), "\(error); run gestured as root or in the group owning the node (usually 'input')",
                    into: &actions)
            default:
                log(.error(.device), "cannot use \(name): \(error)", into: &actions)
            }
            finishListing(into: &actions)
        case .watchFailed(let syspath, let e, let now):
            log(.error(.ours), "cannot watch \(devices[syspath]?.label ?? syspath): epoll_ctl: \(e)", into: &actions)
            remove(syspath, because: "cannot be watched", at: now, into: &actions)
        case .read(let syspath, let inputs, let end):
            read(syspath, inputs, end: end, into: &actions)
            // The twin's write goes first; the timer is set once the read is done.
            if readInProgress != nil { return }
        case .readContinued:
            guard let r = readInProgress else { break }
            readInProgress = nil
            // Nothing runs between the two, but the device must still be there.
            guard lastRead?.device === r.device || devices[r.syspath] === r.device else { break }
            continueRead(r, into: &actions)
            if readInProgress != nil { return }
        case .timerFired(let now):
            armed = nil
            // Input the kernel queued before `now` is older than the deadline:
            // it goes first, or a lift already queued would count as too late.
            pendingAdvance = max(pendingAdvance ?? now, now)
            actions.append(.drainInput)
            return
        case .inputDrained:
            if let now = pendingAdvance {
                pendingAdvance = nil
                advance(to: now, into: &actions)
            }
        case .signal(let s, let now):
            switch s {
            case SIGTERM, SIGINT:
                log(
                    .info, "\(s == SIGTERM ? "SIGTERM" : "SIGINT"): cancelling gestures in flight and stopping",
                    into: &actions)
                shutDown(reason: .daemonStopping, exitStatus: 0, at: now, into: &actions)
                return
            case SIGHUP:
                actions.append(.loadConfig(trigger: "SIGHUP", onlyIfChanged: false))
            default:
                log(.error(.ours), "unexpected signal \(s) on the signalfd", into: &actions)
            }
        case .configFileChanged:
            actions.append(
                .loadConfig(trigger: "\(options.configPath ?? "the config file") changed", onlyIfChanged: true))
        case .configLoaded(let result, let trigger, let onlyIfChanged, let snapshots, let now):
            reload(
                result, trigger: trigger, onlyIfChanged: onlyIfChanged, snapshots: snapshots, at: now, into: &actions)
        case .sockets(let deadline, let count):
            socketDeadline = deadline
            if count != subscribers {
                subscribers = count
                actions.append(.notify(.status(statusLine)))
            }
        case .outputFailed(let e, let now):
            log(.error(.system), "cannot write events: \(e); stopping", into: &actions)
            printing = false
            shutDown(reason: .daemonStopping, exitStatus: 1, at: now, into: &actions)
            return
        case .control(let request, let client, let now):
            control(request, from: client, at: now, into: &actions)
        }
        rearm(into: &actions)
    }

    // MARK: - Devices

    private mutating func listed(_ nodes: [InputNode], into actions: inout [Action]) {
        if listingRetryWait != nil {
            log(.info, "listed input devices again after a failed listing", into: &actions)
            listingRetryWait = nil
            listingRetryAt = nil
        }
        let present = Set(nodes.map(\.syspath))
        tablets = tablets.filter { present.contains($0.key) }
        for syspath in pens.keys.sorted() where !present.contains(syspath) {
            let at = devices[pens[syspath]!.screen]?.pipeline.decoder.lastFrame.time ?? .zero
            removePen(syspath, because: "no longer listed by udev", at: at, into: &actions)
        }
        for syspath in openDevices where !present.contains(syspath) {
            // A listing carries no time; what was in flight ends at its last frame.
            let at = devices[syspath]!.pipeline.decoder.lastFrame.time
            remove(syspath, because: "no longer listed by udev", at: at, into: &actions)
        }
        for node in nodes where node.isEventNode { consider(node, into: &actions) }
        finishListing(into: &actions)
    }

    /// After a listing, once every open it asked for was answered.
    private mutating func finishListing(into actions: inout [Action]) {
        guard let why = listing, opening.isEmpty else { return }
        listing = nil
        if why == .start && devices.isEmpty {
            log(.info, "no touchscreen yet; waiting for one to appear", into: &actions)
        }
        actions.append(.updateInfo(info))
        actions.append(.notify(why == .resync ? .status(statusLine) : .ready(status: statusLine)))
    }

    /// A node udev announced or listed: open it unless it is in use or not for us.
    private mutating func consider(_ node: InputNode, into actions: inout [Action]) {
        guard devices[node.syspath] == nil, !opening.contains(node.syspath) else { return }
        if let twin = devices.values.first(where: { $0.twin.map { node.syspath.hasPrefix($0 + "/") } ?? false }) {
            log(
                .debug, "skipping \(node.devnode ?? node.sysname): gestured's own twin of \(twin.label)", into: &actions
            )
            return
        }
        if let skip = DeviceSelection.check(node, configuration: configuration) {
            if case .pen = skip, PenPairing.isPen(node) {
                // Not a touchscreen, but maybe the pen of one.
                tablets[node.syspath] = node
                pairPens(into: &actions)
                if pens[node.syspath] == nil && !openingPens.contains(node.syspath) {
                    log(
                        .debug,
                        "\(node.devnode ?? node.sysname) '\(shownName(node.name))': a pen of no touchscreen in use",
                        into: &actions)
                }
                return
            }
            // A touchscreen skipped, or a rule applied, is news; a keyboard is not.
            var denied = false
            if case .deniedByConfig = skip { denied = true }
            let message = "skipping \(node.devnode ?? node.sysname) '\(shownName(node.name))': \(skip)"
            log(denied || node.flag("ID_INPUT_TOUCHSCREEN") ? .info : .debug, message, into: &actions)
            return
        }
        opening.insert(node.syspath)
        actions.append(.open(node))
    }

    private mutating func opened(_ s: DeviceSnapshot, into actions: inout [Action]) {
        let syspath = s.node.syspath
        if openingPens.remove(syspath) != nil {
            penOpened(s, into: &actions)
            return
        }
        opening.remove(syspath)
        defer { finishListing(into: &actions) }
        let name = s.node.devnode ?? s.node.sysname
        guard devices[syspath] == nil else {
            log(.error(.ours), "\(name) opened while already open", into: &actions)
            return
        }
        if let skip = DeviceSelection.check(s.description) {
            log(.info, "skipping \(name) '\(shownName(s.description.name))': \(skip)", into: &actions)
            actions.append(.close(syspath: syspath))
            return
        }
        guard let pipeline = makePipeline(s, into: &actions) else {
            actions.append(.close(syspath: syspath))
            return
        }
        let device = OpenDevice(node: s.node, description: s.description, isTypeA: s.isTypeA, pipeline: pipeline)
        devices[syspath] = device
        if let rule = configuration.rule(for: s.description, syspath: syspath), rule.exclusive {
            if s.isTypeA {
                log(
                    .warning(.config),
                    "\(device.label) is a type A device (no slots): exclusive applies to devices with slots; read beside the compositor instead",
                    into: &actions)
            } else {
                var relay = TwinRelay(description: TwinRelay.withToolType(s.description), hold: rule.hold)
                relay.setInitial(
                    slot: s.slot, trackingIDs: s.trackingIDs, toolTypes: s.toolTypes, positions: s.positions)
                device.relay = relay
                actions.append(.makeTwin(syspath: syspath))
            }
        }
        actions.append(.watch(syspath: syspath))
        let g = pipeline.decoder.geometry
        log(
            .info,
            "using \(device.label): \(s.isTypeA ? "type A via libmtdev, " : "")\(s.description.slotCount) slots, "
                + "\(formatFixed(g.sizeMM.x, decimals: 0)) × \(formatFixed(g.sizeMM.y, decimals: 0)) mm (\(g.sizeSource.rawValue))"
                + (CalibrationMatrix.isIdentity(g.calibration)
                    ? "" : ", calibration \(g.calibration.map { formatFixed($0, decimals: 4) }.joined(separator: " "))")
                + (g.rotation == .none ? "" : ", rotated \(g.rotation.rawValue)°"), into: &actions)
        changed(into: &actions)
        pairPens(into: &actions)
    }

    // MARK: - Pens

    /// The open touchscreen `pen` is the pen of, if it has no pen yet.
    private func screen(for pen: InputNode) -> String? {
        openDevices.first { s in
            PenPairing.pairs(screen: devices[s]!.node, pen: pen)
                && !pens.contains { $0.key != pen.syspath && $0.value.screen == s }
        }
    }

    /// Opens every known pen node whose touchscreen is in use.
    private mutating func pairPens(into actions: inout [Action]) {
        for syspath in tablets.keys.sorted() where pens[syspath] == nil && !openingPens.contains(syspath) {
            let node = tablets[syspath]!
            guard screen(for: node) != nil else { continue }
            openingPens.insert(syspath)
            actions.append(.open(node))
        }
    }

    private mutating func penOpened(_ s: DeviceSnapshot, into actions: inout [Action]) {
        let syspath = s.node.syspath
        guard pens[syspath] == nil, let screen = screen(for: s.node), let d = devices[screen] else {
            actions.append(.close(syspath: syspath))
            return
        }
        let link = PenLink(node: s.node, screen: screen)
        pens[syspath] = link
        actions.append(.watch(syspath: syspath))
        // A listing or a udev add carries no time: the screen's last frame's.
        d.pipeline.attachPen(toolsDown: s.toolsDown, at: d.pipeline.decoder.lastFrame.time)
        publish(d.pipeline, into: &actions)
        log(
            .info,
            "pen \(link.label) paired with \(d.label): its touches start nothing while the pen is in proximity and \(configuration.penRelease) after",
            into: &actions)
    }

    /// Closes a pen node; its touchscreen's arbitration ends `release` after `time`.
    private mutating func removePen(
        _ syspath: String, because reason: String, at time: EventTime, into actions: inout [Action]
    ) {
        guard let link = pens.removeValue(forKey: syspath) else { return }
        if let d = devices[link.screen] {
            d.pipeline.detachPen(at: time)
            publish(d.pipeline, into: &actions)
        }
        actions.append(.close(syspath: syspath))
        log(.info, "pen \(link.label) removed: \(reason)", into: &actions)
    }

    private mutating func readPen(
        _ syspath: String, _ link: PenLink, _ inputs: [DeviceInput], end: ReadEnd, into actions: inout [Action]
    ) {
        if let d = devices[link.screen] {
            // After SYN_DROPPED, libevdev's resync says which tools are down.
            for case .event(let e) in inputs { d.pipeline.feedPen(e) }
            publish(d.pipeline, into: &actions)
        }
        switch end {
        case .drained:
            break
        case .hangup(let what, let now):
            removePen(syspath, because: "the kernel reported \(what)", at: now, into: &actions)
        case .gone(let e, let now):
            removePen(
                syspath, because: e == .noDevice ? "ENODEV: unplugged" : "read failed: \(e)", at: now, into: &actions)
        }
    }

    /// A fresh decoder and arena for a device, from the current config. Touches
    /// down right now are ignored until lifted.
    private mutating func makePipeline(_ s: DeviceSnapshot, into actions: inout [Action]) -> DevicePipeline? {
        let node = s.node
        let name = node.devnode ?? node.sysname
        let (matrix, invalid) = CalibrationMatrix.of(node)
        if let invalid {
            log(
                .warning(.device),
                "\(name): ignoring \(CalibrationMatrix.udevProperty)=\"\(sanitizedForLog(invalid, maxCharacters: 120))\": expected six numbers; check the udev rule that sets it",
                into: &actions)
        }
        guard var geometry = configuration.geometry(for: s.description, syspath: node.syspath, calibration: matrix)
        else {
            log(.info, "skipping \(name): \(SkipReason.noPositionAxes)", into: &actions)
            return nil
        }
        if let problems = s.description.axisProblems {
            log(.warning(.device), "\(name) '\(shownName(s.description.name))': \(problems)", into: &actions)
        }
        if geometry.sizeSource == .fallback {
            log(
                .warning(.config),
                "'\(shownName(s.description.name))' reports no resolution and no [[device]] size_mm in \(configuration.source) matches it; assuming \(formatFixed(geometry.sizeMM.x, decimals: 0)) × \(formatFixed(geometry.sizeMM.y, decimals: 0)) mm. Set size_mm = [width, height] in a [[device]] entry for it.",
                into: &actions)
        }
        // What a client set at runtime outlives a reload and a replug.
        if let r = runtimeRotations[s.description.name] ?? runtimeRotation { geometry.rotation = r }
        let serial = nextSerial
        nextSerial &+= 1
        let pipeline = DevicePipeline(
            description: s.description, geometry: geometry, configuration: configuration,
            serial: serial, initialTrackingIDs: s.trackingIDs, initialToolTypes: s.toolTypes,
            initialSlot: s.slot, initialPositions: s.positions, log: arenaLog)
        pipeline.arena.profile = profile.active
        return pipeline
    }

    /// Tears a device down, once: every live touch and every gesture in flight
    /// is cancelled and published, then the device is closed. For ENODEV,
    /// a hang-up and udev remove, whichever comes first.
    private mutating func remove(
        _ syspath: String, because reason: String, at time: EventTime,
        into actions: inout [Action]
    ) {
        if pens[syspath] != nil {
            removePen(syspath, because: reason, at: time, into: &actions)
            return
        }
        guard let d = devices.removeValue(forKey: syspath) else { return }
        for (p, link) in pens where link.screen == syspath {
            pens.removeValue(forKey: p)
            actions.append(.close(syspath: p))
        }
        d.pipeline.cancelAll(at: time, because: .deviceRemoved)
        publish(d.pipeline, into: &actions)
        d.relay = nil
        actions.append(.close(syspath: syspath))
        log(.info, "removed \(d.label): \(reason)", into: &actions)
        changed(into: &actions)
    }

    private mutating func read(_ syspath: String, _ inputs: [DeviceInput], end: ReadEnd, into actions: inout [Action]) {
        let d: OpenDevice
        if let last = lastRead, last.syspath == syspath {
            d = last.device
        } else {
            guard let found = devices[syspath] else {
                if let link = pens[syspath] { readPen(syspath, link, inputs, end: end, into: &actions) }
                return
            }
            d = found
            lastRead = (syspath, found)
        }
        continueRead(
            ReadInProgress(
                syspath: syspath, device: d, inputs: inputs, end: end, clamped: d.pipeline.decoder.clampedCount),
            into: &actions)
    }

    /// Goes on with a read. An exclusive device's frame that the twin gets
    /// whatever the recognizers make of it (`TwinRelay.forwardAhead`) is
    /// written before the arena sees it: the read stops there with
    /// `.continueRead`, and `.readContinued` gives the arena the frame and goes
    /// on. Any other frame goes through the arena first, then the relay decides
    /// what the twin gets of it with what the arena made of it.
    private mutating func continueRead(_ read: ReadInProgress, into actions: inout [Action]) {
        var r = read
        let d = r.device
        if d.relay != nil {
            // In place: the relay's buffers are not copied.
            r.go(on: d.pipeline, through: &d.relay!)
        } else {
            r.go(on: d.pipeline)
        }
        if r.ahead != nil {
            writeTwin(r.syspath, d, into: &actions)
            readInProgress = r
            actions.append(.continueRead)
            return
        }
        finishRead(r, into: &actions)
    }

    private mutating func finishRead(_ r: ReadInProgress, into actions: inout [Action]) {
        let syspath = r.syspath, d = r.device
        writeTwin(syspath, d, into: &actions)
        publish(d.pipeline, into: &actions)
        if r.clamped == 0, let first = d.pipeline.decoder.firstClamped {
            log(
                .warning(.device),
                "\(d.label): position \(first.value) is outside the range the device declares; such values are clamped to the range (logged once)",
                into: &actions)
        }
        if r.resyncs > 0 {
            log(
                .warning(.system),
                "\(d.label): the kernel's event buffer overflowed (SYN_DROPPED) while gestured was not reading; resynced through libevdev, touches that vanished meanwhile were cancelled",
                into: &actions)
        }
        switch r.end {
        case .drained:
            break
        case .hangup(let what, let now):
            remove(syspath, because: "the kernel reported \(what)", at: now, into: &actions)
        case .gone(let e, let now):
            if e == .noDevice {
                remove(syspath, because: "ENODEV: unplugged", at: now, into: &actions)
            } else {
                log(.error(.device), "\(d.label): read failed: \(e)", into: &actions)
                remove(syspath, because: "read failed: \(e)", at: now, into: &actions)
            }
        }
    }

    /// The devices or the configuration changed: `hello`, `status` and systemd learn it.
    private func changed(into actions: inout [Action]) {
        guard listing == nil else { return }  // said once the listing is done
        actions.append(.updateInfo(info))
        actions.append(.notify(.status(statusLine)))
    }

    // MARK: - Requests from clients

    /// Rotation, profile, pause and resume: applied to every open device's
    /// decoder or arena (each takes it from its next touch sequence on), kept for
    /// devices opened later and for reloads, and answered.
    private mutating func control(
        _ request: ControlRequest, from client: String, at now: EventTime,
        into actions: inout [Action]
    ) {
        let reply: ControlReply
        let what: String
        switch request {
        case .rotate(let r, let name?):
            let matching = openDevices.filter { devices[$0]!.description.name == name }
            guard !matching.isEmpty else {
                let names = Set(devices.values.map(\.description.name)).sorted()
                let known =
                    names.isEmpty
                    ? "no touchscreen is in use now"
                    : "touchscreens in use: " + names.map { "'\(shownName($0))'" }.joined(separator: ", ")
                // The client's string and the devices' names, escaped: the reply may reach a terminal.
                actions.append(
                    .reply(
                        .refused(
                            .unknownDevice,
                            "no touchscreen named '\(sanitizedForLog(name, maxCharacters: 64))' is in use; \(known)")))
                return
            }
            runtimeRotations[name] = r
            for syspath in matching { devices[syspath]!.pipeline.rotate(to: r) }
            reply = .rotated(r, devices: [name])
            what =
                "rotation \(r.rawValue)° for '\(sanitizedForLog(name, maxCharacters: 64))' from its next touch sequence"
        case .rotate(let r, nil):
            runtimeRotation = r
            runtimeRotations = [:]
            for syspath in openDevices { devices[syspath]!.pipeline.rotate(to: r) }
            reply = .rotated(r, devices: Set(devices.values.map(\.description.name)).sorted())
            what = "rotation \(r.rawValue)° for every touchscreen from its next touch sequence"
        case .profile(let name):
            profile = RuntimeProfile(name: name, paused: false)
            reply = profileReply()
            what = "profile '\(sanitizedForLog(name, maxCharacters: 64))' from the next touch sequence"
        case .pause:
            profile.paused = true
            reply = profileReply()
            what = "paused: no recognizer takes part from the next touch sequence"
        case .resume:
            profile.paused = false
            reply = profileReply()
            what = "resumed with profile '\(sanitizedForLog(profile.name, maxCharacters: 64))'"
        }
        switch request {
        case .rotate: break
        case .profile, .pause, .resume:
            for d in devices.values { d.pipeline.arena.profile = profile.active }
        }
        if case .profile(_, _, let warning?) = reply {
            controlLine("\(client): \(what); \(warning)", at: now, into: &actions)
        } else {
            controlLine("\(client): \(what)", at: now, into: &actions)
        }
        actions.append(.reply(reply))
        changed(into: &actions)
    }

    private func profileReply() -> ControlReply {
        let taking =
            profile.paused
            ? [] : configuration.recognizers.filter { $0.filter.profiles.contains(profile.name) }.map(\.name)
        let warning =
            !profile.paused && taking.isEmpty
            ? "no recognizer has the profile '\(profile.name)': none takes part until another profile is chosen or a reload brings one"
            : nil
        return .profile(profile, recognizers: taking, warning: warning)
    }

    /// A client's request goes to the log, at most `controlLog.burst` lines per window.
    private mutating func controlLine(_ line: String, at now: EventTime, into actions: inout [Action]) {
        switch controlLog.allow(at: now) {
        case .allowed(let suppressed):
            let more = suppressed > 0 ? " (\(suppressed) more requests since the last one logged)" : ""
            log(.info, line + more, into: &actions)
        case .suppressed:
            break
        }
    }

    // MARK: - Time

    private mutating func advance(to now: EventTime, into actions: inout [Action]) {
        for syspath in openDevices {
            let d = devices[syspath]!
            let p = d.pipeline
            p.advance(to: now)
            if d.relay != nil {
                _ = d.relay!.advance(to: now, p.arena.consumeOutlook(fingers: d.relay!.outlookFingers))
                writeTwin(syspath, d, into: &actions)
            }
            publish(p, into: &actions)
        }
        if let d = socketDeadline, d <= now { actions.append(.expireClients(at: now)) }
        if let due = nextWatchdog, due <= now, let interval = options.watchdogInterval {
            // Sent from the loop's own timer: a wedged loop stops the pings.
            actions.append(.notify(.watchdog))
            nextWatchdog = now + interval
        }
        if let until = udevPausedUntil, until <= now {
            udevPausedUntil = nil
            actions.append(.resumeUdev)
            // What udev said meanwhile was lost: list again.
            listing = listing ?? .resync
            actions.append(.rescan)
        } else if let retry = listingRetryAt, retry <= now {
            listingRetryAt = nil
            listing = listing ?? .resync
            actions.append(.rescan)
        }
    }

    /// What the relay decided goes to the twin in this turn.
    private func writeTwin(_ syspath: String, _ d: OpenDevice, into actions: inout [Action]) {
        d.relay?.drainOutput { actions.append(.writeTwin(syspath: syspath, $0)) }
    }

    /// The loop made an exclusive device's twin, or could not.
    private mutating func twinMade(
        _ syspath: String, _ result: Result<String, TwinFailure>, into actions: inout [Action]
    ) {
        guard let d = devices[syspath] else { return }
        switch result {
        case .success(let twin):
            d.twin = twin
            log(
                .info,
                "\(d.label) is exclusive: grabbed; the apps read its twin \(twin), which gets every touch no recognizer with consume = true takes",
                into: &actions)
        case .failure(let f):
            d.relay = nil
            log(
                .error(.system),
                "\(d.label): cannot make it exclusive (\(f)); reading it beside the compositor instead. An exclusive device needs /dev/uinput open for writing (under the shipped unit: a drop-in with DeviceAllow=/dev/uinput rw and a group that may write it; README, \"Gestures the apps never see\")",
                into: &actions)
        }
    }

    private mutating func rearm(into actions: inout [Action]) {
        let t = nextDeadline
        if t != armed {
            armed = t
            actions.append(.armTimer(t))
        }
    }

    private mutating func udevFailed(_ e: Errno, at now: EventTime, into actions: inout [Action]) {
        switch udevErrors.allow(at: now) {
        case .allowed(let suppressed):
            let more = suppressed > 0 ? " (\(suppressed) more since the last report)" : ""
            log(
                .error(.system),
                "reading udev events: \(e)\(more); not reading them for \(options.udevBackoff), then listing the devices again",
                into: &actions)
        case .suppressed:
            break
        }
        if udevPausedUntil == nil {
            udevPausedUntil = now + options.udevBackoff
            actions.append(.pauseUdev)
        }
    }

    // MARK: - Output

    private func publish(_ pipeline: DevicePipeline, into actions: inout [Action]) {
        guard !pipeline.events.isEmpty else { return }
        let frameTime = pipeline.decoder.withFrame { $0.time }
        let printing = printing, failures = options.printFailures
        pipeline.drain { e in
            actions.append(.publish(e, frameTime: frameTime))
            if printing && (failures || e.state != .failed) { actions.append(.print(e)) }
        }
    }

    private func log(_ level: LogLine.Level, _ message: String, into actions: inout [Action]) {
        actions.append(.log(LogLine(level: level, message: message)))
    }

    // MARK: - Reload and shutdown

    /// A parsed config file: a bad one is reported and the running one stays. A
    /// good one replaces every device's arena (gestures in flight are
    /// cancelled; fingers down stay ignored until lifted) and the device rules
    /// apply again, to the open devices and to a fresh listing.
    private mutating func reload(
        _ result: Result<Configuration, ConfigFile.ConfigFailure>, trigger: String,
        onlyIfChanged: Bool, snapshots: [String: DeviceSnapshot], at now: EventTime,
        into actions: inout [Action]
    ) {
        let c: Configuration
        switch result {
        case .failure(let e):
            for line in e.description.split(separator: "\n") { log(.error(.config), String(line), into: &actions) }
            log(
                .info,
                "\(trigger): \(options.configPath ?? "the config") has errors; keeping the previous configuration",
                into: &actions)
            // systemd sees a reload that changed nothing, and why.
            actions.append(.notify(.reloading))
            let why = String(e.description.split(separator: "\n").first ?? "")
            if refused != nil {
                // Refused at start and still: there is no previous config to keep.
                refused = why
                actions.append(.updateInfo(info))
                actions.append(.notify(.ready(status: statusLine)))
            } else {
                actions.append(.notify(.ready(status: "reload refused, previous config kept: \(why)")))
            }
            return
        case .success(let loaded):
            if onlyIfChanged && loaded == configuration {
                log(.debug, "\(trigger): \(loaded.source) unchanged", into: &actions)
                return
            }
            // An empty configuration (no recognizers, no device rules) where
            // there was one is what a file emptied while being written looks
            // like: the running one stays. (An empty file is accepted at start,
            // where it is what the daemon was given.)
            if loaded.recognizers.isEmpty && loaded.devices.isEmpty
                && !(configuration.recognizers.isEmpty && configuration.devices.isEmpty)
            {
                log(
                    .warning(.config),
                    "\(trigger): \(loaded.source) is empty (no recognizers, no device rules); keeping the running configuration (\(configuration.recognizers.count) recognizers): a reload never empties it, as a file caught while being rewritten looks the same. To run with none, restart gestured with that file, or use gesturectl pause",
                    into: &actions)
                actions.append(.notify(.reloading))
                actions.append(
                    .notify(.ready(status: "reload refused, previous config kept: \(loaded.source) is empty")))
                return
            }
            c = loaded
        }
        actions.append(.notify(.reloading))
        let previous = configuration
        configuration = c
        refused = nil
        for w in c.warnings { log(.warning(.config), w, into: &actions) }
        log(
            .info,
            "\(trigger): loaded \(c.source): \(c.recognizers.count) recognizers, \(c.devices.count) device rule(s)",
            into: &actions)
        listing = .reload
        for syspath in openDevices {
            let d = devices[syspath]!
            let snapshot =
                snapshots[syspath] ?? DeviceSnapshot(node: d.node, description: d.description, isTypeA: d.isTypeA)
            if let skip = DeviceSelection.check(snapshot.node, configuration: c) {
                remove(syspath, because: "after reload: \(skip)", at: now, into: &actions)
                continue
            }
            // Made exclusive, or no longer: grabbing and the twin are set up as
            // a device is opened, so it is closed (ungrabbed, its twin removed)
            // and the listing below opens it again as the new rule says.
            let wasExclusive = previous.rule(for: d.description, syspath: syspath)?.exclusive ?? false
            let isExclusive = c.rule(for: d.description, syspath: syspath)?.exclusive ?? false
            if wasExclusive != isExclusive {
                remove(
                    syspath,
                    because: "after reload: \(isExclusive ? "made exclusive" : "no longer exclusive"); opened again",
                    at: now, into: &actions)
                continue
            }
            d.pipeline.cancelAll(at: now, because: .configReloaded)
            publish(d.pipeline, into: &actions)
            // The twin stays; what it held goes to the apps as it is, and the
            // new bound applies from the next touch on.
            if d.relay != nil {
                _ = d.relay!.releaseHeld(at: now)
                if let rule = c.rule(for: d.description, syspath: syspath), rule.exclusive { d.relay!.hold = rule.hold }
                writeTwin(syspath, d, into: &actions)
            }
            guard let fresh = makePipeline(snapshot, into: &actions) else {
                remove(syspath, because: "after reload: no usable geometry", at: now, into: &actions)
                continue
            }
            // The pen is where it was: the fresh pipeline knows it at once.
            if pens.values.contains(where: { $0.screen == syspath }) {
                fresh.attachPen(toolsDown: d.pipeline.pen.inProximity ? [PenTool.pen] : [], at: now)
            }
            devices[syspath]!.pipeline = fresh
            devices[syspath]!.node = snapshot.node
        }
        actions.append(.rescan)
    }

    /// Cancels everything in flight, closes every device, tells systemd and the
    /// clients, and stops.
    private mutating func shutDown(reason: Teardown, exitStatus: Int32, at now: EventTime, into actions: inout [Action])
    {
        for syspath in openDevices {
            let d = devices[syspath]!
            d.pipeline.cancelAll(at: now, because: reason)
            publish(d.pipeline, into: &actions)
            actions.append(.close(syspath: syspath))
        }
        devices.removeAll()
        for syspath in pens.keys.sorted() { actions.append(.close(syspath: syspath)) }
        pens.removeAll()
        actions.append(.notify(.stopping))
        actions.append(.shutDownSocket)
        actions.append(.stop(exitStatus: exitStatus))
        stopping = true
    }
}

/// A device's name as the log shows it. The name comes from the hardware
/// (EVIOCGNAME, udev's NAME): a hostile device can put a newline in it to
/// forge a journal line, or an escape sequence to drive a terminal.
func shownName(_ name: String) -> String { sanitizedForLog(name, maxCharacters: 80) }
