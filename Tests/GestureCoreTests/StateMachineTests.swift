import Testing

@testable import GestureCore

/// The recognizers' common shape: one input per frame, one dispatcher, a trace
/// that costs nothing when nobody asks, and bugs that are said, not swallowed.
@Suite("recognizer state machines")
struct StateMachineTests {
    func frame(_ phases: TouchPhase...) -> TouchFrame {
        TouchFrame(
            time: .zero, device: "d",
            touches: phases.enumerated().map { i, p in
                Touch(
                    id: TouchID(raw: UInt64(i)), slot: i, trackingID: Int32(i), phase: p, position: .zero,
                    normalised: .zero, startTime: .zero, startPosition: .zero)
            }, areaMM: Point(x: 100, y: 100))
    }

    @Test func eachFrameIsOneInput() {
        #expect(
            TouchInput(frame(.began), maxFingersBefore: 0)
                == TouchInput(change: .down, fingers: 1, maxFingers: 1, landed: true))
        #expect(TouchInput(frame(.moved, .stationary), maxFingersBefore: 3).description == "move(2)")
        #expect(TouchInput(frame(.moved, .stationary), maxFingersBefore: 3).maxFingers == 3)
        // One lifting while another lands: a lift in which a finger landed.
        let swap = TouchInput(frame(.ended, .began), maxFingersBefore: 1)
        #expect(swap.change == .lift && swap.landed && swap.fingers == 1)
        #expect(TouchInput(frame(.cancelled, .moved), maxFingersBefore: 2).change == .cancel)
        #expect(TouchInput(frame(.ended), maxFingersBefore: 1).isLast)
    }

    @Test func theTraceSaysOldEventNewAndWhy() {
        let s = Scenario(recognizer("tap", tapConfig()), recognizer("pan", .pan(.init())))
        s.down(0, at: mm(50, 50))
        s.sync()
        s.move(0, to: mm(58, 50))
        s.sync()
        s.up(0)
        s.sync()
        #expect(
            s.trace == [
                "tap: idle → down(1) → touching(tap 1)",
                "pan: idle → down(1) → tracking",
                "tap: touching(tap 1) → move(1) → done (moved 8.0 mm > 5.0 mm)",
                "tap: failed (moved 8.0 mm > 5.0 mm)",
                "pan: tracking → move(1) → panning: proposes to begin",
                "pan: began",
                "pan: panning → lift(0) → done: proposes to end",
                "pan: ended",
            ], "\(s.trace)")
        #expect(s.log(without: .changed) == ["tap failed", "pan began", "pan ended"])
    }

    @Test func onlyTheRecognizersAskedForAreTracedAndNoneWithoutALog() {
        let spied = Spy(), other = Spy()
        let arena = Arena(device: "d")
        arena.add(name: "spied", recognizer: spied)
        arena.add(name: "other", recognizer: other)
        var events: [GestureEvent] = []
        arena.handle(frame(.began), into: &events)
        #expect(spied.described == 0 && other.described == 0, "no log: no state put into words")
        var lines: [String] = []
        arena.log = ArenaLog(tracing: ["spied"]) { lines.append($0.text) }
        arena.handle(frame(.moved), into: &events)
        #expect(spied.described == 2 && other.described == 0)
        #expect(lines.isEmpty, "nothing changed, nothing proposed: no line")
        spied.next = .recognize(Report(detail: .tap(taps: 1), fingers: 1, location: .zero, locationNormalised: .zero))
        arena.handle(frame(.ended), into: &events)
        #expect(lines == ["spied: quiet → lift(0) → quiet: proposes to be recognized", "spied: recognized"])
        #expect(other.described == 0)
        #expect(spied.events.count == 3 && other.events.count == 2, "both saw every frame until one won")
        #expect(events.map { "\($0.name) \($0.state.rawValue)" } == ["spied recognized", "other failed"])
    }

    @Test func aProposalItsStateForbidsIsABugThatIsLoggedNotEmitted() {
        let spy = Spy()
        spy.next = .change(Report(detail: .none, fingers: 1, location: .zero, locationNormalised: .zero))
        let arena = Arena(device: "d")
        arena.add(name: "confused", recognizer: spy)
        var bugs: [String] = []
        arena.log = ArenaLog(tracing: []) { if $0.kind == .bug { bugs.append($0.text) } }
        var events: [GestureEvent] = []
        arena.handle(frame(.began), into: &events)
        #expect(events.isEmpty)
        #expect(arena.bugs == 1)
        #expect(bugs == ["confused (tap) proposed change while possible; dropped"])
        // It is still possible: a real proposal afterwards counts.
        spy.next = .recognize(Report(detail: .tap(taps: 1), fingers: 1, location: .zero, locationNormalised: .zero))
        arena.handle(frame(.ended), into: &events)
        #expect(events.map(\.state) == [.recognized])
    }

    @Test func aBugOnEveryFrameIsLoggedAFewTimesAndCountedAlways() {
        let spy = Spy()
        spy.next = .end(Report(detail: .none, fingers: 1, location: .zero, locationNormalised: .zero))
        let arena = Arena(device: "d")
        arena.add(name: "confused", recognizer: spy)
        var logged = 0
        arena.log = ArenaLog(tracing: []) { if $0.kind == .bug { logged += 1 } }
        var events: [GestureEvent] = []
        arena.handle(frame(.began), into: &events)
        for _ in 0..<100 { arena.handle(frame(.moved), into: &events) }
        #expect(arena.bugs == 101)
        #expect(logged == Arena.bugsLogged)
        #expect(events.isEmpty)
    }

    @Test func theSharedRulesComeBeforeTheRecognizer() {
        let spy = Spy()
        let arena = Arena(device: "d")
        arena.add(name: "one", recognizer: spy)
        var events: [GestureEvent] = []
        arena.handle(frame(.began, .began), into: &events)
        #expect(spy.events.isEmpty, "two fingers for a one-finger recognizer: it is not even asked")
        #expect(events.map(\.cause) == [.fingers(2, allowed: 1...1, kind: .tap)])
        #expect(events.first?.reason == "2 fingers > 1")
        var lines: [String] = []
        arena.log = ArenaLog(tracing: ["all"]) { lines.append($0.text) }
        arena.handle(frame(.ended, .ended), into: &events)
        arena.handle(frame(.began, .began, .began), into: &events)
        #expect(lines == ["one: quiet → down(3) → failed (3 fingers > 1)"], "the rule's line, once")
    }
}

