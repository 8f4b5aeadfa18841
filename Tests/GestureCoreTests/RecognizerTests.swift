import Testing

@testable import GestureCore

@Suite("tap")
struct TapTests {
    @Test func aQuickStillTouchIsATap() {
        let s = Scenario(recognizer("tap", tapConfig()))
        s.tap(at: mm(50, 50))
        #expect(s.log == ["tap recognized"])
        let e = s.events[0]
        #expect(e.detail == .tap(taps: 1))
        #expect(e.fingers == 1)
        #expect(e.location == mm(50, 50))
        #expect(e.kind == .tap)
    }

    @Test func movingTooFarFailsAtOnceWithTheDistance() {
        let s = Scenario(recognizer("tap", tapConfig()))
        s.down(0, at: mm(50, 50))
        s.sync()
        s.move(0, to: mm(56, 50))
        s.sync()
        #expect(s.log == ["tap failed"])
        #expect(s.events[0].reason == "moved 6.0 mm > 5.0 mm")
    }

    @Test func holdingTooLongFailsWhenTheTimerFires() {
        let s = Scenario(recognizer("tap", tapConfig()))
        s.down(0, at: mm(50, 50))
        s.sync()
        #expect(s.arena.nextDeadline == s.now + Millis(350))
        s.advance(ms: 349)
        #expect(s.events.isEmpty)
        s.advance(ms: 2)
        #expect(s.log == ["tap failed"])
        #expect(s.events[0].reason == "held longer than 350 ms")
        s.up(0)
        s.sync()
        #expect(s.log == ["tap failed"], "nothing more once failed")
    }

    @Test func twoFingerTapNeedsBothFingers() {
        let s = Scenario(recognizer("two", tapConfig(fingers: 2)))
        s.down(0, at: mm(50, 50))
        s.sync()
        s.down(1, at: mm(70, 50))
        s.sync(after: 20)
        s.up(0)
        s.sync(after: 50)
        s.up(1)
        s.sync(after: 10)
        #expect(s.log == ["two recognized"])
        #expect(s.events[0].fingers == 2)
        #expect(s.events[0].location == mm(60, 50))

        s.tap(at: mm(50, 50))
        #expect(s.log == ["two recognized", "two failed"])
        #expect(s.events[1].reason == "1 finger < 2")
    }

    @Test func doubleTapCountsAcrossSequencesWithinItsWindow() {
        let s = Scenario(recognizer("double", tapConfig(taps: 2)))
        s.tap(at: mm(50, 50))
        #expect(s.events.isEmpty, "still waiting for the second tap")
        s.advance(ms: 150)
        s.tap(at: mm(52, 51))
        #expect(s.log == ["double recognized"])
        #expect(s.events[0].detail == .tap(taps: 2))
    }

    @Test func doubleTapFailsWhenTheWindowCloses() {
        let s = Scenario(recognizer("double", tapConfig(taps: 2)))
        s.tap(at: mm(50, 50))
        let lift = s.now
        s.advance(ms: 400)
        #expect(s.log == ["double failed"])
        #expect(s.events[0].time == lift + Millis(300))
        #expect(s.events[0].reason == "1 of 2 taps: no next tap within 300 ms")
    }

    @Test func doubleTapFailsWhenTheSecondTapLandsElsewhere() {
        let s = Scenario(recognizer("double", tapConfig(taps: 2)))
        s.tap(at: mm(50, 50))
        s.advance(ms: 100)
        s.tap(at: mm(90, 50))
        #expect(s.log == ["double failed"])
        #expect(s.events[0].reason == "tap 2 landed 40.0 mm from tap 1 > 12.0 mm")
    }
}

@Suite("pan")
struct PanTests {
    @Test func beginsPastTheThresholdChangesAndEnds() {
        let s = Scenario(recognizer("pan", .pan(.init())))
        s.down(0, at: mm(50, 50))
        s.sync()
        s.move(0, to: mm(53, 50))
        s.sync()
        #expect(s.events.isEmpty, "3 mm is below the 5 mm threshold")
        s.move(0, to: mm(56, 50))
        s.sync()
        s.move(0, to: mm(66, 50))
        s.sync(after: 10)
        s.up(0)
        s.sync()
        #expect(s.log == ["pan began", "pan changed", "pan ended"])
        guard case .pan(let t0, let v0)? = s.first("pan", .began)?.detail else {
            Issue.record("no began")
            return
        }
        #expect(t0.distance(to: mm(6, 0)) < 1e-9)
        #expect(abs(v0.x - 300) < 0.001 && v0.y == 0, "6 mm in the 20 ms since the touch began")
        guard case .pan(let t, let v)? = s.first("pan", .changed)?.detail else {
            Issue.record("no changed")
            return
        }
        #expect(t == mm(16, 0))
        #expect(v.x > 500, "about 1000 mm/s over the last frames")
    }

