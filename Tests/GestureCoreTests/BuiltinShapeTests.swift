import Testing

@testable import GestureCore

/// The built-in shapes on strokes from the seeded generators (`ShapeGenerator`):
/// what a person notices — a sloppy circle is a circle, a P is not; a checkmark
/// is a checkmark, a V with equal arms is not; scrubbing is a tickle, a curly
/// brace is not. Each recognizer alone, with its default parameters.
@Suite("built-in shapes on generated strokes")
struct BuiltinShapeTests {

    /// Runs `count` generated strokes through the recognizer `name` alone and
    /// returns how many it recognized, and why the others failed.
    static func run(
        _ name: String, _ parameters: RecognizerParameters, count: Int, seed: UInt64,
        _ make: (inout SplitMix64) -> [Point]
    ) -> (recognized: Int, failures: [String: Int]) {
        var g = SplitMix64(seed: seed)
        var recognized = 0
        var failures: [String: Int] = [:]
        for _ in 0..<count {
            let s = Scenario([recognizer(name, parameters)], recording: false)
            s.stroke(make(&g), frameMS: 10)
            if s.log.contains("\(name) recognized") {
                recognized += 1
            } else {
                let reason = s.events.first?.reason ?? "nothing"
                let words = reason.split(separator: " ").filter { $0.allSatisfy(\.isLetter) }
                let key = words.prefix(3).joined(separator: " ")
                failures[key, default: 0] += 1
            }
        }
        print("generated \(name) seed \(seed): \(recognized)/\(count) recognized, failed: \(failures)")
        return (recognized, failures)
    }

    static let circle = RecognizerParameters.circle(.init())
    static let checkmark = RecognizerParameters.checkmark(.init())
    static let tickle = RecognizerParameters.tickle(.init())

    @Test func sloppyCirclesAreCircles() {
        let r = Self.run("circle", Self.circle, count: 600, seed: 19_05_01) { ShapeGenerator.sloppyCircle(&$0) }
        // Goal on people not seen: 99.5 %.
        #expect(r.recognized >= 597, "\(r.recognized)/600, failed: \(r.failures)")
    }

    @Test func flickedAndSlowCirclesAreCircles() {
        let r = Self.run("circle", Self.circle, count: 600, seed: 19_05_11) { g in
            // Half flicked round in 250–400 ms, half drawn slowly in 2.5–5.5 s.
            var loop = ShapeGenerator.Loop.random(&g)
            loop.durationMS = g.unit() < 0.5 ? g.uniform(250...400) : g.uniform(2500...5500)
            return loop.points(&g)
        }
        #expect(r.recognized >= 597, "\(r.recognized)/600, failed: \(r.failures)")
    }

    /// A circle drawn wider than tall, or taller than wide: an ellipse of aspect
    /// 0.55 is 0.2 from its fitted circle however well it is drawn. Measured
    /// against its own ellipse instead, 582 of these 600 pass; only as circles,
    /// 288. The rest fail on their sweep or their flatter sides.
    @Test func anOvalIsACircle() {
        let r = Self.run("circle", Self.circle, count: 600, seed: 19_05_80) { g in
            var loop = ShapeGenerator.Loop.random(&g)
            loop.ratio = g.uniform(0.5...0.6)
            return ShapeGenerator.withHooks(loop.points(&g), &g)
        }
        #expect(r.recognized >= 570, "\(r.recognized)/600, failed: \(r.failures)")
        // With oval_tolerance 0, only round circles: the reason says why.
        var round = CircleRecognizer.Parameters()
        round.ovalTolerance = 0
        let strict = Self.run("circle", .circle(round), count: 600, seed: 19_05_80) { g in
            var loop = ShapeGenerator.Loop.random(&g)
            loop.ratio = g.uniform(0.5...0.6)
            return ShapeGenerator.withHooks(loop.points(&g), &g)
        }
        #expect(strict.recognized < 450, "\(strict.recognized)/600 without ovals")
    }

