import GestureConfig
import GestureCore
import LinuxInput
import LinuxSystem

@testable import GestureDaemon
@testable import GestureProtocol

/// A deterministic twin of `DaemonLoop` for tests, as NIOEmbedded is for an
/// event loop: the same `DaemonCore`, a fake clock, a fake udev and devices
/// whose kernel input waits in a queue until the loop would read it. It carries
/// out the core's actions as the real loop does, and records what left.
struct EmbeddedDaemon {
    var core: DaemonCore
    var now: EventTime
    /// The one timer, as the core armed it.
    var timer: EventTime?
    /// What udev lists, and what opening each node shows.
    var udev: [InputNode] = []
    var kernel: [String: DeviceSnapshot] = [:]
    /// Input the kernel holds for each open device, not read yet.
    var queued: [String: [DeviceInput]] = [:]
    var open: Set<String> = []
    var watched: Set<String> = []
    /// What the next reload parses.
    var nextConfig: Result<Configuration, ConfigFile.ConfigFailure> = .success(ConfigLoader.builtIn())
    var published: [GestureEvent] = []
    var logs: [DaemonCore.LogLine] = []
    var notified: [DaemonCore.Notification] = []
    var info = DaemonInfo()
    var udevWatched = true
    var rescans = 0
    /// Errors the next listings fail with, one per listing, before they succeed.
    var listingFailures: [Errno] = []
    var exitStatus: Int32?
    /// The core's answers to control requests, in order.
    var replies: [ControlReply] = []
    /// Exclusive devices' twins, by the device's syspath: what was written to
    /// each, one entry per write (the loop writes once per turn).
    var twins: [String: [[RawEvent]]] = [:]
    /// Twins made and removed, in order ("made SYSPATH", "removed SYSPATH").
    var twinLog: [String] = []
    /// When set, making a twin fails with this.
    var twinFailure: String?

    init(
        configuration: Configuration = ConfigLoader.builtIn(), options: DaemonCore.Options = .init(),
        at start: EventTime = EventTime(microseconds: 1_000_000)
    ) {
        core = DaemonCore(configuration: configuration, options: options)
        now = start
    }

    /// A touchscreen node as udev describes it, and what libevdev reports once open.
    mutating func plug(
        _ device: DeviceDescription, event n: Int, touchscreen: Bool = true,
        properties: [String: String] = [:]
    ) -> InputNode {
        var props = ["ID_INPUT": "1"].merging(properties) { $1 }
        if touchscreen { props["ID_INPUT_TOUCHSCREEN"] = "1" } else { props["ID_INPUT_KEYBOARD"] = "1" }
        let node = InputNode(
            syspath: "/sys/devices/virtual/input/input\(n)/event\(n)", sysname: "event\(n)",
            devnode: "/dev/input/event\(n)", devnum: UInt64(0xd40 + n), properties: props,
            name: device.name)
        udev.append(node)
        kernel[node.syspath] = DeviceSnapshot(node: node, description: device)
        return node
    }

    mutating func unplug(_ node: InputNode) {
        udev.removeAll { $0.syspath == node.syspath }
        kernel[node.syspath] = nil
    }

    mutating func start() { send(.start(at: now)) }

    mutating func send(_ input: DaemonCore.Input) {
        for action in core.handle(input) { execute(action) }
    }

    mutating func execute(_ action: DaemonCore.Action) {
        switch action {
        case .open(let node):
            if let s = kernel[node.syspath] {
                open.insert(node.syspath)
                send(.opened(s))
            } else {
                send(.openFailed(node, EvdevDevice.OpenError(step: "open \(node.devnode ?? "")", errno: .noSuchFile)))
            }
        case .watch(let syspath): watched.insert(syspath)
        case .makeTwin(let syspath):
            if let f = twinFailure {
                send(.twinMade(syspath: syspath, twin: .failure(.init(f))))
            } else {
                twins[syspath] = []
                twinLog.append("made \(syspath)")
                send(.twinMade(syspath: syspath, twin: .success("/sys/devices/virtual/input/input90")))
            }
        case .writeTwin(let syspath, let events):
            twins[syspath, default: []].append(events)
        case .continueRead:
            send(.readContinued)
        case .close(let syspath):
            if twins.removeValue(forKey: syspath) != nil { twinLog.append("removed \(syspath)") }
            open.remove(syspath)
            watched.remove(syspath)
            queued[syspath] = nil
        case .publish(let e, _): published.append(e)
        case .print: break
        case .armTimer(let t): timer = t
        case .notify(let n): notified.append(n)
        case .log(let line): logs.append(line)
        case .rescan:
            rescans += 1
            if listingFailures.isEmpty {
                send(.devicesListed(udev))
            } else {
                send(.listingFailed(listingFailures.removeFirst(), at: now))
            }
        case .drainInput:
            for syspath in watched.sorted() { read(syspath) }
            send(.inputDrained)
        case .loadConfig(let trigger, let onlyIfChanged):
            send(
                .configLoaded(
                    nextConfig, trigger: trigger, onlyIfChanged: onlyIfChanged,
                    devices: kernel.filter { open.contains($0.key) }, at: now))
        case .updateInfo(let i): info = i
        case .expireClients: break
        case .pauseUdev: udevWatched = false
        case .resumeUdev: udevWatched = true
        case .shutDownSocket: break
        case .stop(let status): exitStatus = status
        case .reply(let r): replies.append(r)
        }
    }