    @Test func aStillTouchFailsWithTheDistanceItMoved() {
        let s = Scenario(recognizer("pan", .pan(.init())))
        s.tap(at: mm(10, 10))
        #expect(s.log == ["pan failed"])
        #expect(s.events[0].reason == "lifted after 0.0 mm < 5.0 mm")
    }

    @Test func aFingerLandingMidPanDoesNotMakeTheTranslationJump() {
        let s = Scenario(recognizer("pan", .pan(.init())))
        s.down(0, at: mm(50, 50))
        s.sync()
        s.move(0, to: mm(60, 50))
        s.sync()
        s.down(1, at: mm(100, 50))
        s.sync()  // centroid jumps 20 mm; translation must not
        s.move(0, to: mm(62, 50))
        s.move(1, to: mm(102, 50))
        s.sync()
        let translations = s.events.compactMap { e -> Double? in
            if case .pan(let t, _) = e.detail { return t.x } else { return nil }
        }
        #expect(translations == [10, 10, 12])
        #expect(s.events.last?.fingers == 2)
    }

    @Test func aCancelledTouchCancelsThePan() {
        let s = Scenario(recognizer("pan", .pan(.init())))
        s.down(0, at: mm(50, 50))
        s.sync()
        s.move(0, to: mm(70, 50))
        s.sync()
        s.palm(0)
        s.sync()
        #expect(s.log == ["pan began", "pan cancelled"])
        #expect(s.events[1].reason == "palm")
        #expect(s.events[1].cause == .palm)
    }

    @Test func tooManyFingersFail() {
        var p = PanRecognizer.Parameters()
        p.maxFingers = 2
        let s = Scenario(recognizer("pan", .pan(p)))
        for i in 0..<3 { s.down(i, at: mm(Double(20 + 10 * i), 50)) }
        s.sync()
        #expect(s.log == ["pan failed"])
        #expect(s.events[0].reason == "3 fingers > max 2")
    }
}

@Suite("circle")
struct CircleTests {
    func run(_ points: [Point], _ p: CircleRecognizer.Parameters = .init()) -> Scenario {
        let s = Scenario(recognizer("circle", .circle(p)))
        s.stroke(points)
        return s
    }

    @Test(arguments: [true, false])
    func aDrawnCircleIsRecognizedEitherWayRound(clockwise: Bool) {
        let s = run(circlePoints(radius: 20, turns: 1.0, clockwise: clockwise, wobble: 1.0))
        #expect(s.log == ["circle recognized"])
        guard case .circle(let c, let r, let err, let cw, let swept)? = s.events.first?.detail else {
            Issue.record("no circle detail")
            return
        }
        #expect(c.distance(to: mm(100, 50)) < 1)
        #expect(abs(r - 20) < 1)
        #expect(err < 0.1)
        #expect(cw == clockwise)
        #expect(abs(swept - 360) < 10)
        #expect(s.events[0].location == c, "a circle is located at its centre")
    }

    @Test func aHalfCircleFailsOnTheAngleItSwept() {
        let s = run(circlePoints(turns: 0.5))
        #expect(s.log == ["circle failed"])
        #expect(s.events[0].reason?.hasPrefix("swept 180°") == true, "\(s.events[0].reason ?? "")")
    }

    @Test func aStraightLineIsNoCircle() {
        let s = run(line(mm(10, 10), mm(80, 10), count: 30))
        #expect(s.log == ["circle failed"])
    }

    @Test func aTinyCircleFailsOnRadius() {
        let s = run(circlePoints(radius: 3, count: 40))
        #expect(s.log == ["circle failed"])
        #expect(s.events[0].reason == "radius 3.0 mm < 6.0 mm")
    }

    @Test func aFigureEightFails() {
        // Two loops touching at the centre: points pass through the inner box.
        let top = circlePoints(center: mm(100, 40), radius: 10, count: 30, start: .pi / 2)
        let bottom = circlePoints(center: mm(100, 60), radius: 10, count: 30, start: -.pi / 2, clockwise: false)
        let s = run(top + bottom)
        #expect(s.log == ["circle failed"])
    }

    @Test func aSpiralFails() {
        let spiral = (0...80).map { i -> Point in
            let a = 4 * Double.pi * Double(i) / 80
            let r = 5 + 20 * Double(i) / 80
            return mm(100 + r * cos(a), 50 + r * sin(a))
        }
        let s = run(spiral)
        #expect(s.log == ["circle failed"])
    }