/// A recognizer that proposes what it is told and counts what it is asked.
final class Spy: Recognizer {
    let kind = GestureKind.tap
    let fingers: ClosedRange<Int> = 1...1
    var next = Proposal.none
    var events: [RecognizerEvent] = []
    var described = 0
    func handle(_ event: RecognizerEvent, _ frame: borrowing TouchFrame) -> Proposal {
        events.append(event)
        return next
    }
    func reset() {}
    var stateDescription: String {
        described += 1
        return "quiet"
    }
}

@Suite("pan fingers and velocity")
struct PanFingersAndVelocityTests {
    @Test func aFourFingerDragSaysFourFingersUntilItEnds() {
        let s = Scenario(recognizer("pan", .pan(.init())))
        for f in 0..<4 { s.down(f, at: mm(40 + Double(f) * 15, 30)) }
        s.sync()
        for step in 1...6 {
            for f in 0..<4 { s.move(f, to: mm(40 + Double(f) * 15, 30 + Double(step) * 4)) }
            s.sync()
        }
        // The fingers lift one by one, as hands do.
        for f in 0..<4 {
            s.up(f)
            s.sync(after: 15)
        }
        #expect(s.log.first == "pan began" && s.log.last == "pan ended")
        #expect(
            s.events.map(\.fingers).allSatisfy { $0 == 4 }, "\(s.events.map { "\($0.state.rawValue) \($0.fingers)" })")
    }

    @Test func reportsMicrosecondsApartDoNotReadAsMillionsOfMMPerSecond() {
        let s = Scenario(recognizer("pan", .pan(.init())))
        s.down(0, at: mm(50, 50))
        s.sync()
        // The second report comes 100 µs after the first, 6 mm on.
        s.move(0, to: mm(56, 50))
        s.sync(after: 0.1)
        guard case .pan(_, let v)? = s.first("pan", .began)?.detail else {
            Issue.record("no pan")
            return
        }
        // Divided by the 10 ms minimum span, not by 0.1 ms (60,000 mm/s).
        #expect(abs(v.x - 600) < 1e-6, "\(v)")
        // Later frames at a normal rate give the real speed: 2 mm per 10 ms.
        for k in 1...10 {
            s.move(0, to: mm(56 + Double(k) * 2, 50))
            s.sync(after: 10)
        }
        guard case .pan(_, let later)? = s.events.last?.detail else {
            Issue.record("no change")
            return
        }
        #expect(abs(later.x - 200) < 5, "\(later)")
    }
}

