import Testing

@testable import GestureCore

// The test panel is 200 × 100 mm (Harness.swift), 12 ms between frames unless said.

func swipe(
    _ name: String = "s", edge: Edge? = nil, at: EdgeFilter.At = .start, marginMM: Double = 4.5,
    range: ClosedRange<Double>? = nil, _ configure: (inout SwipeRecognizer.Parameters) -> Void = { _ in }
)
    -> RecognizerConfig
{
    var p = SwipeRecognizer.Parameters()
    p.directions = Set(SwipeRecognizer.Direction.allCases)
    p.maxAngleDegrees = 22.5
    configure(&p)
    var r = RecognizerConfig(name: name, parameters: .swipe(p))
    if let edge { r.filter.edge = EdgeFilter(edge: edge, marginMM: marginMM, range: range, at: at) }
    return r
}

private func slider(_ name: String = "slider", edge: Edge? = .left, stepMM: Double = 5, axis: PanRecognizer.Axis = .y)
    -> RecognizerConfig
{
    var p = PanRecognizer.Parameters()
    p.stepMM = stepMM
    p.axis = axis
    p.maxFingers = 1
    var r = RecognizerConfig(name: name, parameters: .pan(p))
    if let edge { r.filter.edge = EdgeFilter(edge: edge) }
    return r
}

/// `count` frames from `a` moving at `speed` mm/s in direction `d` (unit), 8 ms apart (a 120 Hz panel).
func fling(from a: Point, direction d: Point, speed: Double, frames: Int = 12) -> [Point] {
    (0...frames).map { i in a + d * (speed * 0.008 * Double(i)) }
}

/// Frames for `mm` of travel at `speed` mm/s, 8 ms apart.
private func frames(for mm: Double, at speed: Double) -> Int { Int((mm / (speed * 0.008)).rounded(.up)) }

@Suite("edges and corners")
struct EdgeTests {
    @Test(arguments: [
        (Edge.left, mm(2, 50), mm(1, 0)), (.right, mm(198, 50), mm(-1, 0)),
        (.top, mm(100, 2), mm(0, 1)), (.bottom, mm(100, 98), mm(0, -1)),
    ])
    func aSwipeFromEachEdgeCarriesItsEdge(edge: Edge, start: Point, direction: Point) throws {
        let s = Scenario(swipe(edge: edge))
        s.stroke(fling(from: start, direction: direction, speed: 300, frames: 10), frameMS: 8)
        #expect(s.log == ["s recognized"])
        let e = try #require(s.events.first)
        #expect(e.edge == edge)
        #expect(e.json.contains("\"edge\":\"\(edge.rawValue)\""))
    }

    @Test func theSameSwipeFromTheMiddleIsNotAnEdgeSwipe() {
        let s = Scenario(swipe(edge: .left), swipe("any"))
        s.stroke(fling(from: mm(60, 50), direction: mm(1, 0), speed: 300, frames: 10), frameMS: 8)
        #expect(s.log == ["any recognized"], "the edge swipe sits the sequence out; nothing else is told")
    }

    @Test func aCornerCountsForBothItsEdgesAndNotForTheOthers() {
        for (edge, fires) in [
            (Edge.topLeft, true), (.left, true), (.top, true), (.bottomLeft, false), (.topRight, false),
        ] {
            let s = Scenario(swipe(edge: edge))
            s.stroke(fling(from: mm(2, 2), direction: mm(0.7071, 0.7071), speed: 300, frames: 10), frameMS: 8)
            #expect(s.log == (fires ? ["s recognized"] : []), "\(edge)")
        }
    }

    @Test func aCornerNeedsBothSides() {
        let s = Scenario(swipe(edge: .topLeft))
        // At the left edge, 30 mm down: not in the corner's square.
        s.stroke(fling(from: mm(2, 30), direction: mm(1, 0), speed: 300, frames: 10), frameMS: 8)
        #expect(s.log == [])
    }

    @Test func edgeRangeIsThePartOfTheEdgeThatCounts() {
        // The upper half of the left edge: from the top, 0…0.5 of the height.
        let s = Scenario(swipe(edge: .left, range: 0...0.5))
        s.stroke(fling(from: mm(2, 20), direction: mm(1, 0), speed: 300, frames: 10), frameMS: 8)
        s.stroke(fling(from: mm(2, 80), direction: mm(1, 0), speed: 300, frames: 10), frameMS: 8)
        #expect(s.log == ["s recognized"])
        // The left third of the bottom edge.
        let b = Scenario(swipe(edge: .bottom, range: 0...0.33))
        b.stroke(fling(from: mm(50, 98), direction: mm(0, -1), speed: 300, frames: 10), frameMS: 8)
        b.stroke(fling(from: mm(150, 98), direction: mm(0, -1), speed: 300, frames: 10), frameMS: 8)
        #expect(b.log == ["s recognized"])
    }