    // MARK: the world

    /// The kernel queues input on a device; the loop has not read it yet.
    mutating func queue(_ node: InputNode, _ events: [RawEvent]) {
        queued[node.syspath, default: []] += events.map { .event($0) }
    }

    mutating func queueDrop(_ node: InputNode) { queued[node.syspath, default: []].append(.dropped) }

    /// The device polled readable: the loop reads all it has.
    mutating func read(_ syspath: String, end: DaemonCore.ReadEnd = .drained) {
        let inputs = queued.removeValue(forKey: syspath) ?? []
        send(.read(syspath: syspath, inputs, end: end))
    }

    /// Queues `events` and lets the loop read them at once; the clock follows the last one.
    mutating func input(_ node: InputNode, _ events: [RawEvent]) {
        queue(node, events)
        if let t = events.last?.time, now < t { now = t }
        read(node.syspath)
    }

    /// A socket client's rotate, profile, pause or resume; the core's answer.
    @discardableResult
    mutating func control(_ request: ControlRequest) -> ControlReply? {
        let before = replies.count
        send(.control(request, from: "client 1 (pid 1, uid 1000)", at: now))
        return replies.count > before ? replies.last : nil
    }

    mutating func udevEvent(_ action: InputNodeEvent.Action, _ node: InputNode) {
        send(.udev(InputNodeEvent(action: action, node: node), at: now))
    }

    /// Moves the fake clock on; the timer fires (late, at the new time, as a
    /// busy loop's would) whenever it is due.
    mutating func advanceTime(to t: EventTime) {
        if now < t { now = t }
        var turns = 0
        while let due = timer, due <= now, turns < 100 {
            timer = nil
            send(.timerFired(at: now))
            turns += 1
        }
    }

    mutating func advanceTime(byMS ms: Double) { advanceTime(to: now + Millis(ms)) }

    // MARK: what left

    func events(named name: String) -> [GestureEvent] { published.filter { $0.name == name } }
    func states(_ name: String) -> [GestureState] { events(named: name).map(\.state) }
    var logText: [String] { logs.map(\.description) }
}

/// A multitouch panel's kernel events, written the way evemu shows them.
struct Touches {
    let device: DeviceDescription
    let base: EventTime
    var time: EventTime

    init(device: DeviceDescription, at time: EventTime) {
        self.device = device
        base = time
        self.time = time
    }

    /// The same panel `ms` milliseconds after the start.
    func at(_ ms: Double) -> Touches {
        var c = self
        c.time = base + Millis(ms)
        return c
    }

    private func e(_ type: UInt16, _ code: UInt16, _ value: Int32) -> RawEvent {
        RawEvent(time: time, type: type, code: code, value: value)
    }

    func down(slot: Int32 = 0, id: Int32, x: Int32, y: Int32, first: Bool = true) -> [RawEvent] {
        [
            e(EV.ABS, ABS.MT_SLOT, slot), e(EV.ABS, ABS.MT_TRACKING_ID, id), e(EV.ABS, ABS.MT_POSITION_X, x),
            e(EV.ABS, ABS.MT_POSITION_Y, y),
        ] + (first ? [e(EV.KEY, BTN.TOUCH, 1)] : [])
            + [e(EV.ABS, ABS.X, x), e(EV.ABS, ABS.Y, y), e(EV.SYN, SYN.REPORT, 0)]
    }

    func move(slot: Int32 = 0, x: Int32, y: Int32) -> [RawEvent] {
        [
            e(EV.ABS, ABS.MT_SLOT, slot), e(EV.ABS, ABS.MT_POSITION_X, x), e(EV.ABS, ABS.MT_POSITION_Y, y),
            e(EV.ABS, ABS.X, x), e(EV.ABS, ABS.Y, y), e(EV.SYN, SYN.REPORT, 0),
        ]
    }

    func up(slot: Int32 = 0, last: Bool = true) -> [RawEvent] {
        [e(EV.ABS, ABS.MT_SLOT, slot), e(EV.ABS, ABS.MT_TRACKING_ID, -1)]
            + (last ? [e(EV.KEY, BTN.TOUCH, 0)] : []) + [e(EV.SYN, SYN.REPORT, 0)]
    }
}
