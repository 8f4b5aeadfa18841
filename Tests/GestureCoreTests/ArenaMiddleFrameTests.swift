import Testing

@testable import GestureCore

/// A recognizer that, like a swipe, follows the motion the arena steps and
/// decides only at the ends of its stroke, and notes every frame it is given.
private final class EndsProbe: Recognizer, FollowsMotion {
    let kind = GestureKind.swipe
    let fingers: ClosedRange<Int>
    let motion = SharedMotion()
    var decidesOnlyAtEnds: Bool { true }
    /// The frames it was given, as the trace says them ("down(1)", "lift(0)").
    private(set) var given: [String] = []
    var stateDescription: String { "watching" }

    init(fingers: ClosedRange<Int>) { self.fingers = fingers }

    func handle(_ event: RecognizerEvent, _ frame: borrowing TouchFrame) -> Proposal {
        if case .frame(let input) = event { given.append(input.description) }
        return .none
    }

    func reset() { motion.reset() }
}

/// A frame in which a finger lands or lifts in the middle of a stroke (neither
/// its first frame nor its last, no touch cancelled) goes only to the members
/// that may decide on it: not to those that decide only at the ends of a
/// stroke, unless it leaves them with more fingers than they take.
@Suite("arena: landings and lifts in the middle of a stroke")
struct ArenaMiddleFrameTests {
    /// Two fingers landing one frame apart, moving down together, lifting one
    /// frame apart.
    private func twoFingerStroke(_ s: Scenario) {
        s.down(0, at: mm(90, 20))
        s.sync()
        s.down(1, at: mm(110, 20))
        s.sync(after: 8)
        for k in 1...6 {
            s.move(0, to: mm(90, 20 + 8 * Double(k)))
            s.move(1, to: mm(110, 20 + 8 * Double(k)))
            s.sync(after: 8)
        }
        s.up(0)
        s.sync(after: 8)
        s.up(1)
        s.sync(after: 8)
    }

    @Test func theMembersThatDecideOnlyAtTheEndsAreGivenOnlyTheEnds() {
        let s = Scenario()
        let one = EndsProbe(fingers: 1...1), two = EndsProbe(fingers: 2...2), three = EndsProbe(fingers: 3...3)
        s.arena.add(name: "one", recognizer: one)
        s.arena.add(name: "two", recognizer: two)
        s.arena.add(name: "three", recognizer: three)
        twoFingerStroke(s)
        // The one-finger probe is given the landing of the second finger, and
        // the shared rules fail it for it before it sees it.
        #expect(one.given == ["down(1)"])
        #expect(s.first("one", .failed)?.cause == .fingers(2, allowed: 1...1, kind: .swipe))
        // The two-finger one sees where its stroke starts and where it ends;
        // the three-finger one only the start: at the last lift the shared
        // rules fail it for too few fingers.
        #expect(two.given == ["down(1)", "lift(0)"])
        #expect(three.given == ["down(1)"])
        #expect(s.first("three", .failed)?.cause == .fingers(2, allowed: 3...3, kind: .swipe))
        #expect(s.bugs.isEmpty)
    }

    @Test func aTwoFingerSwipeGivenOnlyTheEndsOfItsStrokeIsRecognized() {
        let s = Scenario(swipe("two") { $0.fingers = 2 }, swipe("one"))
        twoFingerStroke(s)
        #expect(s.log == ["one failed", "two recognized"])
        guard case .swipe(let direction, _, _)? = s.first("two", .recognized)?.detail else {
            Issue.record("\(s.log)")
            return
        }
        #expect(direction == .down)
    }

    @Test func aMemberGivenEveryFrameStillIsGivenTheLandingsAndLifts() {
        let s = Scenario(recognizer("pan", .pan(.init())))
        let probe = EndsProbe(fingers: 2...2)
        // Not excluded when the pan begins: it watches the stroke to its end.
        s.arena.add(name: "probe", recognizer: probe, relations: Relations(canBePrevented: false))
        twoFingerStroke(s)
        #expect(probe.given == ["down(1)", "lift(0)"])
        // The pan is given every frame: it began, changed with every move, and ended.
        let pan = s.events.filter { $0.name == "pan" }
        #expect(pan.filter { $0.state != .changed }.map(\.state) == [.began, .ended])
        #expect(pan.filter { $0.state == .changed }.count >= 6)
    }
}