    @Test func edgeMMSetsTheMargin() {
        // 71 mm/s, landing 9 mm in: too slow for the fast-start rule to take it.
        let wide = Scenario(swipe(edge: .left, marginMM: 10) { $0.minSpeedMMPerS = 0 })
        wide.stroke(line(mm(9, 50), mm(60, 50), count: 60), frameMS: 12)
        #expect(wide.log == ["s recognized"])
        let narrow = Scenario(swipe(edge: .left) { $0.minSpeedMMPerS = 0 })
        narrow.stroke(line(mm(9, 50), mm(60, 50), count: 60), frameMS: 12)
        #expect(narrow.log == ["s failed"])
        #expect(narrow.events.first?.reason == "not at the left edge: started 7.2 mm from it > 4.5 mm")
    }

    @Test func aFastSwipeFirstSeenSomeMMInStillStartsAtTheEdge() {
        // First reported 7 mm in, moving away from the edge at 500 mm/s: traced
        // back 25 ms it came from the edge.
        let fast = Scenario(swipe(edge: .left))
        fast.stroke(fling(from: mm(7, 50), direction: mm(1, 0), speed: 500, frames: 10), frameMS: 8)
        #expect(fast.log == ["s recognized"])
        // The same landing moving slowly did not come from the edge.
        let slow = Scenario(swipe(edge: .left))
        slow.stroke(fling(from: mm(7, 50), direction: mm(1, 0), speed: 100, frames: 40), frameMS: 8)
        #expect(slow.log == ["s failed"])
        // Nor a fast one moving towards it.
        let towards = Scenario(swipe(edge: .right))
        towards.stroke(fling(from: mm(7, 50), direction: mm(-1, 0), speed: 500, frames: 1), frameMS: 8)
        #expect(towards.log == [])
        // Landing further in than twice edge_mm is never an edge start, however fast.
        let far = Scenario(swipe(edge: .left))
        far.stroke(fling(from: mm(9.5, 50), direction: mm(1, 0), speed: 2000, frames: 6), frameMS: 8)
        #expect(far.log == [])
    }

    @Test func seededCentreSwipesNeverBecomeEdgeSwipesAndEdgeSwipesAreCaught() {
        var rng = SplitMix64(seed: 20_261_125)
        let edges: [Edge] = [.left, .right, .top, .bottom, .topLeft, .topRight, .bottomLeft, .bottomRight]
        let all = edges.map { swipe($0.rawValue, edge: $0) } + [swipe("centre")]
        var centreAsEdge = 0, edgeMissed = 0, centreSwipes = 0
        for _ in 0..<300 {
            // Centre swipes: landing at least 10 mm (over twice edge_mm) from every edge, at any speed.
            let s = Scenario(all)
            let start = mm(rng.uniform(10...190), rng.uniform(10...90))
            // Any direction that keeps 25 mm of travel on the screen: towards its middle, ±60°.
            let a = atan2(50 - start.y, 100 - start.x) + rng.uniform(-1.05...1.05)
            let speed = rng.uniform(100...1500)
            s.stroke(
                fling(
                    from: start, direction: Point(x: cos(a), y: sin(a)), speed: speed,
                    frames: frames(for: 25, at: speed)), frameMS: 8)
            if s.events.contains(where: { $0.state == .recognized && $0.name != "centre" }) { centreAsEdge += 1 }
            if s.first("centre", .recognized) != nil { centreSwipes += 1 }
        }
        for _ in 0..<300 {
            // Edge swipes from the left edge inwards: first seen within edge_mm at any speed,
            // or up to 8 mm in when moving at 400 mm/s or more.
            let s = Scenario(all)
            let fast = rng.next() & 1 == 0
            let x = fast ? rng.uniform(0...8) : rng.uniform(0...4.5)
            let speed = fast ? rng.uniform(400...1500) : rng.uniform(100...400)
            let a = rng.uniform(-0.35...0.35)
            s.stroke(
                fling(
                    from: mm(x, rng.uniform(20...80)), direction: Point(x: cos(a), y: sin(a)), speed: speed,
                    frames: frames(for: 25, at: speed)), frameMS: 8)
            if s.first("left", .recognized) == nil { edgeMissed += 1 }
        }
        #expect(centreSwipes == 300, "every centre stroke is a swipe: the test sees swipes, not failures")
        #expect(centreAsEdge == 0)
        #expect(edgeMissed == 0)
    }

