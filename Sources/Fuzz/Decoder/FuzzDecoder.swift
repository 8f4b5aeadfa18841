import FuzzSupport
import GestureConfig
import GestureCore
import GestureDaemon
import GestureProtocol
import LinuxInput

/// Decoder and arena fed raw events as a device could send them, with the
/// daemon's timers, resyncs and removal. Checks, for every input:
/// - every touch begun is ended or cancelled exactly once, and nothing is
///   reported of it afterwards; no touch is left open after removal;
/// - every continuous gesture begun is ended or cancelled exactly once, and
///   nothing follows its cancellation; none is left open after removal;
/// - every location is within 0…1 and every event's JSON parses;
/// - timers make progress (a deadline that does not move is a spin).
///
/// Input: a device choice, a set-up byte, then 7-byte events (an event
/// selector, a 32-bit value, a signed 16-bit time step in 64 µs units).
let configuration = ConfigLoader.builtIn()

/// Edge filters (every way of judging them), diagonals and sliders, as a phone has them.
let phoneConfiguration: Configuration = {
    let text = """
        [recognizer.corner]
        kind = "swipe"
        edge = "bottom_right"
        directions = ["up_left"]
        [recognizer.slider]
        kind = "pan"
        edge = "left"
        edge_range = [0.1, 0.9]
        step_mm = 2.0
        [recognizer.top_slider]
        kind = "pan"
        edge = "top"
        step_mm = 1.0
        edge_at = "start_or_end"
        [recognizer.from_right]
        kind = "swipe"
        edge = "right"
        edge_at = "start_or_end"
        directions = ["left"]
        min_length = 0.33
        min_speed_mm_s = 0
        min_straightness = 0
        [recognizer.tap_top]
        kind = "tap"
        edge = "top"
        edge_mm = 10.0
        [recognizer.press]
        kind = "long_press"
        edge = "bottom"
        [recognizer.centre]
        kind = "swipe"
        edge = "none"
        fingers = 2
        directions = ["up", "down", "left", "right", "up_left", "up_right", "down_left", "down_right"]
        max_duration_ms = 800
        """
    do { return try ConfigLoader.load(text: text, file: "<phone>") } catch { fatalError("\(error)") }
}()

func axis(_ min: Int32, _ max: Int32, res: Int32 = 0) -> AxisInfo {
    AxisInfo(minimum: min, maximum: max, resolution: res)
}

/// The recorded devices of Tests/fixtures, and a single-touch one.
let devices: [DeviceDescription] = {
    func make(_ name: String, _ axes: [UInt16: AxisInfo], keys: Set<UInt16> = [BTN.TOUCH]) -> DeviceDescription {
        var d = DeviceDescription(name: name)
        d.axes = axes
        d.keys = keys
        d.properties = [InputProp.direct]
        return d
    }
    return [
        make(
            "Atmel maXTouch Touchscreen",
            [
                ABS.X: axis(0, 799), ABS.Y: axis(0, 479), ABS.MT_SLOT: axis(0, 9),
                ABS.MT_POSITION_X: axis(0, 799), ABS.MT_POSITION_Y: axis(0, 479),
                ABS.MT_TOOL_TYPE: axis(0, 2), ABS.MT_TRACKING_ID: axis(0, 65535),
            ]),
        make(
            "EP0430M09",
            [
                ABS.X: axis(0, 1279), ABS.Y: axis(0, 767), ABS.MT_SLOT: axis(0, 4),
                ABS.MT_POSITION_X: axis(0, 1279), ABS.MT_POSITION_Y: axis(0, 767),
                ABS.MT_TRACKING_ID: axis(0, 65535),
            ]),
        make(
            "N-Trig-MultiTouch-Virtual-Device",
            [
                ABS.X: axis(0, 9600), ABS.Y: axis(0, 7200),
                ABS.MT_TOUCH_MAJOR: axis(0, 9600), 0x31: axis(0, 7200),
                0x34: axis(0, 1), ABS.MT_POSITION_X: axis(0, 9600),
                ABS.MT_POSITION_Y: axis(0, 7200),
            ]),
        make(
            "gestured stroke panel",
            [
                ABS.MT_SLOT: axis(0, 9), ABS.MT_POSITION_X: axis(0, 1540, res: 10),
                ABS.MT_POSITION_Y: axis(0, 860, res: 10), ABS.MT_TRACKING_ID: axis(0, 65535),
            ]),
        make("single touch", [ABS.X: axis(0, 4095), ABS.Y: axis(0, 4095)]),
    ]
}()

