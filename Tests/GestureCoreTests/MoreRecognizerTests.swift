import Testing

@testable import GestureCore

@Suite("swipe")
struct SwipeTests {
    @Test func aFastStraightFlickIsASwipeWithItsDirection() {
        let s = Scenario(recognizer("swipe", .swipe(.init())))
        s.stroke(line(mm(50, 50), mm(80, 52), count: 10), frameMS: 10)
        #expect(s.log == ["swipe recognized"])
        guard case .swipe(let dir, let t, let speed)? = s.events.first?.detail else {
            Issue.record("no detail")
            return
        }
        #expect(dir == .right)
        #expect(t.distance(to: mm(30, 2)) < 0.01)
        #expect(speed > 200)
        #expect(s.events[0].location == mm(50, 50), "a swipe is located where it started")
    }

    @Test func aSlowDragIsNoSwipe() {
        let s = Scenario(recognizer("swipe", .swipe(.init())))
        s.stroke(line(mm(50, 50), mm(50, 70), count: 10), frameMS: 70)
        #expect(s.log == ["swipe failed"])
        #expect(s.events[0].reason?.hasPrefix("speed 26 mm/s < 80 mm/s") == true, "\(s.events[0].reason ?? "")")
    }

    @Test func aDiagonalIsNoSwipe() {
        let s = Scenario(recognizer("swipe", .swipe(.init())))
        s.stroke(line(mm(50, 50), mm(70, 75), count: 5), frameMS: 10)
        #expect(s.log == ["swipe failed"])
        #expect(s.events[0].reason == "39° off down > 30°")
    }

    @Test func onlyTheConfiguredDirectionsCount() {
        var p = SwipeRecognizer.Parameters()
        p.directions = [.up]
        let s = Scenario(recognizer("swipe", .swipe(p)))
        s.stroke(line(mm(50, 50), mm(50, 20), count: 5), frameMS: 10)
        s.stroke(line(mm(50, 20), mm(50, 50), count: 5), frameMS: 10)
        #expect(s.log == ["swipe recognized", "swipe failed"])
        #expect(s.events[1].reason == "direction down not in up")
    }
}

@Suite("long press")
struct LongPressTests {
    @Test func holdingStillBeginsAfterTheDurationThenEndsAtLift() {
        let s = Scenario(recognizer("press", .longPress(.init())))
        s.down(0, at: mm(40, 40))
        s.sync()
        s.advance(ms: 499)
        #expect(s.events.isEmpty)
        s.advance(ms: 2)
        #expect(s.log == ["press began"])
        s.move(0, to: mm(45, 40))
        s.sync()
        s.up(0)
        s.sync()
        #expect(s.log == ["press began", "press changed", "press ended"])
        #expect(s.events[0].kind == .longPress)
        #expect(s.events[0].json.contains("\"kind\":\"long_press\""))
    }

    @Test func movingOrLiftingEarlyFails() {
        let s = Scenario(recognizer("press", .longPress(.init())))
        s.down(0, at: mm(40, 40))
        s.sync()
        s.move(0, to: mm(50, 40))
        s.sync()
        #expect(s.events.first?.reason == "moved 10.0 mm > 8.0 mm before 500 ms")
        s.up(0)
        s.sync()
        s.tap(at: mm(40, 40))
        #expect(s.log == ["press failed", "press failed"])
        #expect(s.events[1].reason?.hasPrefix("lifted after 60 ms") == true)
    }
}

@Suite("pinch and rotate")
struct PinchRotateTests {
    let pinch = RecognizerParameters.pinch(.init())
    let rotate = RecognizerParameters.rotate(.init())

    @Test func spreadingTwoFingersIsAPinchWithItsScale() {
        let s = Scenario(recognizer("pinch", pinch, simultaneous: ["rotate"]), recognizer("rotate", rotate))
        s.down(0, at: mm(90, 50))
        s.down(1, at: mm(110, 50))
        s.sync()
        for i in 1...5 {
            let d = 10 + Double(i) * 2
            s.move(0, to: mm(100 - d, 50))
            s.move(1, to: mm(100 + d, 50))
            s.sync()
        }
        s.up(0)
        s.up(1)
        s.sync()
        #expect(s.log(without: .changed) == ["pinch began", "pinch ended", "rotate failed"])
        guard case .pinch(let scale)? = s.events.last(where: { $0.name == "pinch" })?.detail else {
            Issue.record("no scale")
            return
        }
        #expect(abs(scale - 2.0) < 0.001)
        #expect(s.first("pinch", .began)?.location == mm(100, 50))
    }

    @Test func turningTwoFingersIsARotationInDegrees() {
        let s = Scenario(recognizer("pinch", pinch, simultaneous: ["rotate"]), recognizer("rotate", rotate))
        s.down(0, at: mm(80, 50))
        s.down(1, at: mm(120, 50))
        s.sync()
        for i in 1...9 {
            let a = Double(i) * 10 * Double.pi / 180
            s.move(0, to: mm(100 - 20 * cos(a), 50 - 20 * sin(a)))
            s.move(1, to: mm(100 + 20 * cos(a), 50 + 20 * sin(a)))
            s.sync()
        }
        s.up(0)
        s.up(1)
        s.sync()
        #expect(s.log(without: .changed) == ["rotate began", "pinch failed", "rotate ended"])
        guard case .rotate(let deg)? = s.events.last?.detail else {
            Issue.record("no rotation")
            return
        }
        #expect(abs(deg - 90) < 0.001, "clockwise on screen is positive")
    }

    @Test func oneFingerIsNeither() {
        let s = Scenario(recognizer("pinch", pinch))
        s.stroke(line(mm(10, 10), mm(40, 10)))
        #expect(s.log == ["pinch failed"])
        #expect(s.events[0].reason == "1 finger < 2: pinch takes two")
    }
}