    @Test func startOrEndAlsoTakesASwipeEndingAtTheEdge() {
        let s = Scenario(swipe(edge: .right, at: .startOrEnd))
        s.stroke(fling(from: mm(120, 50), direction: mm(1, 0), speed: 800, frames: 10), frameMS: 8)  // ends at 184 mm
        #expect(s.log == ["s failed"])
        // The end was judged too, and the reason says so.
        #expect(s.events.first?.reason?.hasPrefix("not at the right edge: started 80.0 mm and ended ") == true)
        s.stroke(line(mm(120, 50), mm(197, 50), count: 10), frameMS: 8)
        #expect(s.log == ["s failed", "s recognized"])
        let start = Scenario(swipe(edge: .right))
        start.stroke(line(mm(120, 50), mm(197, 50), count: 10), frameMS: 8)
        #expect(start.log == [], "judged at the start only, it sits the sequence out")
    }

    @Test func edgeNoneWantsNoEdge() {
        let s = Scenario(swipe(edge: Edge.none, at: .startOrEnd))
        s.stroke(fling(from: mm(60, 50), direction: mm(1, 0), speed: 500, frames: 10), frameMS: 8)
        s.stroke(fling(from: mm(2, 50), direction: mm(1, 0), speed: 500, frames: 10), frameMS: 8)
        #expect(s.log == ["s recognized", "s failed"])
        #expect(s.events.last?.reason == "at an edge; this recognizer wants none")
        #expect(s.events.first?.edge == nil)
    }

    @Test func edgesAndDirectionsAreTheScreensAsSeenAfterRotation() {
        // Turned 90° clockwise: the panel's left edge is the top of the screen as
        // seen, and a finger moving towards the panel's right moves down the screen.
        let s = Scenario([swipe(edge: .top)], rotation: .cw90)
        s.stroke(fling(from: mm(2, 50), direction: mm(1, 0), speed: 300, frames: 10), frameMS: 8)
        #expect(s.log == ["s recognized"])
        guard case .swipe(let direction, _, _)? = s.events.first?.detail else {
            Issue.record("no swipe")
            return
        }
        #expect(direction == .down)
        #expect(s.events.first?.edge == .top)
        let unrotated = Scenario(swipe(edge: .top))
        unrotated.stroke(fling(from: mm(2, 50), direction: mm(1, 0), speed: 300, frames: 10), frameMS: 8)
        #expect(unrotated.log == [])
    }

    @Test func aTapAndALongPressCanCarryAnEdgeToo() {
        var tap = RecognizerConfig(name: "t", parameters: tapConfig())
        tap.filter.edge = EdgeFilter(edge: .bottomRight)
        var press = RecognizerConfig(name: "p", parameters: .longPress(.init()))
        press.filter.edge = EdgeFilter(edge: .top)
        let s = Scenario(tap, press)
        s.tap(at: mm(197, 97))
        s.advance(ms: 400)
        s.tap(at: mm(100, 50))
        s.advance(ms: 400)
        s.down(0, at: mm(100, 3))
        s.sync()
        s.advance(ms: 600)
        s.up(0)
        s.sync()
        #expect(s.log(without: .failed) == ["t recognized", "p began", "p ended"])
    }
}

@Suite("swipes as lisgd users know them")
struct PhoneSwipeTests {
    @Test(arguments: [
        (mm(1, 0), "right"), (mm(0.7071, 0.7071), "down_right"), (mm(0, 1), "down"), (mm(-0.7071, 0.7071), "down_left"),
        (mm(-1, 0), "left"), (mm(-0.7071, -0.7071), "up_left"), (mm(0, -1), "up"), (mm(0.7071, -0.7071), "up_right"),
    ])
    func theEightDirections(direction: Point, name: String) {
        let s = Scenario(swipe())
        s.stroke(fling(from: mm(100, 50), direction: direction, speed: 400, frames: 10), frameMS: 8)
        guard case .swipe(let got, _, _)? = s.events.first?.detail else {
            Issue.record("no swipe: \(s.log)")
            return
        }
        #expect(got.rawValue == name)
    }

