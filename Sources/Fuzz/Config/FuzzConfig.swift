import FuzzSupport
import GestureConfig
import GestureCore

/// The config loader: any text is a configuration or errors that name the file
/// and a line, never a trap; a configuration it accepts drives an arena
/// through taps, a pan, a pinch and a long hold without trapping. The same
/// text goes to the actions loader (`gesturectl actions`), held to the same rule.
@_cdecl("gestured_fuzz_config")
func fuzzConfig(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var reader = ByteReader(data, size)
    let text = reader.rest()
    do {
        let actions = try ActionsLoader.load(text: text, file: "actions.toml")
        for a in actions.actions {
            require(!a.exec.isEmpty && a.line >= 1, "an accepted action without a command or a line")
        }
    } catch {
        require(!error.errors.isEmpty, "a rejected actions file says why")
        for e in error.errors {
            require(
                e.file == "actions.toml" && e.line >= 1 && !e.message.isEmpty,
                "actions error without its place or message: \(e)")
        }
    }
    let configuration: Configuration
    do {
        configuration = try ConfigLoader.load(text: text, file: "fuzz.toml")
    } catch {
        require(!error.errors.isEmpty, "a rejected config says why")
        for e in error.errors {
            require(e.file == "fuzz.toml" && e.line >= 0, "error without its place: \(e)")
            require(!e.message.isEmpty, "error without a message: \(e)")
        }
        return 0
    }
    _ = configuration.relationProblems()
    drive(configuration)
    return 0
}

/// A 200 × 100 mm panel, 10 units per mm, and a script of touches.
func drive(_ configuration: Configuration) {
    var d = DeviceDescription(name: "fuzz panel")
    d.axes[ABS.MT_SLOT] = AxisInfo(minimum: 0, maximum: 9)
    d.axes[ABS.MT_TRACKING_ID] = AxisInfo(minimum: 0, maximum: 65535)
    d.axes[ABS.MT_POSITION_X] = AxisInfo(minimum: 0, maximum: 2000, resolution: 10)
    d.axes[ABS.MT_POSITION_Y] = AxisInfo(minimum: 0, maximum: 1000, resolution: 10)
    guard let geometry = configuration.geometry(for: d) else { return }
    var decoder = SlotDecoder(device: d, geometry: geometry)
    let arena = configuration.makeArena(device: d.name)
    var out: [GestureEvent] = []
    var t: Int64 = 1_000_000
    var id: Int32 = 1
    func send(_ events: [(UInt16, UInt16, Int32)], after us: Int64) {
        t += us
        let now = EventTime(microseconds: t)
        while let deadline = arena.nextDeadline, deadline <= now { arena.advance(to: deadline, into: &out) }
        for (type, code, value) in events + [(EV.SYN, SYN.REPORT, 0)]
        where decoder.feed(RawEvent(time: now, type: type, code: code, value: value)) {
            arena.handle(decoder.lastFrame, into: &out)
        }
        out.removeAll(keepingCapacity: true)
    }
    func down(_ slot: Int32, _ x: Int32, _ y: Int32) -> [(UInt16, UInt16, Int32)] {
        id += 1
        return [
            (EV.ABS, ABS.MT_SLOT, slot), (EV.ABS, ABS.MT_TRACKING_ID, id),
            (EV.ABS, ABS.MT_POSITION_X, x), (EV.ABS, ABS.MT_POSITION_Y, y),
        ]
    }
    func move(_ slot: Int32, _ x: Int32, _ y: Int32) -> [(UInt16, UInt16, Int32)] {
        [(EV.ABS, ABS.MT_SLOT, slot), (EV.ABS, ABS.MT_POSITION_X, x), (EV.ABS, ABS.MT_POSITION_Y, y)]
    }
    func up(_ slot: Int32) -> [(UInt16, UInt16, Int32)] {
        [(EV.ABS, ABS.MT_SLOT, slot), (EV.ABS, ABS.MT_TRACKING_ID, -1)]
    }
    // Two taps, then a one-finger drag, a two-finger pinch, a long hold, a circle.
    for _ in 0..<2 {
        send(down(0, 1000, 500), after: 200_000)
        send(up(0), after: 80_000)
    }
    send(down(0, 200, 200), after: 500_000)
    for i in 1...20 { send(move(0, Int32(200 + 60 * i), 200), after: 10_000) }
    send(up(0), after: 10_000)
    send(down(0, 900, 500) + down(1, 1100, 500), after: 500_000)
    for i in 1...20 { send(move(0, Int32(900 - 20 * i), 500) + move(1, Int32(1100 + 20 * i), 500), after: 10_000) }
    send(up(0) + up(1), after: 10_000)
    send(down(0, 1000, 500), after: 500_000)
    send(move(0, 1001, 500), after: 2_000_000)
    send(up(0), after: 10_000)
    send(down(0, 1300, 500), after: 500_000)
    for i in 1...40 {
        let a = Double(i) * .pi / 16
        send(move(0, Int32(1000 + 300 * (a).cosine), Int32(500 + 300 * (a).sine)), after: 15_000)
    }
    send(up(0), after: 10_000)
    arena.advance(to: EventTime(microseconds: t + 60_000_000), into: &out)
}

extension Double {
    /// cos and sin by their series: the config fuzzer needs no libm.
    var cosine: Double {
        var s = 1.0, term = 1.0
        for k in 1...12 {
            term *= -self * self / Double((2 * k - 1) * (2 * k))
            s += term
        }
        return s
    }
    var sine: Double {
        var s = self, term = self
        for k in 1...12 {
            term *= -self * self / Double((2 * k) * (2 * k + 1))
            s += term
        }
        return s
    }
}

@main enum FuzzConfig {
    static func main() { runFuzzer(fuzzConfig) }
}