/// Event selectors: the events a touchscreen sends, then any ABS code.
let events: [(UInt16, UInt16)] = [
    (EV.SYN, SYN.REPORT), (EV.SYN, SYN.REPORT), (EV.SYN, SYN.REPORT), (EV.ABS, ABS.MT_SLOT),
    (EV.ABS, ABS.MT_TRACKING_ID), (EV.ABS, ABS.MT_POSITION_X), (EV.ABS, ABS.MT_POSITION_Y),
    (EV.ABS, ABS.MT_POSITION_X), (EV.ABS, ABS.MT_POSITION_Y), (EV.ABS, ABS.MT_TOOL_TYPE),
    (EV.KEY, BTN.TOUCH), (EV.ABS, ABS.X), (EV.ABS, ABS.Y), (EV.SYN, SYN.MT_REPORT), (EV.SYN, SYN.DROPPED),
    (EV.ABS, ABS.MT_TOUCH_MAJOR),
]

let calibrations: [[Double]] = [
    DeviceGeometry.identity, [0, 1, 0, 1, 0, 0], [-1, 0, 1, 0, 1, 0],
    [1.2, 0, -0.1, 0, 1.2, -0.1], [1e300, -1e300, 5, 3, 1e-300, -2],
]

/// Touch lifecycles, from the decoder's frames.
struct TouchChecker {
    var open: Set<TouchID> = []
    var seen: Set<TouchID> = []

    mutating func check(_ frame: borrowing TouchFrame) {
        for t in frame.touches {
            require(
                t.normalised.x.isFinite && (0...1).contains(t.normalised.x)
                    && (0...1).contains(t.normalised.y), "touch \(t.id) at \(t.normalised)")
            require(t.position.x.isFinite && t.position.y.isFinite, "touch \(t.id) at \(t.position) mm")
            switch t.phase {
            case .began:
                require(seen.insert(t.id).inserted, "touch \(t.id) began twice")
                open.insert(t.id)
            case .moved, .stationary:
                require(open.contains(t.id), "touch \(t.id) \(t.phase) while not down")
            case .ended, .cancelled:
                require(open.remove(t.id) != nil, "touch \(t.id) \(t.phase) while not down")
            }
        }
    }
}

/// Gesture lifecycles, from the arena's events.
struct GestureChecker {
    var open: Set<String> = []

    mutating func check(_ e: GestureEvent) {
        require(
            e.locationNormalised.x.isFinite && (0...1).contains(e.locationNormalised.x)
                && (0...1).contains(e.locationNormalised.y), "location \(e.locationNormalised) in \(e.json)")
        require(e.location.x.isFinite && e.location.y.isFinite, "location_mm \(e.location) in \(e.json)")
        let json = e.json
        require((try? JSONValue.parse(json)) != nil, "unparsable event \(json)")
        if e.kind.isContinuous {
            switch e.state {
            case .began: require(open.insert(e.name).inserted, "\(e.name) began twice: \(json)")
            case .changed: require(open.contains(e.name), "\(e.name) changed while not begun: \(json)")
            case .ended, .cancelled:
                require(open.remove(e.name) != nil, "\(e.name) \(e.state) while not begun: \(json)")
            case .failed: require(!open.contains(e.name), "\(e.name) failed while begun (not cancelled): \(json)")
            case .recognized, .possible: require(false, "continuous \(e.name) \(e.state): \(json)")
            }
        } else {
            require(e.state == .recognized || e.state == .failed, "discrete \(e.name) \(e.state): \(json)")
        }
    }
}

