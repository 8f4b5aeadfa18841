@testable import GestureCore

/// Millimetres, for readable scenarios.
func mm(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

/// A 200 × 100 mm test panel with 10 units per mm and 10 slots.
func testDevice(name: String = "test panel") -> DeviceDescription {
    var d = DeviceDescription(name: name)
    d.axes[ABS.MT_SLOT] = AxisInfo(minimum: 0, maximum: 9)
    d.axes[ABS.MT_TRACKING_ID] = AxisInfo(minimum: 0, maximum: 65535)
    d.axes[ABS.MT_POSITION_X] = AxisInfo(minimum: 0, maximum: 2000, resolution: 10)
    d.axes[ABS.MT_POSITION_Y] = AxisInfo(minimum: 0, maximum: 1000, resolution: 10)
    d.properties = [InputProp.direct]
    return d
}

/// Kernel-style multitouch events on fake time, written a frame at a time: what
/// the test scenarios play into a decoder. `endFrame(after:)` closes a frame.
struct KernelEvents {
    private(set) var now = EventTime(microseconds: 1_000_000)
    private var pending: [RawEvent] = []
    private var trackingID: Int32 = 100
    private var currentSlot: Int32 = -1

    private mutating func emit(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        pending.append(RawEvent(time: now, type: type, code: code, value: value))
    }
    private mutating func slot(_ s: Int) {
        if currentSlot != Int32(s) {
            emit(EV.ABS, ABS.MT_SLOT, Int32(s))
            currentSlot = Int32(s)
        }
    }
    mutating func down(_ s: Int, at p: Point) {
        slot(s)
        trackingID += 1
        emit(EV.ABS, ABS.MT_TRACKING_ID, trackingID)
        move(s, to: p)
    }
    /// `p` in mm on the panel as built; only the coordinates asked, as the kernel
    /// sends only those that changed.
    mutating func move(_ s: Int, to p: Point, x: Bool = true, y: Bool = true) {
        slot(s)
        if x { emit(EV.ABS, ABS.MT_POSITION_X, Int32((p.x * 10).rounded())) }
        if y { emit(EV.ABS, ABS.MT_POSITION_Y, Int32((p.y * 10).rounded())) }
    }
    mutating func up(_ s: Int) {
        slot(s)
        emit(EV.ABS, ABS.MT_TRACKING_ID, -1)
    }
    mutating func palm(_ s: Int) {
        slot(s)
        emit(EV.ABS, ABS.MT_TOOL_TYPE, MTTool.palm)
    }
    /// The frame's events, closed by SYN_REPORT `ms` after the previous frame.
    mutating func endFrame(after ms: Double) -> [RawEvent] {
        pass(ms: ms)
        for i in pending.indices { pending[i].time = now }
        emit(EV.SYN, SYN.REPORT, 0)
        defer { pending.removeAll() }
        return pending
    }
    mutating func pass(ms: Double) { now = now + Millis(ms) }
}

/// Drives the real decoder and arena with kernel-style events on fake time:
/// `down(0, at: mm(10, 20))`, `sync()`, `advance(ms: 300)`, then look at `events`.
final class Scenario {
    var decoder: SlotDecoder
    let arena: Arena
    private var input = KernelEvents()
    var now: EventTime { input.now }
    var events: [GestureEvent] = []
    var frames: [TouchFrame] = []
    /// The arena's trace of every recognizer, and the bugs it saw.
    var trace: [String] = []
    var bugs: [String] = []

    /// Keeps every frame, the trace and the bugs; without (`recording` false),
    /// only the events: for tests that play thousands of strokes.
    let recording: Bool

    init(_ recognizers: [RecognizerConfig], rotation: Rotation = .none, recording: Bool = true) {
        let d = testDevice()
        decoder = SlotDecoder(device: d, geometry: DeviceGeometry(x: d.xAxis!, y: d.yAxis!, rotation: rotation))
        arena = Configuration(recognizers: recognizers).makeArena(device: d.name)
        self.recording = recording
        guard recording else { return }
        arena.log = ArenaLog(tracing: ["all"]) { [unowned self] entry in
            switch entry.kind {
            case .trace: trace.append(entry.text)
            case .bug: bugs.append(entry.text)
            }
        }
    }

    convenience init(_ recognizers: RecognizerConfig...) { self.init(recognizers) }

    func down(_ s: Int, at p: Point) { input.down(s, at: p) }
    /// `p` in mm on the panel as built (before any rotation).
    func move(_ s: Int, to p: Point) { input.move(s, to: p) }
    func up(_ s: Int) { input.up(s) }
    func palm(_ s: Int) { input.palm(s) }
    /// Closes the frame `ms` after the previous one and runs it through.
    func sync(after ms: Double = 10) {
        for e in input.endFrame(after: ms) where decoder.feed(e) {
            if recording { frames.append(decoder.lastFrame) }
            arena.handle(decoder.lastFrame, into: &events)
        }
    }
    /// Lets fake time pass, firing recognizer timers.
    func advance(ms: Double) {
        input.pass(ms: ms)
        arena.advance(to: now, into: &events)
    }

    /// One finger along `points`, one frame every `frameMS`, then lifted.
    func stroke(_ points: [Point], frameMS: Double = 12, slot s: Int = 0, lift: Bool = true) {
        guard let first = points.first else { return }
        down(s, at: first)
        sync()
        for p in points.dropFirst() {
            move(s, to: p)
            sync(after: frameMS)
        }
        if lift {
            up(s)
            sync(after: frameMS)
        }
    }
    func tap(at p: Point, holdMS: Double = 60) {
        down(0, at: p)
        sync()
        up(0)
        sync(after: holdMS)
    }

    /// `name state` for every event, in order, e.g. ["tap recognized"].
    var log: [String] { events.map { "\($0.name) \($0.state.rawValue)" } }
    func log(without states: GestureState...) -> [String] {
        events.filter { !states.contains($0.state) }.map { "\($0.name) \($0.state.rawValue)" }
    }
    func first(_ name: String, _ state: GestureState) -> GestureEvent? {
        events.first { $0.name == name && $0.state == state }
    }
}

func recognizer(
    _ name: String, _ p: RecognizerParameters, requires: [String] = [], simultaneous: [String] = [],
    canPrevent: Bool = true, canBePrevented: Bool = true
) -> RecognizerConfig {
    var r = RecognizerConfig(name: name, parameters: p)
    r.requiresFailureOf = requires
    r.simultaneousWith = simultaneous
    r.canPrevent = canPrevent
    r.canBePrevented = canBePrevented
    return r
}

func tapConfig(taps: Int = 1, fingers: Int = 1) -> RecognizerParameters {
    var p = TapRecognizer.Parameters()
    p.taps = taps
    p.fingers = fingers
    return .tap(p)
}

/// A circle of `radius` mm around `center`, `turns` turns, starting at angle
/// `start` (radians), clockwise on screen unless `clockwise` is false.
func circlePoints(
    center: Point = mm(100, 50), radius: Double = 20, turns: Double = 1.0, count: Int = 60,
    start: Double = 0, clockwise: Bool = true, wobble: Double = 0
) -> [Point] {
    (0...count).map { i in
        let a = start + (clockwise ? 1 : -1) * 2 * Double.pi * turns * Double(i) / Double(count)
        let r = radius + wobble * sin(Double(i) * 1.7)
        return Point(x: center.x + r * cos(a), y: center.y + r * sin(a))
    }
}

/// A straight line from a to b in `count` steps.
func line(_ a: Point, _ b: Point, count: Int = 10) -> [Point] {
    (0...count).map { i in a + (b - a) * (Double(i) / Double(count)) }
}
