import Testing

@testable import GestureCore

/// The arena's rules, one by one, in the spirit of Flutter's arena_test.dart.
@Suite("arena")
struct ArenaTests {
    let pan = RecognizerParameters.pan(.init())
    let circle = RecognizerParameters.circle(.init())

    @Test func whenOneBeginsTheOthersStillDecidingFail() {
        let s = Scenario(recognizer("circle", circle), recognizer("pan", pan))
        s.stroke(circlePoints())
        #expect(s.log(without: .changed) == ["pan began", "circle failed", "pan ended"])
        #expect(s.first("circle", .failed)?.reason == "excluded: pan began first")
    }

    @Test func simultaneousRecognizersBothSucceed() {
        let s = Scenario(recognizer("circle", circle, simultaneous: ["pan"]), recognizer("pan", pan))
        s.stroke(circlePoints())
        #expect(s.log(without: .changed) == ["pan began", "circle recognized", "pan ended"])
    }

    @Test func simultaneityDeclaredOnEitherSideSuffices() {
        let s = Scenario(recognizer("circle", circle), recognizer("pan", pan, simultaneous: ["circle"]))
        s.stroke(circlePoints())
        #expect(s.log(without: .changed) == ["pan began", "circle recognized", "pan ended"])
    }

    @Test func aRecognizerThatCannotPreventLetsTheOthersGoOn() {
        let s = Scenario(recognizer("circle", circle), recognizer("pan", pan, canPrevent: false))
        s.stroke(circlePoints())
        #expect(s.log(without: .changed) == ["pan began", "circle recognized", "pan ended"])
    }

    @Test func aRecognizerThatCannotBePreventedGoesOn() {
        let s = Scenario(recognizer("circle", circle, canBePrevented: false), recognizer("pan", pan))
        s.stroke(circlePoints())
        #expect(s.log(without: .changed) == ["pan began", "circle recognized", "pan ended"])
    }

    @Test func aGestureThatBeganPreventsALaterOneFromBeginning() {
        // tap would succeed at lift, but the pan began first and prevents it.
        var loose = TapRecognizer.Parameters()
        loose.maxMovementMM = 50
        let s = Scenario(recognizer("pan", pan), recognizer("tap", .tap(loose)))
        s.down(0, at: mm(50, 50))
        s.sync()
        s.move(0, to: mm(60, 50))
        s.sync()
        s.up(0)
        s.sync()
        #expect(s.log(without: .changed) == ["pan began", "tap failed", "pan ended"])
        #expect(s.first("tap", .failed)?.reason == "excluded: pan began first")
    }

    @Test func requireToFailHoldsUntilTheOtherFailsAndReleasesAtItsFailureTime() {
        let s = Scenario(recognizer("double", tapConfig(taps: 2)), recognizer("tap", tapConfig(), requires: ["double"]))
        s.tap(at: mm(50, 50))
        let lift = s.now
        #expect(s.events.isEmpty, "tap is held while double_tap may still happen")
        #expect(s.arena.nextDeadline == lift + Millis(300))
        s.advance(ms: 500)
        #expect(s.log == ["double failed", "tap recognized"])
        #expect(s.first("tap", .recognized)?.time == lift + Millis(300))
        #expect(s.first("tap", .recognized)?.location == mm(50, 50))
    }

    @Test func requireToFailFailsWhenTheOtherSucceeds() {
        let s = Scenario(recognizer("double", tapConfig(taps: 2)), recognizer("tap", tapConfig(), requires: ["double"]))
        s.tap(at: mm(50, 50))
        s.advance(ms: 100)
        s.tap(at: mm(50, 50))
        // One failure for each tap of the pair: neither was a single tap.
        #expect(s.log == ["double recognized", "tap failed", "tap failed"])
        #expect(s.events.dropFirst().allSatisfy { $0.reason == "requires double to fail, but double was recognized" })
    }

    @Test func requireToFailChainsRelease() {
        // triple ← double ← single: one tap waits for both to fail.
        let s = Scenario(
            recognizer("triple", tapConfig(taps: 3)),
            recognizer("double", tapConfig(taps: 2), requires: ["triple"]),
            recognizer("single", tapConfig(), requires: ["double"]))
        s.tap(at: mm(50, 50))
        s.advance(ms: 1000)
        #expect(s.log == ["triple failed", "double failed", "single recognized"])
    }