    @Test func twoFingersFailAtOnce() {
        let s = Scenario(recognizer("circle", .circle(.init())))
        s.down(0, at: mm(10, 10))
        s.down(1, at: mm(30, 10))
        s.sync()
        #expect(s.log == ["circle failed"])
        #expect(s.events[0].reason == "2 fingers; a circle is drawn with one")
    }
}

@Suite("checkmark")
struct CheckmarkTests {
    func run(_ points: [Point]) -> Scenario {
        let s = Scenario(recognizer("check", .checkmark(.init())))
        s.stroke(points)
        return s
    }

    @Test func shortDownRightThenLongUpRightIsACheckmark() {
        let s = run(line(mm(50, 50), mm(60, 62), count: 8) + line(mm(60, 62), mm(85, 30), count: 16).dropFirst())
        #expect(s.log == ["check recognized"])
        guard case .checkmark(let v)? = s.events.first?.detail else {
            Issue.record("no vertex")
            return
        }
        #expect(v.distance(to: mm(60, 62)) < 1.5)
    }

    @Test func jitterAndBacktrackingDoNotBreakIt() {
        var pts = line(mm(50, 50), mm(60, 62), count: 10) + line(mm(60, 62), mm(85, 30), count: 20).dropFirst()
        for i in pts.indices {
            pts[i].x += (i % 2 == 0 ? 0.4 : -0.4)
            pts[i].y += (i % 3 == 0 ? 0.3 : -0.2)
        }
        pts.insert(mm(58.5, 59.5), at: 9)  // a step backwards just before the vertex
        let s = run(pts)
        #expect(s.log == ["check recognized"])
    }

    @Test func aSymmetricVIsNotACheckmark() {
        let s = run(line(mm(50, 30), mm(65, 60), count: 10) + line(mm(65, 60), mm(80, 30), count: 10).dropFirst())
        #expect(s.log == ["check failed"])
        #expect(s.events[0].reason?.hasPrefix("second arm 1.0") == true, "\(s.events[0].reason ?? "")")
    }

    @Test func aCaretFails() {
        let s = run(line(mm(50, 60), mm(65, 30), count: 10) + line(mm(65, 30), mm(80, 60), count: 10).dropFirst())
        #expect(s.log == ["check failed"])
    }
}

@Suite("tickle")
struct TickleTests {
    /// Scrubbing left-right `strokes` times over `amplitude` mm, `strokeMS` per stroke.
    func scrub(strokes: Int, amplitude: Double = 15, strokeMS: Double = 120, drift: Double = 0) -> [Point] {
        var pts: [Point] = [mm(100, 50)]
        let stepsPerStroke = 8
        for k in 0..<strokes {
            let dir = k % 2 == 0 ? 1.0 : -1.0
            for i in 1...stepsPerStroke {
                let last = pts.last!
                pts.append(
                    mm(last.x + dir * amplitude / Double(stepsPerStroke), last.y + drift / Double(stepsPerStroke)))
                _ = i
            }
        }
        _ = strokeMS
        return pts
    }

    @Test func fastScrubbingIsRecognizedAtTheFourthReversal() {
        let s = Scenario(recognizer("tickle", .tickle(.init())))
        s.stroke(scrub(strokes: 6), frameMS: 15, lift: false)
        #expect(s.log == ["tickle recognized"])
        #expect(s.events[0].detail == .tickle(reversals: 4))
    }

    @Test func slowScrubbingFailsAsTooSlow() {
        let s = Scenario(recognizer("tickle", .tickle(.init())))
        s.stroke(scrub(strokes: 6), frameMS: 60)
        #expect(s.log == ["tickle failed"])
        #expect(s.events[0].reason?.hasPrefix("too slow") == true, "\(s.events[0].reason ?? "")")
    }

    @Test func verticalScrubbingFailsAsTooVertical() {
        let s = Scenario(recognizer("tickle", .tickle(.init())))
        s.stroke(scrub(strokes: 6, drift: 14), frameMS: 15)
        #expect(s.log == ["tickle failed"])
        #expect(s.events[0].reason?.hasPrefix("too vertical") == true, "\(s.events[0].reason ?? "")")
    }

    @Test func liftingEarlyFailsWithTheCount() {
        let s = Scenario(recognizer("tickle", .tickle(.init())))
        s.stroke(scrub(strokes: 3), frameMS: 15)
        #expect(s.log == ["tickle failed"])
        #expect(s.events[0].reason == "2 reversals < 4")
    }
}
