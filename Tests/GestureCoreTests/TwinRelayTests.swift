import Testing

@testable import GestureCore

/// The device, its decoder and arena, and the twin as the apps read it: the
/// relay's output decoded by a second `SlotDecoder`, as libinput would decode
/// the uinput twin.
private final class TwinScenario {
    let device = TwinRelay.withToolType(testDevice())
    var decoder: SlotDecoder
    let arena: Arena
    var relay: TwinRelay
    /// What the apps see.
    var apps: SlotDecoder
    var appFrames: [TouchFrame] = []
    var decisions: [TwinRelay.Decision] = []
    var events: [GestureEvent] = []
    /// Per frame the arena was given: the frames the apps had by then.
    var appFramesWhenArenaSaw: [Int] = []
    /// Every frame through the arena first, then the relay: what the daemon
    /// did before frames went ahead of the recognizers.
    let arenaFirst: Bool
    private var input = KernelEvents()
    var now: EventTime { input.now }

    init(_ recognizers: [RecognizerConfig], hold: Millis = DeviceRule.defaultHold, arenaFirst: Bool = false) {
        self.arenaFirst = arenaFirst
        let d = testDevice()
        decoder = SlotDecoder(device: d, geometry: DeviceGeometry(x: d.xAxis!, y: d.yAxis!))
        apps = SlotDecoder(device: device, geometry: DeviceGeometry(x: d.xAxis!, y: d.yAxis!))
        arena = Configuration(recognizers: recognizers).makeArena(device: d.name)
        relay = TwinRelay(description: device, hold: hold)
    }

    func down(_ s: Int, at p: Point) { input.down(s, at: p) }
    /// Sends only the coordinates that changed, as the kernel does.
    func move(_ s: Int, to p: Point, x: Bool = true, y: Bool = true) { input.move(s, to: p, x: x, y: y) }
    func up(_ s: Int) { input.up(s) }
    /// Ends the frame `ms` after the last, in the daemon's order: device event
    /// by device event into the relay and the decoder; at the frame's end, the
    /// relay sends it to the twin ahead of the decoder and the arena when it
    /// may, then the arena sees it, then the relay decides with what the arena
    /// made of it.
    func sync(after ms: Double = 10) {
        for e in input.endFrame(after: ms) {
            guard relay.feed(e) else {
                if decoder.feed(e) { recognize() }
                continue
            }
            var framed: Bool?
            if !arenaFirst
                && relay.forwardAhead(
                    at: e.time,
                    couldBeTaken: { fingers in
                        let f = decoder.feed(e)
                        framed = f
                        return !f || arena.mayConsume(decoder.lastFrame, fingers: fingers)
                    })
            {
                flush()
                if framed ?? decoder.feed(e) { recognize() }
                decisions.append(
                    relay.endForwardedFrame(arena.consumeOutlook(fingers: relay.outlookFingers), at: e.time))
                continue
            }
            if framed ?? decoder.feed(e) { recognize() }
            decisions.append(relay.endFrame(arena.consumeOutlook(fingers: relay.outlookFingers), at: e.time))
        }
        flush()
    }
    private func recognize() {
        appFramesWhenArenaSaw.append(appFrames.count)
        arena.handle(decoder.lastFrame, into: &events)
    }
    func advance(ms: Double) {
        input.pass(ms: ms)
        arena.advance(to: now, into: &events)
        if let d = relay.advance(to: now, arena.consumeOutlook(fingers: relay.outlookFingers)) { decisions.append(d) }
        flush()
    }
    /// Every write to the twin, as "CODE VALUE" lines per frame (MT axes only).
    var lastWrites: [[String]] = []