    @Test func withOnlyTheFourTheNearestOfThoseIsTaken() {
        let s = Scenario(
            swipe {
                $0.directions = [.left, .right, .up, .down]
                $0.maxAngleDegrees = 30
            })
        // 25° below the horizontal: with four directions, that is right.
        s.stroke(fling(from: mm(100, 50), direction: mm(0.9063, 0.4226), speed: 400, frames: 10), frameMS: 8)
        guard case .swipe(let got, _, _)? = s.events.first?.detail else {
            Issue.record("no swipe: \(s.log)")
            return
        }
        #expect(got == .right)
        // With the diagonals it is nearer down_right (20° off) than right (25° off).
        let eight = Scenario(swipe())
        eight.stroke(fling(from: mm(100, 50), direction: mm(0.9063, 0.4226), speed: 400, frames: 10), frameMS: 8)
        guard case .swipe(let nearest, _, _)? = eight.events.first?.detail else {
            Issue.record("no swipe: \(eight.log)")
            return
        }
        #expect(nearest == .downRight)
    }

    @Test func minLengthIsAShareOfTheScreenAlongTheMotion() {
        // 200 × 100 mm: 60 mm to the right is 0.30 of the width, 40 mm down 0.40 of the height.
        let s = Scenario(swipe { $0.minLength = 0.33 })
        s.stroke(line(mm(50, 50), mm(110, 50), count: 10), frameMS: 8)
        s.stroke(line(mm(100, 20), mm(100, 60), count: 10), frameMS: 8)
        #expect(s.log == ["s failed", "s recognized"])
        #expect(s.events[0].reason == "travelled 0.30 of the screen < 0.33")
        // A diagonal is measured against the diagonal (223.6 mm): 0.66 of it is 147.6 mm.
        let d = Scenario(swipe { $0.minLength = 0.66 })
        d.stroke(line(mm(10, 10), mm(90, 90), count: 10), frameMS: 8)  // 113 mm
        #expect(d.log == ["s failed"])
    }

    @Test func aLongSwipeTakingOverASecondIsStillASwipe() {
        // 180 mm in 1.08 s, straight and still moving at the lift.
        let s = Scenario(swipe())
        s.stroke(line(mm(10, 50), mm(190, 52), count: 90), frameMS: 12)
        #expect(s.log == ["s recognized"])
    }

    @Test func aFingerThatStoppedBeforeLiftingDidNotSwipe() {
        let s = Scenario(swipe())
        s.stroke(
            line(mm(50, 50), mm(120, 50), count: 10) + Array(repeating: mm(120, 50.2), count: 1), frameMS: 8,
            lift: false)
        s.move(0, to: mm(120, 50.4))
        s.sync(after: 300)
        s.up(0)
        s.sync(after: 8)
        #expect(s.log == ["s failed"])
        #expect(s.events[0].reason?.hasPrefix("slowed to") == true, "\(s.events[0].reason ?? "")")
    }

    @Test func aStrokeThatDoublesBackIsNotStraight() {
        let s = Scenario(swipe())
        s.stroke(line(mm(50, 50), mm(110, 50), count: 10) + line(mm(110, 50), mm(80, 50), count: 5), frameMS: 8)
        #expect(s.log == ["s failed"])
        #expect(s.events[0].reason == "not straight: straightness 0.33 < 0.75")
    }

    @Test func anyFingerCount() {
        let s = Scenario(swipe { $0.fingers = 3 })
        for f in 0..<3 { s.down(f, at: mm(60 + Double(f) * 15, 40)) }
        s.sync()
        for i in 1...10 {
            for f in 0..<3 { s.move(f, to: mm(60 + Double(f) * 15, 40 + Double(i) * 4)) }
            s.sync(after: 8)
        }
        for f in 0..<3 { s.up(f) }
        s.sync(after: 8)
        #expect(s.log == ["s recognized"])
        #expect(s.events.first?.fingers == 3)
    }
}

@Suite("sliders")
struct SliderTests {
    @Test func stepsFollowTheFingerAlongTheEdge() {
        let s = Scenario(slider())
        s.down(0, at: mm(2, 30))
        s.sync()
        for y in stride(from: 31.0, through: 53, by: 1) {
            s.move(0, to: mm(2.5, y))
            s.sync(after: 8)
        }  // 23 mm down
        for y in stride(from: 52.0, through: 39, by: -1) {
            s.move(0, to: mm(2.5, y))
            s.sync(after: 8)
        }  // 14 mm back up
        s.up(0)
        s.sync(after: 8)
        #expect(s.log == ["slider began"] + Array(repeating: "slider changed", count: 3 + 2) + ["slider ended"])
        #expect(s.events.map(\.step) == [1, 1, 1, 1, -1, -1, nil])
        #expect(s.events[0].json.contains("\"step\":1"))
        #expect(s.events[0].edge == .left)
    }