    /// Three taps through the chain: the triple tap, and nothing else. Its
    /// recognition fails the double tap it waits on; that must not release the
    /// single taps held for the double, whose sequences the triple took.
    @Test(arguments: [false, true])
    func aTripleTapThroughTheChainIsATripleTapAlone(tripleLast: Bool) {
        let triple = recognizer("triple", tapConfig(taps: 3))
        let rest = [
            recognizer("double", tapConfig(taps: 2), requires: ["triple"]),
            recognizer("single", tapConfig(), requires: ["double"]),
        ]
        let s = Scenario(tripleLast ? rest + [triple] : [triple] + rest)
        for _ in 0..<3 {
            s.tap(at: mm(50, 50))
            s.advance(ms: 100)
        }
        s.advance(ms: 1000)
        #expect(s.log(without: .failed) == ["triple recognized"])
        #expect(s.events.filter { $0.name == "single" }.count == 3, "each single tap fails: \(s.log)")
    }

    /// A double tap in the top half, with a tap in the bottom half between its
    /// two taps: the double tap's success takes nothing from the bottom's tap,
    /// which the double tap's region left out.
    @Test func aMultiTapExcludesOnlyWhatItTookPartIn() {
        func inHalf(_ r: RecognizerConfig, top: Bool) -> RecognizerConfig {
            var r = r
            r.filter.region = Box(minX: 0, minY: top ? 0 : 0.5, maxX: 1, maxY: top ? 0.5 : 1)
            return r
        }
        let s = Scenario(
            inHalf(recognizer("double", tapConfig(taps: 2)), top: true),
            inHalf(recognizer("tap", tapConfig(), requires: ["double"]), top: true),
            inHalf(recognizer("bottom_double", tapConfig(taps: 2)), top: false),
            inHalf(recognizer("bottom_tap", tapConfig(), requires: ["bottom_double"]), top: false))
        s.tap(at: mm(100, 20))
        s.advance(ms: 100)
        s.tap(at: mm(100, 80))
        s.advance(ms: 100)
        s.tap(at: mm(100, 20))
        s.advance(ms: 1000)
        #expect(s.log(without: .failed).sorted() == ["bottom_tap recognized", "double recognized"])
    }