    private func flush() {
        relay.drainOutput { out in
            var frame: [String] = []
            let names: [UInt16: String] = [
                ABS.MT_TOOL_TYPE: "ABS_MT_TOOL_TYPE", ABS.MT_TRACKING_ID: "ABS_MT_TRACKING_ID",
                ABS.MT_POSITION_X: "ABS_MT_POSITION_X", ABS.MT_POSITION_Y: "ABS_MT_POSITION_Y",
            ]
            for e in out {
                if e.type == EV.SYN {
                    lastWrites.append(frame)
                    frame = []
                } else if e.type == EV.ABS, let n = names[e.code] {
                    frame.append("\(n) \(e.value)")
                }
            }
            for e in out where apps.feed(e) { appFrames.append(apps.lastFrame) }
        }
    }
    func stroke(_ points: [Point], frameMS: Double = 12) {
        down(0, at: points[0])
        sync()
        for p in points.dropFirst() {
            move(0, to: p)
            sync(after: frameMS)
        }
        up(0)
        sync(after: frameMS)
    }
    /// Fingers 0, 1 and 2, down at y 50 and x `first`, 100 and 120 mm, move
    /// right together 8 mm a frame, 12 ms apart, for six frames.
    func swipeThree(first: Double = 80) {
        for step in 1...6 {
            let dx = Double(step) * 8
            for (s, x) in [first, 100, 120].enumerated() { move(s, to: mm(x + dx, 50), y: false) }
            sync(after: 12)
        }
    }
    /// The fingers in `slots` lift in one frame, `ms` after the last.
    func lift(_ slots: Int..., after ms: Double = 10) {
        for s in slots { up(s) }
        sync(after: ms)
    }

    /// The touches the apps saw begin, end and be cancelled, with where they began.
    var appLog: [String] {
        var out: [String] = []
        for f in appFrames {
            for t in f.touches where t.phase != .moved && t.phase != .stationary {
                let p = t.phase == .began ? " at \(Int(t.position.x.rounded())),\(Int(t.position.y.rounded()))" : ""
                out.append("\(t.phase)\(p)")
            }
        }
        return out
    }
}

private func leftEdgeSwipe(consume: Bool = true) -> RecognizerConfig {
    var r = RecognizerConfig(name: "menu", parameters: .swipe(.init()))
    r.filter.edge = EdgeFilter(edge: .left)
    r.consume = consume
    return r
}

private func threeFingerSwipe() -> RecognizerConfig {
    var p = SwipeRecognizer.Parameters()
    p.fingers = 3
    var r = RecognizerConfig(name: "three", parameters: .swipe(p))
    r.consume = true
    return r
}

private func pan() -> RecognizerConfig { RecognizerConfig(name: "pan", parameters: .pan(.init())) }

/// Touch sequences that exercise every decision of the relay: forwarded,
/// held and replayed, dropped, withheld, released at the bound, taken late.
private let sequenceNames = [
    "drag in the middle", "consumed edge swipe", "tap in the edge band, then a drag",
    "slow edge swipe released at the bound", "three fingers taken late", "a third finger withheld until the bound",
]

private func play(_ i: Int, on s: TwinScenario) {
    switch i {
    case 0:
        s.stroke((0...10).map { mm(60 + Double($0) * 3, 50) })
    case 1:
        s.stroke((0...8).map { mm(1 + Double($0) * 6, 50) })
    case 2:
        s.down(0, at: mm(2, 50))
        s.sync()
        s.up(0)
        s.sync(after: 60)
        s.stroke((0...6).map { mm(90 + Double($0) * 2, 40) })
    case 3:
        s.stroke((0...35).map { mm(1 + Double($0) * 60 / 35, 50) }, frameMS: 12)
    case 4:
        s.down(0, at: mm(80, 50))
        s.sync()
        s.move(0, to: mm(84, 50), y: false)
        s.sync(after: 12)
        s.down(1, at: mm(100, 50))
        s.down(2, at: mm(120, 50))
        s.sync()
        s.swipeThree(first: 84)
        s.lift(0, 1, 2, after: 12)
    default:
        s.down(0, at: mm(80, 50))
        s.sync()
        s.down(1, at: mm(120, 50))
        s.sync()
        s.down(2, at: mm(140, 50))
        s.sync()
        s.advance(ms: 310)
        s.move(0, to: mm(70, 50), y: false)
        s.sync()
        s.lift(0, 1, 2)
    }
}

