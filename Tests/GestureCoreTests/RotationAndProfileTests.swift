import Testing

@testable import GestureCore

/// Live rotation (the decoder turns from the next touch sequence on) and runtime
/// profiles (the arena decides who takes part when a sequence starts).
@Suite("rotation and profiles at runtime")
struct RotationAndProfileTests {
    /// A swipe's direction and where it started, as reported.
    func swipe(_ s: Scenario, _ i: Int = 0) -> (direction: String, location: Point, normalised: Point)? {
        let swipes = s.events.filter { $0.state == .recognized }
        guard i < swipes.count, case .swipe(let dir, _, _) = swipes[i].detail else { return nil }
        return (dir.rawValue, swipes[i].location, swipes[i].locationNormalised)
    }

    func close(_ a: Point, _ b: Point) -> Bool { a.distance(to: b) < 1e-9 }

    // The test panel is 200 × 100 mm. Rotated 90° clockwise it is 100 × 200 mm as
    // seen, and a point (x, y) of the panel is seen at (100 - y, x): a finger
    // moving right along the panel is seen moving down.

    @Test func aRotationAppliesToTheNextSequence() throws {
        let s = Scenario(recognizer("swipe", .swipe(.init())))
        s.decoder.rotate(to: .cw90)
        s.stroke(line(mm(50, 30), mm(90, 30)), frameMS: 10)
        let r = try #require(swipe(s))
        #expect(r.direction == "down")
        #expect(close(r.location, mm(70, 50)))
        #expect(close(r.normalised, Point(x: 0.7, y: 0.25)))
        #expect(s.frames.last?.areaMM == mm(100, 200))
    }

    @Test func aRotationAskedForMidSequenceWaitsForTheLastLift() throws {
        let s = Scenario(recognizer("swipe", .swipe(.init())))
        let points = line(mm(50, 30), mm(90, 30))
        s.down(0, at: points[0])
        s.sync()
        s.move(0, to: points[1])
        s.sync(after: 10)
        s.decoder.rotate(to: .cw270)
        #expect(s.decoder.rotation == .cw270, "what the next sequence will be read with")
        #expect(s.decoder.geometry.rotation == .none, "not while a finger is down")
        for p in points.dropFirst(2) {
            s.move(0, to: p)
            s.sync(after: 10)
        }
        s.up(0)
        s.sync(after: 10)
        let first = try #require(swipe(s))
        #expect(first.direction == "right", "the swipe in flight keeps the orientation it began with")
        #expect(close(first.location, mm(50, 30)))
        #expect(s.frames.last?.areaMM == mm(200, 100))
        // Rotated 270°, a point (x, y) of the panel is seen at (y, 200 - x).
        s.stroke(points, frameMS: 10)
        let second = try #require(swipe(s, 1))
        #expect(second.direction == "up")
        #expect(close(second.location, mm(30, 150)))
        #expect(s.decoder.geometry.rotation == .cw270)
    }

    @Test func twoFingersKeepTheOrientationUntilBothLift() throws {
        var p = SwipeRecognizer.Parameters()
        p.fingers = 2
        let s = Scenario(recognizer("two", .swipe(p)))
        s.down(0, at: mm(50, 30))
        s.down(1, at: mm(50, 40))
        s.sync()
        s.decoder.rotate(to: .cw180)
        for i in 1...8 {
            s.move(0, to: mm(50 + Double(i) * 5, 30))
            s.move(1, to: mm(50 + Double(i) * 5, 40))
            s.sync(after: 10)
        }
        s.up(0)
        s.sync(after: 10)
        #expect(s.decoder.geometry.rotation == .none, "one finger is still down")
        s.up(1)
        s.sync(after: 10)
        #expect(try #require(swipe(s)).direction == "right")
        s.down(0, at: mm(50, 30))
        s.sync()
        #expect(s.decoder.geometry.rotation == .cw180)
    }

    // MARK: profiles

    func tagged(_ name: String, _ profiles: [String]) -> RecognizerConfig {
        var r = recognizer(name, tapConfig())
        r.filter.profiles = profiles
        return r
    }

    @Test func onlyRecognizersOfTheActiveProfileTakePart() {
        let s = Scenario(
            tagged("home", ["default"]), tagged("locked_tap", ["locked"]), tagged("both", ["default", "locked"]))
        s.tap(at: mm(50, 50))
        // The first recognized excludes the others still deciding (config order).
        #expect(s.log == ["home recognized", "both failed"], "locked_tap sits out: it does not even fail")
        s.events = []
        s.arena.profile = "locked"
        s.tap(at: mm(50, 50))
        #expect(s.log == ["locked_tap recognized", "both failed"])
    }

    @Test func pausedNobodyTakesPartAndResumingBringsTheProfileBack() {
        let s = Scenario(tagged("home", ["default"]))
        s.arena.profile = nil
        s.tap(at: mm(50, 50))
        s.advance(ms: 1000)
        #expect(s.events.isEmpty)
        #expect(s.arena.nextDeadline == nil)
        s.arena.profile = "default"
        s.tap(at: mm(50, 50))
        #expect(s.log == ["home recognized"])
    }

    @Test func aGestureInFlightWhenThePauseComesFinishes() {
        let s = Scenario(recognizer("pan", .pan(.init())))
        s.down(0, at: mm(50, 50))
        s.sync()
        s.move(0, to: mm(70, 50))
        s.sync()
        #expect(s.log == ["pan began"])
        s.arena.profile = nil
        s.move(0, to: mm(90, 50))
        s.sync()
        s.up(0)
        s.sync()
        #expect(s.log == ["pan began", "pan changed", "pan ended"])
        s.stroke(line(mm(50, 50), mm(90, 50)))
        #expect(s.log == ["pan began", "pan changed", "pan ended"], "the next sequence is paused")
    }

    @Test func anUnknownProfileLeavesEveryRecognizerOut() {
        let s = Scenario(tagged("home", ["default"]))
        s.arena.profile = "no such profile"
        s.tap(at: mm(50, 50))
        s.advance(ms: 1000)
        #expect(s.events.isEmpty)
    }
}