    /// A stroke that fits its circle badly says how it measured as an oval.
    @Test func aFailedOvalSaysWhy() {
        var g = SplitMix64(seed: 19_05_81)
        var loop = ShapeGenerator.Loop.random(&g)
        loop.ratio = 0.3
        loop.wobble = (0, 0)
        loop.sweepDegrees = 360
        let s = Scenario([recognizer("circle", Self.circle)], recording: false)
        s.stroke(loop.points(&g), frameMS: 10)
        let reason = s.events.first?.reason ?? ""
        #expect(reason.contains("fit error") && reason.contains("as an oval, aspect 0.3"), "\(reason)")
    }

    /// A number just past its limit is not shown equal to it ("0.50 < 0.50"):
    /// the two get as many more decimals as it takes, up to three.
    @Test func aReasonNeverReadsAsEqual() {
        let oval = CircleRecognizer.Oval(aspect: 0.4987, error: 0.05, tolerance: 0.09, minAspect: 0.5)
        let text = Reason.circle(.fitError(0.2031, tolerance: 0.2, oval: oval)).description
        #expect(text.hasPrefix("fit error 0.203 > tolerance 0.200; as an oval, aspect 0.499 < 0.500"), "\(text)")
        let rise = Reason.checkmark(
            .rise(1.4999, min: 1.5, run: 0.8, minRun: 1.0, endsAbove: true, firstGoesRight: true)
        ).description
        #expect(rise.contains("rises 1.4999× the first arm's drop < 1.5000×"), "\(rise)")
        #expect(rise.contains("runs right 0.80× its length < 1.00×"), "\(rise)")
        // A run far enough that did not count says why.
        let level = Reason.checkmark(
            .rise(0.95, min: 1.5, run: 2.12, minRun: 1.0, endsAbove: false, firstGoesRight: true)
        ).description
        #expect(
            level.hasSuffix("; it runs right 2.12× the first arm's length, but ends no higher than it began"),
            "\(level)")
        let left = Reason.checkmark(
            .rise(1.2, min: 1.5, run: 1.3, minRun: 1.0, endsAbove: true, firstGoesRight: false)
        ).description
        #expect(left.hasSuffix("but its first arm goes left"), "\(left)")
        // Numbers that differ at the usual precision keep it.
        #expect(Reason.circle(.radius(4.2, min: 6)).description == "radius 4.2 mm < 6.0 mm")
        #expect(Reason.circle(.radius(5.98, min: 6)).description == "radius 5.98 mm < 6.00 mm")
    }

    @Test func aCircleLeftOpenIsACircle() {
        let r = Self.run("circle", Self.circle, count: 600, seed: 19_05_70) { ShapeGenerator.openCircle(&$0) }
        // Stopping 35–60° short: swept 290–325° around a circle, less or more
        // around the circle fitted to an ellipse. At min_sweep_deg 300 and
        // max_end_gap 1.5, 536 of 600 (64 swept under 300°).
        #expect(r.recognized >= 597, "\(r.recognized)/600, failed: \(r.failures)")
    }

    @Test func aCircleBegunInsideItsLoopIsACircle() {
        let r = Self.run("circle", Self.circle, count: 600, seed: 19_05_72) { ShapeGenerator.circleBegunInside(&$0) }
        // Before the way out to the loop was cut, 572: 26 came within the inner
        // box on their way out, 2 fitted the circle too loosely with it.
        #expect(r.recognized >= 597, "\(r.recognized)/600, failed: \(r.failures)")
    }

    @Test func anArcIsNoCircle() {
        let r = Self.run("circle", Self.circle, count: 600, seed: 19_05_71) { ShapeGenerator.arc(&$0) }
        // A C, a U: open by a quarter of the way round or more. Fitted to an
        // elliptical arc, a circle's centre moves in and the arc seems to sweep
        // more than it does: 57 of these sweep 260° or more, and they end 1.2
        // radii or more apart (1.41 for a quarter of a circle left open).
        #expect(r.recognized == 0, "\(r.recognized)/600 taken for a circle")
    }

    @Test func aLineWithALoopAtItsEndIsNoCircle() {
        let r = Self.run("circle", Self.circle, count: 300, seed: 19_05_02) {
            ShapeGenerator.lineWithLoop(&$0, tail: 1.0...3.0)
        }
        // Lines one to three radii long; before the tail rule 43 of the 300 were
        // circles, 3 with it (they start within 0.3 radii of the loop). Since
        // the closing gap the tail rule lets more through and max_straight stops
        // most; 4 ran straight for less than a radius, 1 does so out past where
        // its loop closes; since a stretch begun where the loop closes counts
        // as outside, none.
        #expect(r.recognized == 0, "\(r.recognized)/300 taken for a circle")
    }

    @Test func carelessCirclesAreCircles() {
        let r = Self.run("circle", Self.circle, count: 600, seed: 19_05_30) { ShapeGenerator.carelessCircle(&$0) }
        // Ellipses to 0.6, 35° short to 1.3 turns, a straight lead-in or tail of up
        // to 0.3 radii. Before the closing gap, 510: circles overshooting by more
        // than about 100° end more than max_end_gap from their start.
        #expect(r.recognized >= 597, "\(r.recognized)/600, failed: \(r.failures)")
    }

    /// Of 400 strokes of each family, how many are taken for a circle at most:
    /// none (0.2 % of 400 is under one), but for a line into or out of a loop and
    /// an α. Before the rule on straight stretches outside the loop they read 14,
    /// 9 and 14: lines of about one radius, off the tangent, that run straight for
    /// less than `max_straight`; 2, 5 and 1 with it. Where no closing is found,
    /// the loop closes where an end comes nearest (within 0.15 radii): a loop
    /// whose line out passes 0.1–0.15 radii from its start takes that family
    /// from 5 to 4. Most of the ones left are lines of about a radius that run
    /// into or out of the loop as a chord across it: the loop passes over the
    /// line's far end, so nothing lies outside where it closes. Since straight
    /// stretches are found on the turning averaged over five samples (a
    /// finger's jitter cancels; `max_straight` 0.95, 0.8 out past the closing)
    /// they read 2, 2 and 1, a pigtail's loop in its line 1 (0 before), and the
    /// two D's that were taken (short stems, rounded corners) none. A stretch
    /// that begins at the sample where the loop closes (or ends at it) now
    /// counts as reaching outside, as one that begins before it did: 1, 0, 1
    /// and the pigtail 0.
    static let loopFamilyAllowance: [ShapeGenerator.LoopFamily: Int] = [
        .loopAtEnd: 1, .alpha: 1,
    ]

    @Test(arguments: ShapeGenerator.LoopFamily.allCases)
    func aStrokeWithALoopIsNoCircle(_ family: ShapeGenerator.LoopFamily) {
        let index = ShapeGenerator.LoopFamily.allCases.firstIndex(of: family)!
        let r = Self.run("circle", Self.circle, count: 400, seed: 19_05_40 + UInt64(index)) {
            ShapeGenerator.loopStroke(family, &$0)
        }
        let allowed = Self.loopFamilyAllowance[family] ?? 0
        #expect(r.recognized <= allowed, "\(family): \(r.recognized)/400 taken for a circle")
    }

    /// The same families drawn with a finger's jitter: 0.2 mm more on every
    /// point (0.22 mm in all). A jittery line wiggles, and measured on each
    /// sample's own turning it was no longer straight: 55 of the 5,600 were
    /// taken for a circle before the turning was averaged, with it 19, and 6
    /// since a stretch begun where the loop closes counts as outside.
    @Test func aStrokeWithALoopIsNoCircleThroughJitter() {
        let r = Self.loopFamiliesTaken { p, g in p.map { ShapeGenerator.jitter($0, &g, mm: 0.2) } }
        #expect(r.total <= 8, "\(r.total)/5600 taken for a circle: \(r.taken)")
    }

    /// The same families with a 1–2 mm hook at both ends, in a random
    /// direction, as a finger lands and lifts. Goal: 0.2 % (11); 34 before a
    /// stretch begun where the loop closes counted as outside. Most left are a
    /// line into or out of the loop whose hook, not cut (it turns less than
    /// 75°), breaks the straight stretch short of where the loop closes.
    @Test func aStrokeWithALoopIsNoCircleWithHooks() {
        let r = Self.loopFamiliesTaken { p, g in ShapeGenerator.withHooksAtBothEnds(p, &g) }
        #expect(r.total <= 30, "\(r.total)/5600 taken for a circle: \(r.taken)")
    }

    /// The strokes of every family of `aStrokeWithALoopIsNoCircle`, with its
    /// seeds, changed by `perturb`: how many the circle takes in all, and of
    /// which families.
    static func loopFamiliesTaken(
        _ perturb: @escaping ([Point], inout SplitMix64) -> [Point]
    ) -> (total: Int, taken: [String]) {
        var taken: [String] = []
        var total = 0
        for (index, family) in ShapeGenerator.LoopFamily.allCases.enumerated() {
            let r = run("circle", circle, count: 400, seed: 19_05_40 + UInt64(index)) { g in
                perturb(ShapeGenerator.loopStroke(family, &g), &g)
            }
            total += r.recognized
            if r.recognized > 0 { taken.append("\(family) \(r.recognized)") }
        }
        return (total, taken)
    }

    /// Circles with the same jitter stay circles.
    @Test func circlesThroughJitterAreCircles() {
        let sloppy = Self.run("circle", Self.circle, count: 600, seed: 19_05_01) { g in
            ShapeGenerator.sloppyCircle(&g).map { ShapeGenerator.jitter($0, &g, mm: 0.2) }
        }
        let careless = Self.run("circle", Self.circle, count: 600, seed: 19_05_30) { g in
            ShapeGenerator.carelessCircle(&g).map { ShapeGenerator.jitter($0, &g, mm: 0.2) }
        }
        #expect(sloppy.recognized >= 597, "\(sloppy.recognized)/600, failed: \(sloppy.failures)")
        #expect(careless.recognized >= 597, "\(careless.recognized)/600, failed: \(careless.failures)")
    }

    @Test func aPIsNoCircle() {
        let r = Self.run("circle", Self.circle, count: 300, seed: 19_05_03) {
            ShapeGenerator.letterP(&$0, stem: 1.4...2.2)
        }
        #expect(r.recognized == 0, "\(r.recognized)/300 taken for a circle")
    }

    @Test func anEIsNoCircle() {
        let r = Self.run("circle", Self.circle, count: 200, seed: 19_05_04) { ShapeGenerator.letterE(&$0) }
        #expect(r.recognized == 0, "\(r.recognized)/200 taken for a circle")
    }

    @Test func checkmarksAreCheckmarks() {
        let r = Self.run("checkmark", Self.checkmark, count: 600, seed: 19_05_05) {
            ShapeGenerator.checkmark(&$0)
        }
        // Goal on people not seen: 99 %. Before min_run_ratio, 593: the misses were
        // short steep first arms with a long flat second arm (rise ratio under 1.5).
        #expect(r.recognized >= 594, "\(r.recognized)/600, failed: \(r.failures)")
    }

    @Test func aCheckmarkWithHooksIsACheckmark() {
        let r = Self.run("checkmark", Self.checkmark, count: 600, seed: 19_05_13) { g in
            // The finger settles as it lands and flicks as it lifts: a 1–2 mm
            // hook in a random direction at both ends.
            ShapeGenerator.withHooksAtBothEnds(ShapeGenerator.checkmark(&g), &g)
        }
        // Hooks are cut within a tenth of the stroke; at 8 %, 588: a hook off a
        // short stroke stayed on the first arm and bent it past max_arm_bend or
        // lifted its start. Then 593: hooks that run on along a short first arm
        // start it higher, and the second arm rises less than min_rise_ratio ×
        // its drop; with min_run_ratio at 1.0 rather than 1.2, 598; with a
        // landing's wiggle left out of the first arm's bend, 599.
        #expect(r.recognized >= 597, "\(r.recognized)/600, failed: \(r.failures)")
    }

    @Test func aCheckmarkWithAFlatSecondArmIsACheckmark() {
        let r = Self.run("checkmark", Self.checkmark, count: 300, seed: 19_05_09) {
            ShapeGenerator.flatCheckmark(&$0)
        }
        // The long arm reaches right rather than up: it rises less than
        // min_rise_ratio, but runs right farther than min_run_ratio times the
        // first arm's length. Before min_run_ratio, 203 of the 300.
        #expect(r.recognized == 300, "\(r.recognized)/300, failed: \(r.failures)")
    }

    @Test func aFlatSecondArmThatEndsBelowTheStartIsNoCheckmark() {
        let r = Self.run("checkmark", Self.checkmark, count: 200, seed: 19_05_12) { g in
            // Steep and short, then 1.5–1.8 × as long at 22–28° up: it runs right
            // far enough, but a checkmark ends higher than it began.
            let first = g.uniform(6...12)
            return ShapeGenerator.vee(
                &g, first: first, down: g.uniform(65...80), second: first * g.uniform(1.5...1.8),
                up: g.uniform(22...28), armMS: 80...400)
        }
        #expect(r.recognized == 0, "\(r.recognized)/200 taken for a checkmark")
    }

    @Test func aVWithEqualArmsIsNoCheckmark() {
        let r = Self.run("checkmark", Self.checkmark, count: 600, seed: 19_05_06) {
            ShapeGenerator.equalArmedV(&$0)
        }
        #expect(r.recognized == 0, "\(r.recognized)/600 taken for a checkmark")
    }

    @Test func aCheckmarkCloseToAVIsACheckmark() {
        let r = Self.run("checkmark", Self.checkmark, count: 600, seed: 19_05_60) {
            ShapeGenerator.nearVCheckmark(&$0)
        }
        // The second arm only 1.5–2 × the first, a rounded corner, slanted. With
        // min_run_ratio at 1.2, 545: a second arm flatter than the first rises
        // less than min_rise_ratio and runs right 1.0–1.2 × the first arm's
        // length. At 1.0, 597.
        #expect(r.recognized >= 594, "\(r.recognized)/600, failed: \(r.failures)")
    }

    @Test func aLopsidedVIsNoCheckmark() {
        let r = Self.run("checkmark", Self.checkmark, count: 600, seed: 19_05_61) { ShapeGenerator.lopsidedV(&$0) }
        #expect(r.recognized == 0, "\(r.recognized)/600 taken for a checkmark")
    }

    /// A round bottom's lowest point is short of where a V's arms meet, the
    /// shorter arm by the larger share, and slides towards the flatter arm:
    /// measured to it, a V's arms read more lopsided than they are.
    @Test func aVWithARoundBottomIsNoCheckmark() {
        let r = Self.run("checkmark", Self.checkmark, count: 600, seed: 19_05_67) {
            ShapeGenerator.roundBottomedV(&$0)
        }
        // With the arms measured to the lowest point, 6.
        #expect(r.recognized == 0, "\(r.recognized)/600 taken for a checkmark")
    }

    /// A narrow V leaning back, its first arm going down and to the left: the
    /// line between its start and end runs the other way round its corner,
    /// and where the arms' lines meet is still outside the lowest point.
    @Test func aVLeaningBackIsNoCheckmark() {
        let r = Self.run("checkmark", Self.checkmark, count: 600, seed: 19_05_69) { g in
            ShapeGenerator.roundedVee(
                &g, first: 5...12, down: 100...115, ratio: 1.0...1.3, up: 72...85, corner: 0.1...0.4, slant: 0)
        }
        // 3 while the side was taken from the line between start and end.
        #expect(r.recognized <= 1, "\(r.recognized)/600 taken for a checkmark")
    }

    /// The vertex a checkmark reports is where the finger turned, on the
    /// stroke, even where its arms are measured to where their lines meet.
    @Test func aRoundedCheckmarkReportsTheVertexItDrew() throws {
        var g = SplitMix64(seed: 19_05_68)
        for _ in 0..<50 {
            let first = g.uniform(8...14)
            let p = ShapeGenerator.roundedVee(
                &g, first: first, down: g.uniform(45...60), second: first * g.uniform(1.8...2.4),
                up: g.uniform(50...65), corner: first * g.uniform(0.2...0.3), slant: 0, durationMS: 500)
            let s = Scenario([recognizer("checkmark", Self.checkmark)], recording: false)
            s.stroke(p, frameMS: 10)
            let event = try #require(s.events.first { $0.state == .recognized })
            guard case .checkmark(let vertex) = event.detail else {
                Issue.record("\(event.detail) is no checkmark")
                return
            }
            let lowest = try #require(p.max { $0.y < $1.y })
            let nearest = zip(p, p.dropFirst()).map { distance(from: vertex, toSegment: $0, $1) }.min() ?? .infinity
            #expect(nearest < 0.5, "vertex \(vertex) is \(nearest) mm from the stroke")
            #expect(abs(vertex.y - lowest.y) < 0.5, "vertex \(vertex), lowest point \(lowest)")
        }
    }

    /// A checkmark has one corner. A W's second valley, or the cusp where a
    /// hand-written v's lead-in turns down, is a corner of its own: measured
    /// by arm chords alone, a W is a short first arm and a long second one,
    /// and a written v's lead-in shortens its first arm.
    @Test func aWOrAWrittenVIsNoCheckmark() {
        let w = Self.run("checkmark", Self.checkmark, count: 400, seed: 19_05_63) { ShapeGenerator.zigzagW(&$0) }
        #expect(w.recognized == 0, "\(w.recognized)/400 W's taken for a checkmark")
        let v = Self.run("checkmark", Self.checkmark, count: 400, seed: 19_05_64) { ShapeGenerator.writtenV(&$0) }
        #expect(v.recognized == 0, "\(v.recognized)/400 written v's taken for a checkmark")
        // Without the rule, some of each pass.
        var lenient = CheckmarkRecognizer.Parameters()
        lenient.maxOtherCornerDegrees = 180
        lenient.maxSecondArmBow = 10
        let wBefore = Self.run("checkmark", .checkmark(lenient), count: 400, seed: 19_05_63) {
            ShapeGenerator.zigzagW(&$0)
        }
        let vBefore = Self.run("checkmark", .checkmark(lenient), count: 400, seed: 19_05_64) {
            ShapeGenerator.writtenV(&$0)
        }
        #expect(wBefore.recognized + vBefore.recognized > 0)
    }

    /// Where a finger lands on a small checkmark it may leave a hook that
    /// turns back into the first arm, beyond the tenth of the stroke cut as a
    /// hook. A turn back near the start counts as a written v's lead-in only
    /// 2.5 mm or more from the start: a landing is within that.
    @Test func aSmallCheckmarkWithALandingIsACheckmark() {
        let r = Self.run("checkmark", Self.checkmark, count: 400, seed: 19_05_66) {
            ShapeGenerator.smallCheckmarkWithALanding(&$0)
        }
        // 252 of 400 without the 2.5 mm (115 "turn a second corner"); 367
        // while the settling's jitter counted in the first arm's bend (33 failed
        // `max_arm_bend`), and one more then turned a corner 0.7 mm from the
        // start, the settling having taken the samples 30 % along.
        #expect(r.failures.keys.allSatisfy { !$0.hasPrefix("turns a second") }, "\(r.failures)")
        #expect(r.recognized >= 396, "\(r.recognized)/400, failed: \(r.failures)")
    }

    /// A checkmark's long arm is one straight stroke. A √'s chord runs from
    /// the vertex to the end of its bar, and the bar bends that arm gently
    /// enough for `max_arm_bend`; its rounded top turns less than a corner.
    @Test func aSquareRootIsNoCheckmark() {
        let r = Self.run("checkmark", Self.checkmark, count: 400, seed: 19_05_65) { ShapeGenerator.squareRoot(&$0) }
        var lenient = CheckmarkRecognizer.Parameters()
        lenient.maxSecondArmBow = 10
        let before = Self.run("checkmark", .checkmark(lenient), count: 400, seed: 19_05_65) {
            ShapeGenerator.squareRoot(&$0)
        }
        // 3 of 400 (296 without the bow: the rest turn a second corner).
        #expect(r.recognized <= 4, "\(r.recognized)/400 taken for a checkmark (\(before.recognized) without the bow)")
        #expect(before.recognized >= 200)
    }

    /// With `min_length_mm` 0 a checkmark of a few millimetres is judged too:
    /// its corner is measured over chords of 2 mm, a large part of it, and the
    /// measure must stay within the stroke (it once ran past it and trapped).
    @Test func aTinyCheckmarkIsJudgedWithoutTrapping() {
        var p = CheckmarkRecognizer.Parameters()
        p.minLengthMM = 0
        var recognized = 0
        for size in stride(from: 2.0, through: 8.0, by: 0.1) {
            let points = (0...40).map { i -> Point in
                let t = Double(i) / 40
                let first = size / 3
                let vertex = Point(x: first * 0.6, y: first * 0.8)
                return t < 1.0 / 3
                    ? mm(100, 50) + vertex * (t * 3)
                    : mm(100, 50) + vertex + Point(x: 0.6, y: -0.8) * (2 * first * (t - 1.0 / 3) * 1.5)
            }
            let s = Scenario([recognizer("checkmark", .checkmark(p))], recording: false)
            s.stroke(points, frameMS: 10)
            if s.log.contains("checkmark recognized") { recognized += 1 }
        }
        // Two straight arms meeting at one corner: a checkmark at every size.
        #expect(recognized == 61, "\(recognized)/61")
    }

    @Test func aFirstArmBackLeftGetsNoPassForAFlatSecondArm() {
        let r = Self.run("checkmark", Self.checkmark, count: 200, seed: 19_05_62) { g in
            // A delete mark's shape: down and back left (95–112°), then 1.45–1.7 ×
            // as long at 42–50° up. It rises less than min_rise_ratio and runs
            // right about as far as the first arm is long; that counts only after
            // a first arm that went right.
            let first = g.uniform(6...14)
            return ShapeGenerator.vee(
                &g, first: first, down: g.uniform(95...112), second: first * g.uniform(1.45...1.7),
                up: g.uniform(42...50), armMS: 80...400)
        }
        #expect(r.recognized == 0, "\(r.recognized)/200 taken for a checkmark")
    }

    @Test func aQuickCurlyBraceIsNoTickle() {
        let r = Self.run("tickle", Self.tickle, count: 300, seed: 19_05_07) { ShapeGenerator.curlyBrace(&$0) }
        #expect(r.recognized == 0, "\(r.recognized)/300 taken for a tickle")
    }

    @Test func loopsInARowAreNoTickle() {
        let r = Self.run("tickle", Self.tickle, count: 300, seed: 19_05_10) { ShapeGenerator.loops(&$0) }
        // Before the bow rule all 300 were tickles: each loop turns back across
        // twice, evenly, without drifting.
        #expect(r.recognized == 0, "\(r.recognized)/300 taken for a tickle")
    }

    @Test func scrubbingIsATickle() {
        let r = Self.run("tickle", Self.tickle, count: 300, seed: 19_05_08) {
            let reversals = 4 + Int($0.next() % 3)
            return ShapeGenerator.tickle(&$0, reversals: reversals, creep: 0.2)
        }
        #expect(r.recognized == 300, "\(r.recognized)/300, failed: \(r.failures)")
    }
}