    @Test func aFingerRestingOnAStepDoesNotChatter() {
        let s = Scenario(slider())
        s.down(0, at: mm(2, 30))
        s.sync()
        s.move(0, to: mm(2, 35.2))
        s.sync(after: 8)
        for i in 0..<20 {
            s.move(0, to: mm(2, i % 2 == 0 ? 34.6 : 35.4))
            s.sync(after: 8)
        }
        s.up(0)
        s.sync(after: 8)
        #expect(s.log == ["slider began", "slider ended"])
    }

    @Test func aMotionAcrossTheAxisFirstFailsTheSlider() {
        let s = Scenario(slider(), swipe("swipe"))
        s.stroke(fling(from: mm(2, 50), direction: mm(1, 0), speed: 400, frames: 10), frameMS: 8)
        #expect(s.log == ["slider failed", "swipe recognized"])
        #expect(s.events[0].reason == "moved 6.4 mm across its y axis before a 5.0 mm step along it")
    }

    @Test func aSliderAlongTheBottomEdgeStepsAlongX() {
        let s = Scenario(slider(edge: .bottom, axis: .x))
        s.stroke(line(mm(100, 98), mm(88, 98), count: 12), frameMS: 8)
        #expect(s.events.compactMap(\.step) == [-1, -1])
    }
}

@Suite("edges: what tracing a fast start back must not do")
struct EdgeTraceBackTests {
    @Test func theRangeIsJudgedWhereTheFingerLandedNotWhereItWasTracedBackTo() {
        // The lower 70 % of the left edge; landing at 33 % and sliding down fast:
        // traced back, the start would lie above 30 %.
        var r = RecognizerConfig(
            name: "slider",
            parameters: .pan(
                {
                    var p = PanRecognizer.Parameters()
                    p.stepMM = 5
                    return p
                }()))
        r.filter.edge = EdgeFilter(edge: .left, range: 0.3...1.0)
        let s = Scenario(r)
        s.stroke(fling(from: mm(2, 33), direction: mm(0, 1), speed: 500, frames: 8), frameMS: 8)
        #expect(s.log.first == "slider began")
        #expect(s.first("slider", .failed) == nil)
    }

    @Test func aFingerLandingAtTheEdgeStartsThereWhateverItsFirstMotion() {
        // Lands 3.8 mm in and creeps 1.2 mm towards the edge in 10 ms.
        var tap = RecognizerConfig(name: "t", parameters: tapConfig())
        tap.filter.edge = EdgeFilter(edge: .left)
        let s = Scenario(tap)
        s.down(0, at: mm(3.8, 50))
        s.sync()
        s.move(0, to: mm(2.6, 50))
        s.sync(after: 10)
        s.up(0)
        s.sync(after: 40)
        #expect(s.log == ["t recognized"])
    }

    @Test func reportsMicrosecondsApartAreNoFastStart() {
        // 1 mm of jitter 0.2 ms after landing, 7 mm in, then a slow drag inwards (25 mm/s).
        let s = Scenario(swipe(edge: .left) { $0.minSpeedMMPerS = 0 })
        s.down(0, at: mm(7, 50))
        s.sync()
        s.move(0, to: mm(8, 50))
        s.sync(after: 0.2)
        for i in 1...40 {
            s.move(0, to: mm(8 + Double(i) * 0.5, 50))
            s.sync(after: 20)
        }
        s.up(0)
        s.sync(after: 20)
        #expect(s.log == ["s failed"])
    }
}

@Suite("a multi-tap that sits a sequence out")
struct MultiTapSitsOutTests {
    @Test func aTapWaitingForADoubleTapAtTheEdgeIsNotHeldByIt() {
        // double_tap takes only touches at the top edge; tap waits for it to fail.
        var double = RecognizerConfig(name: "double_tap", parameters: tapConfig(taps: 2))
        double.filter.edge = EdgeFilter(edge: .top)
        let tap = recognizer("tap", tapConfig(), requires: ["double_tap"])
        let s = Scenario(double, tap)
        s.tap(at: mm(100, 2))  // at the top: double_tap starts counting
        s.advance(ms: 100)
        s.tap(at: mm(100, 50))  // in the middle, inside the window: double_tap sits it out
        s.advance(ms: 1000)
        let taps = s.events.filter { $0.name == "tap" && $0.state == .recognized }
        #expect(taps.count == 2)
        // Each reported once double_tap's window closed, not at some later touch.
        #expect(taps.allSatisfy { $0.time.seconds < 1.7 }, "\(taps.map(\.time))")
    }
}