/// A left curly brace drawn quickly zigzags left and right on its way down:
/// strokes across, each no steeper than a tickle's may be, but all going down.
/// Seeded, so the same strokes every run.
@Suite("tickle and the curly brace")
struct CurlyBraceTests {

    /// Five strokes across, first to the left, 100 Hz: the left ones drop
    /// `steep` of their width, the right ones `shallow` (fractions drawn per stroke).
    static func zigzag(_ g: inout SplitMix64, steep: ClosedRange<Double>, shallow: ClosedRange<Double>) -> [Point] {
        var p = mm(110 + g.uniform(-5...5), 20 + g.uniform(-5...5))
        var points = [p]
        var direction = -1.0
        for stroke in 0..<5 {
            let width = g.uniform(7...10)
            let drop =
                width
                * (stroke % 2 == 0
                    ? g.uniform(steep.lowerBound...steep.upperBound)
                    : g.uniform(shallow.lowerBound...shallow.upperBound))
            let steps = Int(g.uniform(7...12))  // 70–120 ms a stroke: fast
            let start = p
            for k in 1...steps {
                let f = (1 - cos(Double.pi * Double(k) / Double(steps))) / 2
                p = mm(start.x + direction * width * f + g.uniform(-0.05...0.05), start.y + drop * f)
                points.append(p)
            }
            direction = -direction
        }
        return points
    }

    @Test func aFastCurlyBraceIsNoTickle() {
        var g = SplitMix64(seed: 20_261_123)
        for n in 0..<20 {
            let s = Scenario(recognizer("tickle", .tickle(.init())))
            s.stroke(Self.zigzag(&g, steep: 0.45...0.55, shallow: 0.2...0.35), frameMS: 10)
            #expect(s.log == ["tickle failed"], "brace \(n): \(s.events.map { $0.reason ?? "" })")
            guard case .tickle(.drifted(let vertical, let horizontal, _))? = s.events.first?.cause else {
                Issue.record("brace \(n): \(s.events.first?.reason ?? "no event")")
                continue
            }
            #expect(vertical > 0.3 * horizontal)
        }
    }

    @Test func scrubbingThatCreepsALittleIsStillATickle() {
        var g = SplitMix64(seed: 20_261_123)
        for n in 0..<20 {
            let s = Scenario(recognizer("tickle", .tickle(.init())))
            s.stroke(Self.zigzag(&g, steep: 0.1...0.2, shallow: 0.1...0.2), frameMS: 10, lift: false)
            #expect(s.log == ["tickle recognized"], "scrub \(n): \(s.events.map { $0.reason ?? "" })")
        }
    }
}
