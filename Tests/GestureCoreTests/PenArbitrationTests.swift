import Testing

@testable import GestureCore

/// A screen and its pen through one `DevicePipeline`, on fake time: the pen's
/// events enter as the pen node's would, with kernel timestamps.
private final class PenScenario {
    let pipeline: DevicePipeline
    private(set) var now = EventTime(microseconds: 1_000_000)
    private var trackingID: Int32 = 100
    var events: [GestureEvent] = []

    init(_ recognizers: [RecognizerConfig], release: Millis? = nil, log: ArenaLog? = nil) {
        let d = testDevice()
        var c = Configuration(recognizers: recognizers)
        if let release { c.penRelease = release }
        pipeline = DevicePipeline(
            description: d, geometry: DeviceGeometry(x: d.xAxis!, y: d.yAxis!), configuration: c, log: log)
    }

    private func touch(_ code: UInt16, _ value: Int32, type: UInt16 = EV.ABS) {
        pipeline.feed(RawEvent(time: now, type: type, code: code, value: value))
    }
    private func collect() { pipeline.drain { events.append($0) } }

    /// Time passes; timers (recognizers' and the arbitration's) fire on the way.
    func wait(ms: Double) {
        now = now + Millis(ms)
        pipeline.advance(to: now)
        collect()
    }
    func down(at p: Point, slot: Int32 = 0) {
        touch(ABS.MT_SLOT, slot)
        trackingID += 1
        touch(ABS.MT_TRACKING_ID, trackingID)
        touch(ABS.MT_POSITION_X, Int32(p.x * 10))
        touch(ABS.MT_POSITION_Y, Int32(p.y * 10))
        touch(SYN.REPORT, 0, type: EV.SYN)
        collect()
    }
    func move(to p: Point, slot: Int32 = 0, after ms: Double = 10) {
        now = now + Millis(ms)
        touch(ABS.MT_SLOT, slot)
        touch(ABS.MT_POSITION_X, Int32(p.x * 10))
        touch(ABS.MT_POSITION_Y, Int32(p.y * 10))
        touch(SYN.REPORT, 0, type: EV.SYN)
        collect()
    }
    func up(slot: Int32 = 0, after ms: Double = 10) {
        now = now + Millis(ms)
        touch(ABS.MT_SLOT, slot)
        touch(ABS.MT_TRACKING_ID, -1)
        touch(SYN.REPORT, 0, type: EV.SYN)
        collect()
    }
    func palm(slot: Int32 = 0, after ms: Double = 10) {
        now = now + Millis(ms)
        touch(ABS.MT_SLOT, slot)
        touch(ABS.MT_TOOL_TYPE, MTTool.palm)
        touch(SYN.REPORT, 0, type: EV.SYN)
        collect()
    }
    /// A touch the kernel marks a palm in its first frame.
    func palmLands(at p: Point, slot: Int32 = 0, after ms: Double = 10) {
        now = now + Millis(ms)
        touch(ABS.MT_SLOT, slot)
        trackingID += 1
        touch(ABS.MT_TRACKING_ID, trackingID)
        touch(ABS.MT_TOOL_TYPE, MTTool.palm)
        touch(ABS.MT_POSITION_X, Int32(p.x * 10))
        touch(ABS.MT_POSITION_Y, Int32(p.y * 10))
        touch(SYN.REPORT, 0, type: EV.SYN)
        collect()
    }
    /// The pen node: a tool key and its frame's SYN_REPORT.
    func pen(_ inProximity: Bool, after ms: Double = 5) { pen(PenTool.pen, inProximity, after: ms) }
    func pen(_ tool: UInt16, _ inProximity: Bool, after ms: Double = 5) {
        now = now + Millis(ms)
        pipeline.feedPen(RawEvent(time: now, type: EV.KEY, code: tool, value: inProximity ? 1 : 0))
        pipeline.feedPen(RawEvent(time: now, type: EV.SYN, code: SYN.REPORT, value: 0))
        collect()
    }
    /// A one-finger drag of 60 mm to the right, lifted.
    func drag(from x: Double = 40, slot: Int32 = 0) {
        down(at: mm(x, 50), slot: slot)
        for i in 1...6 { move(to: mm(x + Double(i) * 10, 50), slot: slot) }
        up(slot: slot)
    }
    var log: [String] { events.map { "\($0.name) \($0.state.rawValue)" } }
}

@Suite("touch arbitration: a pen in proximity, a palm")
struct PenArbitrationTests {
    let pan = recognizer("pan", .pan(.init()))
    let tap = recognizer("tap", tapConfig())