@_cdecl("gestured_fuzz_decoder")
func fuzzDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var r = ByteReader(data, size)
    guard let choice = r.u8(), let setup = r.u8(), let initial = r.u8() else { return 0 }
    var device: DeviceDescription
    if Int(choice) < devices.count * 50 {
        device = devices[Int(choice) % devices.count]
    } else {
        // Any ranges: from the input.
        guard let x0 = r.i32(), let x1 = r.i32(), let y0 = r.i32(), let y1 = r.i32(), let res = r.i32(),
            let slots = r.i32()
        else { return 0 }
        device = devices[Int(choice) % devices.count]
        device.axes[ABS.MT_POSITION_X] = axis(x0, x1, res: res)
        device.axes[ABS.MT_POSITION_Y] = axis(y0, y1, res: res &+ 1)
        device.axes[ABS.X] = axis(x0, x1, res: res)
        device.axes[ABS.Y] = axis(y0, y1, res: res)
        if device.hasSlots { device.axes[ABS.MT_SLOT] = axis(0, slots) }
    }
    var converter: MtdevConverter?
    if device.isTypeA {
        guard let c = try? MtdevConverter(description: device) else { return 0 }
        converter = c
        device = device.convertedToSlots
    }
    guard let x = device.xAxis, let y = device.yAxis else { return 0 }
    let geometry = DeviceGeometry(
        x: x, y: y, calibration: calibrations[Int(setup >> 2) % calibrations.count],
        rotation: Rotation.allCases[Int(setup & 3)])
    // Touches already down when the device is opened, and the kernel's slot.
    let initialIDs: [Int32] = converter == nil ? (0..<8).map { initial & (1 << $0) != 0 ? Int32(1000 + $0) : -1 } : []
    let initialSlot = Int(setup >> 5)
    let config = (Int(choice) / devices.count) & 1 == 0 ? configuration : phoneConfiguration
    let pipeline = DevicePipeline(
        description: device, geometry: geometry, configuration: config,
        initialTrackingIDs: initialIDs, initialSlot: initialSlot)
    var shadow = SlotDecoder(
        device: device, geometry: geometry, initialTrackingIDs: initialIDs, initialSlot: initialSlot)
    var touches = TouchChecker()
    var gestures = GestureChecker()
    var time = EventTime(microseconds: 1_000_000)
    func drain() { pipeline.drain { gestures.check($0) } }
    func feed(_ e: RawEvent) {
        pipeline.feed(e)
        if shadow.feed(e) { touches.check(shadow.lastFrame) }
    }

    while let selector = r.u8() {
        guard let value = r.i32(), let step = r.u16() else { break }
        time = time.adding(microseconds: Int64(Int16(bitPattern: step)) * 64)
        // The loop's timer: deadlines that passed fire before the input is read.
        var turns = 0
        while let deadline = pipeline.nextDeadline, deadline <= time {
            pipeline.advance(to: deadline)
            drain()
            turns += 1
            require(turns < 1000, "the deadline \(deadline) does not move")
        }
        if selector == 0xFF {
            // libevdev's SYN_DROPPED: what follows is a resync.
            pipeline.beginResync()
            shadow.beginResync()
            continue
        }
        if selector == 0xFE { break }  // the device is removed
        let (type, code) =
            Int(selector) < events.count * 12
            ? events[Int(selector) % events.count] : (EV.ABS, UInt16(selector) & 0x3f)
        let e = RawEvent(time: time, type: type, code: code, value: value)
        if let converter { converter.put(e, feed) } else { feed(e) }
        drain()
    }
    // Removal: everything in flight is closed, once; later timers change nothing.
    pipeline.cancelAll(at: time, because: .deviceRemoved)
    if shadow.cancelAllTouches(at: time) { touches.check(shadow.lastFrame) }
    drain()
    require(touches.open.isEmpty, "touches \(touches.open) still down after removal")
    require(gestures.open.isEmpty, "gestures \(gestures.open.sorted()) still begun after removal")
    pipeline.advance(to: time.adding(microseconds: 60_000_000))
    pipeline.drain { e in require(false, "an event after removal: \(e.json)") }
    return 0
}

@main enum FuzzDecoder {
    static func main() { runFuzzer(fuzzDecoder) }
}
