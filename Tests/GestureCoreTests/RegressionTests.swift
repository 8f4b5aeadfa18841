import Testing

@testable import GestureCore

/// Defects found in review, each pinned by the smallest input that showed it.
@Suite("regressions")
struct RegressionTests {
    let device = testDevice()
    var geometry: DeviceGeometry { DeviceGeometry(x: device.xAxis!, y: device.yAxis!) }

    func feed(_ d: inout SlotDecoder, _ events: [(UInt16, UInt16, Int32)]) -> [TouchFrame] {
        var frames: [TouchFrame] = []
        for (t, c, v) in events where d.feed(RawEvent(time: .zero, type: t, code: c, value: v)) {
            frames.append(d.lastFrame)
        }
        return frames
    }

    @Test func aPalmLandingAgainInTheSameSlotStaysAPalm() {
        // The kernel does not resend an unchanged ABS_MT_TOOL_TYPE.
        let s = Scenario(recognizer("tap", tapConfig()))
        s.down(0, at: mm(50, 50))
        s.palm(0)
        s.sync()
        s.up(0)
        s.sync()
        s.advance(ms: 500)
        s.down(0, at: mm(50, 50))
        s.sync(after: 100)
        s.up(0)
        s.sync(after: 60)
        #expect(s.log.isEmpty, "\(s.log)")
        // A finger in another slot is a touch as ever.
        s.down(1, at: mm(50, 50))
        s.sync(after: 100)
        s.up(1)
        s.sync(after: 60)
        #expect(s.log == ["tap recognized"])
    }

    @Test func aPalmAlreadyInASlotAtOpenIsKnown() {
        var d = SlotDecoder(device: device, geometry: geometry, initialToolTypes: [MTTool.palm])
        let f = feed(&d, [(EV.ABS, ABS.MT_TRACKING_ID, 5), (EV.SYN, SYN.REPORT, 0)])
        #expect(f.isEmpty)
    }

    @Test func aPalmFlaggedInTheFrameItLandsDoesNotCancelAnotherFingersPan() {
        let s = Scenario(recognizer("pan", .pan(.init())))
        s.down(0, at: mm(50, 50))
        s.sync()
        s.move(0, to: mm(70, 50))
        s.sync()
        s.down(1, at: mm(150, 80))
        s.palm(1)
        s.sync()
        s.move(0, to: mm(80, 50))
        s.sync()
        s.up(0)
        s.sync()
        #expect(s.log(without: .changed) == ["pan began", "pan ended"])
    }

    @Test func theDecoderStartsInTheKernelsCurrentSlot() {
        // Two fingers down at open, the kernel last in slot 1.
        var d = SlotDecoder(device: device, geometry: geometry, initialTrackingIDs: [10, 11], initialSlot: 1)
        _ = feed(&d, [(EV.ABS, ABS.MT_TRACKING_ID, -1), (EV.SYN, SYN.REPORT, 0)])  // B lifts
        let c = feed(
            &d,
            [
                (EV.ABS, ABS.MT_TRACKING_ID, 12), (EV.ABS, ABS.MT_POSITION_X, 500),
                (EV.ABS, ABS.MT_POSITION_Y, 500), (EV.SYN, SYN.REPORT, 0),
            ])  // C lands in slot 1
        #expect(c.first?.touches.map(\.slot) == [1])
        _ = feed(&d, [(EV.ABS, ABS.MT_TRACKING_ID, -1), (EV.SYN, SYN.REPORT, 0)])  // C lifts
        #expect(d.liveTouchCount == 0)
    }

    @Test func oneFingerLiftingWhileAnotherLandsIsNoSwipe() {
        let s = Scenario(recognizer("swipe", .swipe(.init())), recognizer("pan", .pan(.init())))
        s.down(0, at: mm(50, 50))
        s.sync()
        s.up(0)
        s.down(1, at: mm(90, 50))
        s.sync(after: 40)
        s.up(1)
        s.sync(after: 40)
        // The centroid jumps 40 mm, but nothing moved: both fail on 0 mm of travel.
        #expect(s.log == ["swipe failed", "pan failed"])
        #expect(s.first("swipe", .failed)?.cause == .swipe(.tooShort(0, min: 15)))
        #expect(s.first("pan", .failed)?.cause == .pan(.tooShort(0, threshold: 5)))
    }

    @Test func aTickleMayStartAfterTheFingerRests() {
        let s = Scenario(recognizer("tickle", .tickle(.init())))
        s.down(0, at: mm(100, 50))
        s.sync()
        s.advance(ms: 450)
        var x = 100.0
        for k in 0..<6 {
            let dir = k % 2 == 0 ? 1.0 : -1.0
            for _ in 0..<6 {
                x += dir * 2.5
                s.move(0, to: mm(x, 50))
                s.sync(after: 15)
            }
        }
        #expect(s.log == ["tickle recognized"], "\(s.events.map { $0.reason ?? "" })")
    }

    @Test func reasonsSayWhatHappened() {
        var two = PanRecognizer.Parameters()
        two.minFingers = 2
        let pan = Scenario(recognizer("pan", .pan(two)))
        pan.stroke(line(mm(10, 10), mm(60, 10)))
        #expect(pan.events.first?.reason == "1 finger < min 2")

        var press = LongPressRecognizer.Parameters()
        press.fingers = 2
        let lp = Scenario(recognizer("press", .longPress(press)))
        lp.down(0, at: mm(40, 40))
        lp.down(1, at: mm(80, 40))
        lp.sync()
        lp.up(1)
        lp.sync(after: 100)
        #expect(lp.events.first?.reason == "a finger lifted after 100 ms < 500 ms")
    }
}