    @Test func aPenComingIntoProximityCancelsThePanInProgress() {
        let s = PenScenario([pan])
        s.down(at: mm(50, 50))
        s.move(to: mm(70, 50))
        #expect(s.log == ["pan began"])
        s.pen(true)
        #expect(s.log == ["pan began", "pan cancelled"])
        #expect(s.events.last?.cause == .penInProximity)
        #expect(s.events.last?.reason == "pen in proximity")
        s.move(to: mm(90, 50))
        s.up()
        #expect(s.log == ["pan began", "pan cancelled"], "the cancelled touch says nothing more")
    }

    @Test func anUndecidedRecognizerFailsWithTheSameReason() {
        let s = PenScenario([tap])
        s.down(at: mm(50, 50))
        s.pen(PenTool.rubber, true)
        #expect(s.log == ["tap failed"])
        #expect(s.events.last?.cause == .penInProximity)
    }

    @Test func touchesWhileThePenIsInProximityStartNothing() {
        let s = PenScenario([pan, tap])
        s.pen(true)
        s.drag()
        s.down(at: mm(100, 50))
        s.up(after: 50)
        s.wait(ms: 1000)
        #expect(s.events.isEmpty)
        #expect(s.pipeline.arbitration.active)
    }

    /// Touches that start nothing leave no event: the decoder counts them,
    /// with the last one's time and cause, for replay and explain to tell of.
    @Test func touchesSetAsideAsTheyLandAreCounted() {
        let s = PenScenario([pan, tap])
        s.drag()
        #expect(s.pipeline.decoder.setAsideCount == 0)
        s.pen(true)
        let penTime = s.now
        s.wait(ms: 20)
        s.down(at: mm(100, 50))
        #expect(s.pipeline.decoder.setAsideCount == 1)
        #expect(
            s.pipeline.decoder.lastSetAside
                == SetAsideTouch(time: penTime + Millis(20), slot: 0, cause: .penInProximity))
        s.up()
        s.pen(false)
        s.wait(ms: 1000)
        s.palmLands(at: mm(60, 60), slot: 1)
        #expect(s.pipeline.decoder.setAsideCount == 2)
        #expect(s.pipeline.decoder.lastSetAside?.cause == .palm)
        #expect(s.pipeline.decoder.lastSetAside?.slot == 1)
        #expect(s.events.allSatisfy { $0.time < penTime }, "neither started anything")
    }

    /// With a trace on (`gestured --trace`, `replay --trace`), a touch set
    /// aside says so among the trace's lines; without one, nothing is written.
    @Test func aTraceTellsOfATouchSetAside() {
        final class Lines { var texts: [String] = [] }
        let lines = Lines()
        let s = PenScenario([pan], log: ArenaLog(tracing: ["pan"]) { lines.texts.append($0.text) })
        s.pen(true)
        s.down(at: mm(100, 50))
        s.palmLands(at: mm(60, 60), slot: 1)
        #expect(
            lines.texts.filter { $0.contains("set aside") } == [
                "a touch (slot 0) set aside as it landed, starting nothing: pen in proximity",
                "a touch (slot 1) set aside as it landed, starting nothing: pen in proximity",
            ])
        let quiet = Lines()
        let untraced = PenScenario([pan], log: ArenaLog(tracing: []) { quiet.texts.append($0.text) })
        untraced.pen(true)
        untraced.down(at: mm(100, 50))
        #expect(quiet.texts.isEmpty)
    }

    @Test func theReleaseTimeFollowsThePenLeavingOnTheEventClock() {
        let s = PenScenario([tap], release: Millis(90))
        s.pen(true)
        s.pen(false)
        let left = s.now
        #expect(s.pipeline.nextDeadline == left + Millis(90), "the daemon's timer wakes it when the release is over")
        s.wait(ms: 50)
        s.down(at: mm(50, 50))
        s.up(after: 50)
        s.wait(ms: 400)
        #expect(s.events.isEmpty, "a tap 50 ms after the pen left is the hand lifting")
        #expect(!s.pipeline.arbitration.active)
        s.down(at: mm(50, 50))
        s.up(after: 50)
        s.wait(ms: 400)
        #expect(s.log == ["tap recognized"])
    }

    @Test func theReleaseTimeEndsAtTheFirstEventPastIt() {
        // No timer fired (a recording with no gaps replayed): the touch's own
        // timestamp ends the arbitration before it is read.
        let s = PenScenario([tap], release: Millis(90))
        s.pen(true)
        s.pen(false)
        s.down(at: mm(50, 50))
        s.up(after: 200)
        #expect(s.events.isEmpty, "landed 10 ms after the pen left")
        s.wait(ms: 100)
        s.down(at: mm(50, 50))
        s.up(after: 50)
        s.wait(ms: 400)
        #expect(s.log == ["tap recognized"])
    }

    @Test func aTouchThatLandedDuringArbitrationStaysIgnoredUntilItLifts() {
        let s = PenScenario([pan], release: Millis(90))
        s.pen(true)
        s.down(at: mm(30, 50))
        s.pen(false)
        s.wait(ms: 200)
        for i in 1...6 { s.move(to: mm(30 + Double(i) * 10, 50)) }
        s.up()
        #expect(s.events.isEmpty, "the resting hand is still the hand")
        s.drag()
        #expect(s.log.first == "pan began")
        #expect(s.log.last == "pan ended")
    }

    @Test func thePenReturningWithinTheReleaseTimeKeepsArbitrationOn() {
        let s = PenScenario([tap], release: Millis(90))
        s.pen(true)
        s.pen(false)
        s.wait(ms: 40)
        s.pen(true)
        #expect(s.pipeline.nextDeadline == nil)
        s.wait(ms: 500)
        s.down(at: mm(50, 50))
        s.up(after: 50)
        s.wait(ms: 400)
        #expect(s.events.isEmpty)
    }

    @Test func aZeroReleaseTimeEndsArbitrationWithThePen() {
        let s = PenScenario([tap], release: Millis(0))
        s.pen(true)
        s.pen(false)
        s.down(at: mm(50, 50))
        s.up(after: 50)
        s.wait(ms: 400)
        #expect(s.log == ["tap recognized"])
    }

    @Test func aPenNodeAttachedInProximityOrDetachedActsAtOnce() {
        let s = PenScenario([pan])
        s.down(at: mm(50, 50))
        s.move(to: mm(70, 50))
        s.pipeline.attachPen(toolsDown: [PenTool.pen], at: s.now)
        s.pipeline.drain { s.events.append($0) }
        #expect(s.log == ["pan began", "pan cancelled"])
        s.up()
        s.pipeline.detachPen(at: s.now)
        #expect(s.pipeline.arbitration.active, "a pen node going away is the pen leaving: the release time runs")
        s.wait(ms: 100)
        #expect(!s.pipeline.arbitration.active)
        s.drag()
        #expect(s.log.last == "pan ended")
    }

    @Test func aPalmIsCancelledWithItsOwnReasonOnAScreenWithoutAPen() {
        let s = PenScenario([pan])
        s.down(at: mm(50, 50))
        s.move(to: mm(70, 50))
        s.palm()
        #expect(s.log == ["pan began", "pan cancelled"])
        #expect(s.events.last?.cause == .palm)
        #expect(s.events.last?.reason == "palm")
    }

    @Test func aSecondFingersPalmFailsTheUndecidedWithReasonPalm() {
        let s = PenScenario([recognizer("two_finger_tap", tapConfig(fingers: 2))])
        s.down(at: mm(50, 50))
        s.down(at: mm(80, 50), slot: 1)
        #expect(s.events.isEmpty)
        s.palm(slot: 1)
        #expect(s.events.first?.cause == .palm)
    }

    @Test func penProximityReadsToolKeysPerFrameAndSurvivesADroppedFrame() {
        var p = PenProximity()
        func ev(_ type: UInt16, _ code: UInt16, _ value: Int32) -> RawEvent {
            RawEvent(time: .zero, type: type, code: code, value: value)
        }
        #expect(p.feed(ev(EV.KEY, PenTool.pen, 1)) == nil, "nothing before the frame closes")
        #expect(p.feed(ev(EV.SYN, SYN.REPORT, 0)) == true)
        #expect(p.feed(ev(EV.KEY, PenTool.rubber, 1)) == nil)
        #expect(p.feed(ev(EV.KEY, PenTool.pen, 0)) == nil)
        #expect(p.feed(ev(EV.SYN, SYN.REPORT, 0)) == nil, "pen to rubber: still in proximity")
        #expect(p.feed(ev(EV.SYN, SYN.DROPPED, 0)) == nil)
        #expect(p.feed(ev(EV.KEY, PenTool.rubber, 0)) == nil)
        #expect(p.feed(ev(EV.SYN, SYN.REPORT, 0)) == nil, "what a dropped frame held is not read")
        #expect(p.inProximity)
        #expect(p.feed(ev(EV.KEY, PenTool.rubber, 0)) == nil)
        #expect(p.feed(ev(EV.SYN, SYN.REPORT, 0)) == false)
        #expect(p.feed(ev(EV.KEY, BTN.TOUCH, 1)) == nil)
        #expect(p.feed(ev(EV.SYN, SYN.REPORT, 0)) == nil, "the tip touching is not a tool")
        #expect(PenProximity(toolsDown: [PenTool.rubber]).inProximity)
        #expect(!PenProximity(toolsDown: [BTN.TOUCH, 0x146]).inProximity)
    }
}