@Suite("exclusive device: what the twin gets")
struct TwinRelayTests {
    @Test func aForwardedFrameReachesTheTwinBeforeTheRecognizersSeeIt() {
        let s = TwinScenario([leftEdgeSwipe(), pan()])
        s.stroke((0...10).map { mm(60 + Double($0) * 3, 50) })
        #expect(s.events.map { "\($0.name) \($0.state.rawValue)" }.contains("pan began"))
        #expect(
            s.appFramesWhenArenaSaw == Array(1...12),
            "every frame of the drag was on the twin when the recognizers got it")
        #expect(s.decisions == Array(repeating: .forward, count: 12))
        #expect(s.appLog == ["began at 60,50", "ended"])
    }

    @Test func aTouchAConsumingRecognizerCouldTakeWaitsForTheRecognizers() {
        let s = TwinScenario([leftEdgeSwipe(), pan()])
        s.down(0, at: mm(2, 50))
        s.sync()
        #expect(s.decisions == [.hold])
        #expect(s.appFramesWhenArenaSaw == [0])
        // A second finger joining a forwarded sequence waits for them too:
        // whether it is withheld is theirs to say.
        let t = TwinScenario([threeFingerSwipe()])
        t.down(0, at: mm(80, 50))
        t.sync()
        t.down(1, at: mm(100, 50))
        t.sync()
        #expect(t.appFramesWhenArenaSaw == [1, 1])
        #expect(t.appLog == ["began at 80,50", "began at 100,50"])
    }

    /// With a pan beside them, the pan's begin makes the edge swipe fail
    /// (exclusion): a held touch is then replayed and goes on ahead.
    @Test(arguments: sequenceNames.indices, [false, true])
    func theAppsGetTheSameWhetherFramesGoAheadOfTheRecognizersOrNot(_ i: Int, withPan: Bool) {
        let name = sequenceNames[i] + (withPan ? ", with a pan" : "")
        let recognizers = [leftEdgeSwipe(), threeFingerSwipe()] + (withPan ? [pan()] : [])
        let ahead = TwinScenario(recognizers, hold: Millis(300))
        let after = TwinScenario(recognizers, hold: Millis(300), arenaFirst: true)
        play(i, on: ahead)
        play(i, on: after)
        #expect(!ahead.appLog.isEmpty || (i == 1 && !withPan), "\(name): the apps saw it")
        // A sequence forwarded at all has frames that went to the twin before
        // the arena saw them; but the slow edge swipe alone is forwarded (after
        // the bound) only while the swipe could still take it, and those frames
        // wait for the recognizers.
        let forwardedFreely = ahead.relay.counts.forwardedFrames > 0 && !(i == 3 && !withPan)
        #expect(
            (ahead.appFramesWhenArenaSaw != after.appFramesWhenArenaSaw) == forwardedFreely,
            "\(name): frames ahead of the recognizers")
        #expect(ahead.lastWrites == after.lastWrites, "\(name): the same writes to the twin")
        #expect(ahead.appLog == after.appLog, "\(name)")
        #expect(ahead.decisions == after.decisions, "\(name)")
        #expect(ahead.relay.counts == after.relay.counts, "\(name)")
        #expect(
            ahead.events.map { "\($0.name) \($0.state.rawValue)" }
                == after.events.map { "\($0.name) \($0.state.rawValue)" }, "\(name)")
    }

    @Test func aTapInTheMiddleGoesToTheAppsFrameByFrame() {
        let s = TwinScenario([leftEdgeSwipe()])
        s.down(0, at: mm(100, 50))
        s.sync()
        #expect(s.decisions == [.forward], "forwarded in the frame it was read")
        #expect(s.appLog == ["began at 100,50"])
        s.up(0)
        s.sync(after: 60)
        #expect(s.decisions == [.forward, .forward])
        #expect(s.appLog == ["began at 100,50", "ended"])
        #expect(s.relay.twinTouches == 0)
    }

    @Test func aConsumedEdgeSwipeNeverReachesTheApps() {
        let s = TwinScenario([leftEdgeSwipe()])
        s.stroke((0...8).map { mm(1 + Double($0) * 6, 50) })
        #expect(s.events.map { "\($0.name) \($0.state.rawValue)" } == ["menu recognized"])
        #expect(s.decisions.first == .hold)
        #expect(s.decisions.contains(.drop))
        #expect(!s.decisions.contains(.forward))
        #expect(s.appLog == [], "the apps saw nothing of it")
        #expect(s.relay.counts.replayedFrames == 0)
        #expect(s.relay.mode == .idle)
    }

    @Test func aTapInTheEdgeBandArrivesAfterItsLift() {
        let s = TwinScenario([leftEdgeSwipe()])
        s.down(0, at: mm(2, 50))
        s.sync()
        #expect(s.decisions == [.hold])
        #expect(s.appLog == [], "held while the edge swipe could still take it")
        s.up(0)
        s.sync(after: 60)
        #expect(s.decisions == [.hold, .replay(frames: 2)])
        #expect(s.appLog == ["began at 2,50", "ended"], "the same tap, at the same place")
    }

    @Test func aTouchHeldLongerThanTheBoundGoesToTheAppsAsItIs() {
        let s = TwinScenario([leftEdgeSwipe()], hold: Millis(300))
        s.down(0, at: mm(2, 50))
        s.sync()
        s.advance(ms: 250)
        #expect(s.appLog == [])
        s.advance(ms: 60)
        #expect(s.decisions == [.hold, .replay(frames: 1)])
        #expect(s.appLog == ["began at 2,50"])
        #expect(s.relay.counts.holdsExpired == 1)
        s.move(0, to: mm(2, 60), x: false)
        s.sync()
        #expect(s.decisions.last == .forward, "then it goes on as forwarded")
    }

    @Test func aMultiFingerGestureTakenLateEndsItsFirstFingerAsAPalm() {
        let s = TwinScenario([threeFingerSwipe()])
        s.down(0, at: mm(80, 50))
        s.sync()
        #expect(s.decisions == [.forward], "one finger: a three-finger swipe cannot take it yet")
        s.down(1, at: mm(100, 50))
        s.down(2, at: mm(120, 50))
        s.sync()
        #expect(s.relay.withheldTouches == 2)
        s.swipeThree()
        s.lift(0, 1, 2, after: 12)
        #expect(s.events.map { "\($0.name) \($0.state.rawValue)" } == ["three recognized"])
        #expect(s.decisions.contains(.palmCancel(touches: 1)))
        #expect(
            s.appLog == ["began at 80,50", "cancelled"],
            "the fingers that joined were withheld; the first ends as a palm, which the apps take as a cancel")
        #expect(s.relay.twinTouches == 0)
        #expect(s.relay.mode == .idle)
    }

    @Test func aSecondFingerOfAPinchIsWithheldOnlyUntilTheBound() {
        let s = TwinScenario([threeFingerSwipe()], hold: Millis(300))
        // Two fingers: the three-finger swipe could not take them.
        s.down(0, at: mm(80, 50))
        s.sync()
        s.down(1, at: mm(120, 50))
        s.sync()
        #expect(s.relay.withheldTouches == 0)
        #expect(s.appLog == ["began at 80,50", "began at 120,50"])
        // A third joins: withheld while the swipe could take the sequence.
        s.down(2, at: mm(140, 50))
        s.sync()
        #expect(s.relay.withheldTouches == 1)
        s.advance(ms: 310)
        #expect(s.relay.withheldTouches == 0)
        #expect(s.appLog == ["began at 80,50", "began at 120,50", "began at 140,50"])
    }

    @Test func aWithheldFingerThatLiftsBeforeTheDecisionStillReachesTheApps() {
        let s = TwinScenario([threeFingerSwipe()], hold: Millis(300))
        s.down(0, at: mm(80, 50))
        s.sync()
        s.down(1, at: mm(120, 50))
        s.sync()
        // A third finger taps: withheld while the three-finger swipe could
        // take the sequence, which it cannot once the finger is up again.
        s.down(2, at: mm(140, 50))
        s.sync()
        #expect(s.relay.withheldTouches == 1)
        #expect(s.appLog == ["began at 80,50", "began at 120,50"])
        s.up(2)
        s.sync(after: 40)
        #expect(s.relay.withheldTouches == 0)
        #expect(s.appLog == ["began at 80,50", "began at 120,50"], "still held: the swipe could take the three")
        s.advance(ms: 300)
        #expect(
            s.appLog == ["began at 80,50", "began at 120,50", "began at 140,50", "ended"],
            "the apps get the third finger's tap, at its place, when the bound passes")
        #expect(s.relay.nextDeadline == nil)
        s.up(0)
        s.up(1)
        s.sync(after: 40)
        #expect(s.relay.twinTouches == 0)
        #expect(s.appLog.filter { $0 == "ended" }.count == 3)
    }

    @Test func aWithheldFingerThatLiftsBeforeASwipeTakesTheSequenceIsNeverSeen() {
        let s = TwinScenario([threeFingerSwipe()])
        s.down(0, at: mm(80, 50))
        s.sync()
        s.down(1, at: mm(100, 50))
        s.down(2, at: mm(120, 50))
        s.sync()
        s.swipeThree()
        // The fingers that joined lift a frame before the first: the swipe
        // takes the sequence at the first's lift.
        s.lift(1, 2, after: 12)
        s.lift(0, after: 12)
        #expect(s.events.map { "\($0.name) \($0.state.rawValue)" } == ["three recognized"])
        #expect(s.appLog == ["began at 80,50", "cancelled"], "the joined fingers never reach the apps")
        #expect(s.relay.twinTouches == 0)
        #expect(s.relay.mode == .idle)
    }

    @Test func aSlowEdgeSwipeReleasedByTheBoundEndsAsAPalmAndTheNextTapArrives() {
        let s = TwinScenario([leftEdgeSwipe()], hold: Millis(300))
        // 60 mm in 420 ms: a swipe, decided at its lift, after the bound.
        s.stroke((0...35).map { mm(1 + Double($0) * 60 / 35, 50) }, frameMS: 12)
        #expect(s.events.map { "\($0.name) \($0.state.rawValue)" } == ["menu recognized"])
        #expect(s.appLog == ["began at 1,50", "cancelled"], "released at the bound, then ended as a palm")
        #expect(s.relay.mode == .idle)
        s.down(0, at: mm(2, 30))
        s.sync(after: 400)
        s.up(0)
        s.sync(after: 50)
        #expect(s.appLog == ["began at 1,50", "cancelled", "began at 2,30", "ended"])
        // libinput reads a slot's tool type when its tracking ID arrives: a
        // finger after a palm must say so first.
        #expect(
            s.lastWrites.contains([
                "ABS_MT_TOOL_TYPE 0", "ABS_MT_TRACKING_ID 102", "ABS_MT_POSITION_X 20", "ABS_MT_POSITION_Y 300",
            ]))
    }

    @Test func afterADroppedSequenceTheNextTouchCarriesItsWholeState() {
        let s = TwinScenario([leftEdgeSwipe()])
        s.stroke((0...8).map { mm(1 + Double($0) * 6, 50) })
        #expect(s.appLog == [])
        // The next touch lands on the row the swipe ended on: the kernel sends no Y.
        s.down(0, at: mm(100, 50))
        s.sync()
        #expect(s.appLog == ["began at 100,50"])
    }

    @Test func withoutConsumingRecognizersEverythingIsForwarded() {
        let s = TwinScenario([leftEdgeSwipe(consume: false)])
        s.stroke((0...8).map { mm(1 + Double($0) * 6, 50) })
        #expect(s.events.map { "\($0.name) \($0.state.rawValue)" } == ["menu recognized"])
        #expect(s.decisions.allSatisfy { $0 == .forward })
        #expect(s.appLog == ["began at 1,50", "ended"])
    }

    @Test func aSwipeThatFailsIsReplayedWhole() {
        let s = TwinScenario([leftEdgeSwipe()])
        // From the edge, but far too slow for a swipe: the apps get the drag.
        s.stroke((0...8).map { mm(1 + Double($0) * 0.5, 50) }, frameMS: 30)
        #expect(s.events.map { "\($0.name) \($0.state.rawValue)" } == ["menu failed"])
        #expect(s.appLog == ["began at 1,50", "ended"])
        #expect(s.relay.counts.droppedFrames == 0)
    }
}