    @Test func aHeldGestureFromAnEarlierSequenceIsNotExcludedByTheNextOne() {
        // Tap, then a pan starting inside the double-tap window: the pan makes the
        // double tap fail, which releases the first tap, which the pan does not touch.
        let s = Scenario(
            recognizer("double", tapConfig(taps: 2)),
            recognizer("tap", tapConfig(), requires: ["double"]),
            recognizer("pan", pan))
        s.tap(at: mm(50, 50))
        s.advance(ms: 100)
        s.down(0, at: mm(51, 50))
        s.sync()
        s.move(0, to: mm(70, 50))
        s.sync()
        s.up(0)
        s.sync()
        // The second touch moving makes double fail (config order puts it first);
        // that releases the held tap from the first sequence; the pan is untouched.
        // (The first "pan failed" is the first tap, which did not move.)
        // The second touch is watched by tap too, which fails on it when it moves.
        #expect(
            s.log(without: .changed) == [
                "pan failed", "double failed", "tap recognized", "tap failed", "pan began", "pan ended",
            ])
        #expect(s.first("tap", .recognized)?.time == s.first("double", .failed)?.time)
        #expect(s.first("tap", .recognized)?.location == mm(50, 50))
    }

    @Test func aSecondQuickTapElsewhereIsASecondTap() {
        // Two buttons tapped within the double-tap window: two taps, each where it was.
        let s = Scenario(recognizer("double", tapConfig(taps: 2)), recognizer("tap", tapConfig(), requires: ["double"]))
        s.tap(at: mm(50, 50))
        s.advance(ms: 150)
        s.tap(at: mm(120, 50))
        s.advance(ms: 1000)
        #expect(s.log(without: .failed) == ["tap recognized", "tap recognized"])
        #expect(s.events.filter { $0.state == .recognized }.map(\.location) == [mm(50, 50), mm(120, 50)])
    }

    @Test func aRequirementThatFailedForTheHeldSequenceDoesNotCountAgainstItLater() {
        // tap waits for double and press; press fails for the first tap (it lifted
        // early), then begins on the next touch: the first tap is still a tap.
        var press = LongPressRecognizer.Parameters()
        press.minDuration = Millis(500)
        let s = Scenario(
            recognizer("double", tapConfig(taps: 2)), recognizer("press", .longPress(press)),
            recognizer("tap", tapConfig(), requires: ["double", "press"]))
        s.tap(at: mm(50, 50))
        s.advance(ms: 100)
        s.down(0, at: mm(50, 50))
        s.sync()
        s.advance(ms: 800)
        s.up(0)
        s.sync()
        #expect(s.log(without: .failed) == ["tap recognized", "press began", "press ended"])
    }

    @Test func theLedgerIsCheckedAfterEveryFrameTimeoutAndTeardown() {
        // A double tap: the first tap's decision is held, then kept pending
        // while the second sequence runs, then dropped when double succeeds.
        let s = Scenario(recognizer("double", tapConfig(taps: 2)), recognizer("tap", tapConfig(), requires: ["double"]))
        s.tap(at: mm(50, 50))
        s.advance(ms: 150)
        s.down(0, at: mm(51, 50))
        s.sync()
        #expect(s.arena.members[1].ledger.pending.map(\.sequence) == [1], "the first tap's decision waits on")
        #expect(s.arena.ledgerViolation() == nil)
        s.up(0)
        s.sync()
        #expect(s.arena.members[1].ledger.pending.isEmpty)
        s.advance(ms: 1000)
        s.arena.cancelAll(at: s.now, because: .deviceRemoved, into: &s.events)
        #expect(s.log == ["double recognized", "tap failed", "tap failed"])
        #if DEBUG
            // One check per frame (4), per fired timeout round, per teardown, and the one above.
            #expect(s.arena.ledgerChecks >= 6, "assert runs the ledger's checks in debug builds")
        #endif
    }

    @Test func aBrokenLedgerIsNamed() {
        var l = Arena.Ledger()
        #expect(l.violation(now: 0) == nil)
        _ = l.start(1, takesPart: true)
        l.status = .held(
            Arena.Held(
                report: Report(detail: .none, fingers: 1, location: .zero, locationNormalised: .zero), discrete: true))
        _ = l.start(2, takesPart: true)
        #expect(l.violation(now: 2) == nil)
        #expect(l.violation(now: 1) == "sequence 2 is after the arena's 1")
        l.decisionStart = 1
        #expect(l.violation(now: 2) == "pending decision for sequence 1, not before its decision at 1")
        l.decisionStart = 2
        l.status = .idle
        #expect(l.violation(now: 2) == "idle but failed only through sequence 0 of 2")
    }

    @Test func failedTransitionsCarryReasonsAndAnArenaTrace() {
        let s = Scenario(recognizer("circle", circle), recognizer("pan", pan))
        s.tap(at: mm(10, 10))
        #expect(s.events.allSatisfy { $0.state == .failed && $0.reason != nil })
        #expect(s.trace.contains("pan: tracking → lift(0) → done (lifted after 0.0 mm < 5.0 mm)"), "\(s.trace)")
        #expect(s.trace.contains("pan: failed (lifted after 0.0 mm < 5.0 mm)"))
        #expect(s.bugs.isEmpty)
    }

    @Test func cancelAllCancelsWhatBeganAndFailsWhatWasDeciding() {
        let s = Scenario(recognizer("circle", circle, simultaneous: ["pan"]), recognizer("pan", pan))
        s.down(0, at: mm(50, 50))
        s.sync()
        s.move(0, to: mm(60, 50))
        s.sync()
        s.arena.cancelAll(at: s.now, because: .deviceRemoved, into: &s.events)
        #expect(s.log == ["pan began", "circle failed", "pan cancelled"])
        #expect(s.events.dropFirst().allSatisfy { $0.reason == "device removed" })
        s.arena.cancelAll(at: s.now, because: .deviceRemoved, into: &s.events)
        #expect(s.events.count == 3, "teardown twice reports once")
    }

    @Test func filtersKeepARecognizerOutOfSequencesElsewhere() {
        var r = recognizer("corner", tapConfig())
        r.filter.region = Box(minX: 0, minY: 0, maxX: 0.2, maxY: 0.2)
        let s = Scenario(r)
        s.tap(at: mm(100, 50))
        #expect(s.events.isEmpty)
        s.tap(at: mm(10, 10))
        #expect(s.log == ["corner recognized"])
    }

    @Test func relationProblemsAreFoundBeforeAnArenaIsBuilt() {
        var a = recognizer("a", tapConfig(), requires: ["b"])
        let b = recognizer("b", tapConfig(), requires: ["c"])
        let c = recognizer("c", tapConfig(), requires: ["a"])
        var problems = Configuration(recognizers: [a, b, c]).relationProblems()
        #expect(problems.count == 1)
        #expect(problems.first?.message.contains("cycle") == true)
        a.simultaneousWith = ["nobody"]
        problems = Configuration(recognizers: [a, b]).relationProblems()
        #expect(problems.map(\.key) == ["simultaneous_with", "requires_failure_of"])
    }
}
