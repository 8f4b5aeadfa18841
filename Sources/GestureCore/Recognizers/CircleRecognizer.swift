/// One-finger circle, clockwise or counter-clockwise.
///
/// At lift, on the stroke resampled to evenly spaced points and smoothed
/// (sensor jitter), with a hook at either end cut off (the finger settling as it
/// lands, flicking as it lifts), and the way out to the loop of a circle begun
/// inside it: a Taubin circle fit; the RMS distance from the
/// circle, relative to the radius, must be within `tolerance`, or, for an oval
/// (a circle drawn taller or wider than round), the RMS distance from its
/// ellipse within `ovalTolerance`, its aspect at least `minOvalAspect`. The stroke must
/// sweep at least `minSweepDegrees` around the fitted centre (short arcs), keep out
/// of the inner box around it (S shapes, spirals, figure 8), cover enough of the
/// fitted circle's bounding box, end near where it started, be at least
/// `minRadiusMM` big, and turn evenly: a rectangle or a triangle fits a circle
/// quite well, but does its turning at its corners, so the share of the turning
/// done in the sharpest fifth of the stroke must stay under `maxCornerShare`.
/// Nor may it run straight for more than `maxStraight` radii (a line into or out
/// of a loop), turn back anywhere but in a hook near an end (the stem of an a or
/// a 9), start outside its loop away from where it closes (`maxTail`), or run
/// straight out of its loop beyond where the loop closes for more than
/// `maxStraightOutsideLoop` radii.
public final class CircleRecognizer: Recognizer {
    public struct Parameters: Sendable, Equatable {
        /// RMS radial error / radius.
        public var tolerance = 0.2
        /// Or, for an oval: RMS distance from the ellipse fitted to it / its
        /// mean radius, at most (0: only round circles). An oval of aspect
        /// 0.55 is 0.2 from its fitted circle however well it is drawn; people's
        /// ovals are within 0.06 of their ellipse, a D or a line into a loop
        /// rounded out is not.
        public var ovalTolerance = 0.09
        /// An oval's minor axis / major axis, at least, as `roundOval` measures
        /// it on the stroke's points: a drawn ellipse of 0.45 measures about 0.5.
        public var minOvalAspect = 0.5
        public var minRadiusMM = 6.0
        /// Around the fitted centre. A circle left a sixth open sweeps 300°;
        /// fitted to an elliptical C the centre moves in and a quarter left
        /// open can seem to sweep as much: `maxEndGap` tells those apart.
        public var minSweepDegrees = 260.0
        public var maxSweepDegrees = 500.0
        /// Half-side of the forbidden inner box, as a fraction of the radius.
        public var innerBoxFraction = 0.4
        /// Stroke bounding box area / fitted circle bounding box area.
        public var minBoxCoverage = 0.55
        /// Start-to-end gap / radius (or, if nearer, to where the stroke passes
        /// again a full sweep on): 1.0 for a circle left a sixth open, 1.41 for
        /// a C left a quarter open.
        public var maxEndGap = 1.2
        /// How far the stroke's farther end lies outside the fitted circle times
        /// how far its start lies from its end (both in radii), at most. A line
        /// with a loop at its end (a P, a lasso, a pitchfork's handle) starts
        /// outside the loop and away from where the loop closes; a circle starts
        /// on its loop, or inside it, or closes near its start.
        public var maxTail = 0.3
        /// The longest straight stretch of the stroke, in radii, at most: the
        /// longest stretch along which it turns less than a third of its average
        /// turn (`straightFraction`), the turning averaged with its sign over
        /// five samples (`straightWindow`) so that jitter does not break a line.
        /// A line into or out of a loop (a lasso, a 9, a q, a pitchfork's
        /// handle) is straight for as long as it is; a circle turns all the way
        /// round, an ellipse's flatter sides too.
        public var maxStraight = 0.95
        /// Share of the stroke's turning done in its sharpest fifth, at most. An
        /// even turn gives 0.2; people's circles 0.28–0.43; rectangles and triangles
        /// 0.63 and more.
        public var maxCornerShare = 0.55
        public var maxDuration = Millis(6000)
        public init() {}
    }

    public enum Failure: Sendable, Equatable {
        case tooFewPoints(Int)
        case collinear(Int)
        case radius(Double, min: Double)
        /// As an oval: the aspect and the distance from its ellipse, when its
        /// aspect is at least `minOvalAspect`.
        case fitError(Double, tolerance: Double, oval: Oval?)
        case sweptTooLittle(Double, min: Double)
        case sweptTooMuch(Double, max: Double)
        /// This point of the stroke lies within the inner box (half-side in mm).
        case insideInnerBox(Point, halfSide: Double)
        case coverage(Double, min: Double)
        case endGap(Double, max: Double)
        /// The start (or the end, when `atStart` is false) lies `offset` radii
        /// outside the circle, and `gap` radii from the other end.
        case tail(offset: Double, gap: Double, atStart: Bool, max: Double)
        case corners(Double, max: Double)
        /// The stroke runs straight for this many radii.
        case straight(Double, max: Double)
        /// The stroke turns back by `degrees` `fromEnd` radii along it from its
        /// nearer end: farther in than a hook may be (`maxHook` radii).
        case turnsBack(Double, fromEnd: Double, maxHook: Double)
        /// A stretch this many radii long runs straight from beyond where the
        /// loop closes (`maxStraightOutsideLoop`).
        case straightOutsideLoop(Double, max: Double)
    }

    /// A stroke measured as an oval: `roundOval`.
    public struct Oval: Sendable, Equatable {
        public var aspect: Double
        /// RMS distance from its ellipse / its mean radius.
        public var error: Double
        public var tolerance: Double
        public var minAspect: Double
    }

    public let kind = GestureKind.circle
    public let parameters: Parameters
    public let fingers: ClosedRange<Int> = 1...1
    private let drawing = ShapeDrawing()
    private var samples: [Point] = []
    /// The samples' turning and length along, measured once a stroke.
    private var turning = PathTurning(span: CircleRecognizer.turnSpan, capacity: CircleRecognizer.sampleCount)
    private var sorted: [Double] = []
    private var sharpest: [Int] = []
    private var rounded: [Point] = []
    private var lastEvidence = Evidence()
    static let sampleCount = 64
    /// Chord span, in samples, for turning angles: 2 of 64, a sixteenth of the
    /// stroke with both chords; long enough to step over one jittery sample.
    static let turnSpan = 2
    /// The sharpest part of the stroke that `maxCornerShare` is about.
    static let cornerFraction = 0.2
    /// A hook is at most this part of the stroke and turns at least this much.
    static let hookFraction = 0.1
    static let hookDegrees = 75.0
    /// Straight, for `maxStraight`: turning less than this share of the average.
    static let straightFraction = 1.0 / 3
    /// For straight stretches, a sample's turning is the mean of the signed
    /// turning of the five samples around it (`straightStretches`): a finger's
    /// jitter on a line wiggles both ways and cancels, a curve turns one way.
    static let straightWindow = 2
    /// A hook is cut only within this many radii of the end. A turn back of
    /// `maxTurnBackDegrees` or more anywhere else is a cusp: a circle never turns
    /// back on itself, an a or a 9 does where its stem leaves the loop.
    static let hookRadii = 0.4
    static let maxTurnBackDegrees = 110.0
    /// The loop closes where the stroke comes back within this many radii of
    /// itself, half a circle's length or more further along.
    static let closingRadii = 0.1
    /// A straight stretch that reaches outside the loop (from where it closes
    /// seen from the start or before, or to where it closes seen from the end
    /// or after) may be this many radii long
    /// at most. A circle's straight stretches lie within its sweep, or are a
    /// short lead-in or tail; a line into or out of a loop runs on straight
    /// across where the loop closes.
    static let maxStraightOutsideLoop = 0.8
    /// Where the stroke never comes back within `closingRadii` of itself, the
    /// loop closes where an end comes nearest the part of the stroke half a
    /// circle or more away, if within this many radii: a loop that ends on its
    /// line or just short of it. A circle that stops short ends nearest its
    /// own start, with nothing before it.
    static let approachRadii = 0.15
    /// A full circle's sweep, for `closingGap`: as `minSweepDegrees` was before
    /// a circle left open was let down to 260°, so that a line into a loop gets
    /// no nearer its closing than it did.
    static let closingSweepDegrees = 300.0
    /// A circle begun inside its loop (`leadIn`): it starts between
    /// `leadInMinStart` and `leadInMaxStart` radii from the centre, and reaches
    /// the loop (`leadInReach` radii) within `leadInMaxLength` radii along,
    /// moving outward all the way (back in by `leadInSlack` radii at most).
    static let leadInMinStart = 0.25
    static let leadInMaxStart = 0.65
    static let leadInReach = 0.8
    static let leadInMaxLength = 1.5
    static let leadInSlack = 0.05

    public init(_ parameters: Parameters) {
        self.parameters = parameters
        samples.reserveCapacity(CircleRecognizer.sampleCount)
        sorted.reserveCapacity(CircleRecognizer.sampleCount)
        sharpest.reserveCapacity(CircleRecognizer.sampleCount)
        rounded.reserveCapacity(CircleRecognizer.sampleCount)
    }

    public func reset() { drawing.reset() }

    public var stateDescription: String { drawing.description }

    public func handle(_ event: RecognizerEvent, _ frame: borrowing TouchFrame) -> Proposal {
        drawing.handle(event, frame, maxDuration: parameters.maxDuration, decide: decide)
    }

    /// The decision on a finished stroke.
    public func decide() -> Proposal {
        if let f = failure() { return .fail(.circle(f)) }
        return .recognize(
            drawing.tracker.report(
                .circle(
                    center: fit.center, radiusMM: fit.radius, fitError: fit.error,
                    clockwise: fit.swept > 0, sweptDegrees: abs(fit.swept)), at: fit.center))
    }

    /// The circle of the last stroke judged.
    private var fit = (center: Point.zero, radius: 0.0, error: 0.0, swept: 0.0)

    private func failure() -> Failure? {
        var e = Evidence()
        defer { lastEvidence = e }
        let stroke = drawing.tracker.stroke
        guard stroke.count >= 8 else { return .tooFewPoints(stroke.count) }
        resample(stroke.points, count: CircleRecognizer.sampleCount, into: &samples)
        smooth(&samples, passes: 2)
        turning.measure(samples)
        let hooked = hookTrimmedRange(
            turning, maxFraction: CircleRecognizer.hookFraction, minTurnDegrees: CircleRecognizer.hookDegrees)
        if hooked.lowerBound > 0 { e.hookCuts.append(samples[hooked.lowerBound]) }
        if hooked.upperBound < samples.count { e.hookCuts.append(samples[hooked.upperBound - 1]) }
        var kept = hooked
        guard var circle = taubinCircleFit(samples[kept]) else { return .collinear(kept.count) }
        // A circle begun inside its loop: the way out to it is cut, as a hook is.
        if let lead = leadIn(kept, around: circle.center, radius: circle.radius),
            let refit = taubinCircleFit(samples[lead..<kept.upperBound])
        {
            kept = lead..<kept.upperBound
            circle = refit
            e.hookCuts.append(samples[lead])
            e.notes.append("begun inside its loop: the way out to it is cut")
        }
        let path = samples[kept]
        let (c, r) = circle
        e.circle = (c, r)
        let box = Box(bounding: path)
        e.strokeBox = box
        e.innerBox = Box(center: c, halfSide: r * parameters.innerBoxFraction)
        var fitError = radialFitError(path, center: c, radius: r)
        var oval: Oval? = nil
        var asOval = false
        if fitError > parameters.tolerance && parameters.ovalTolerance > 0 {
            let (o, ellipse) = ovalFit(path)
            oval = o
            asOval = o.aspect >= o.minAspect && o.error <= o.tolerance
            e.oval = (o.aspect, o.error, asCircle: fitError, ellipse)
            e.notes.append(
                "\(asOval ? "an oval" : "not an oval"): aspect \(formatFixed(o.aspect, decimals: 2)), \(formatFixed(o.error, decimals: 3)) from its ellipse (as a circle \(formatFixed(fitError, decimals: 3)))"
            )
            if asOval { fitError = o.error }
        }
        let swept = sweptAngle(path, around: c)
        fit = (c, r, fitError, swept)
        let cornerShare = turningConcentration(
            turning, in: kept, fraction: CircleRecognizer.cornerFraction, sorted: &sorted, sharpest: &sharpest)
        e.corners = sharpest.map { samples[$0] }
        e.notes.append(
            "radius \(formatFixed(r, decimals: 1)) mm, fit error \(formatFixed(fitError, decimals: 3)), swept \(formatFixed(swept, decimals: 0))°, sharpest fifth turns \(formatFixed(cornerShare * 100, decimals: 0))%"
        )
        if r < parameters.minRadiusMM {
            return .radius(r, min: parameters.minRadiusMM)
        }
        if fitError > parameters.tolerance && !asOval {
            return .fitError(fitError, tolerance: parameters.tolerance, oval: oval)
        }
        if abs(swept) < parameters.minSweepDegrees {
            return .sweptTooLittle(abs(swept), min: parameters.minSweepDegrees)
        }
        if abs(swept) > parameters.maxSweepDegrees {
            return .sweptTooMuch(abs(swept), max: parameters.maxSweepDegrees)
        }
        if let inner = e.innerBox, let p = path.first(where: { inner.contains($0) }) {
            return .insideInnerBox(p, halfSide: r * parameters.innerBoxFraction)
        }
        let coverage = (box?.area ?? 0) / (4 * r * r)
        if coverage < parameters.minBoxCoverage {
            return .coverage(coverage, min: parameters.minBoxCoverage)
        }
        let startGap = closingGap(path, around: c, fromStart: true) / r
        let endGap = closingGap(path, around: c, fromStart: false) / r
        let gap = min(startGap, endGap)
        if gap > parameters.maxEndGap {
            return .endGap(gap, max: parameters.maxEndGap)
        }
        if cornerShare > parameters.maxCornerShare {
            return .corners(cornerShare, max: parameters.maxCornerShare)
        }
        if let back = turnBack(hooked, radius: r) {
            return .turnsBack(back.degrees, fromEnd: back.fromEnd, maxHook: CircleRecognizer.hookRadii)
        }
        var straight = 0.0, straightOutside = 0.0
        var closing = loopClosings(
            samples, turning, in: kept, within: CircleRecognizer.closingRadii * r, after: Double.pi * r)
        // A loop that ends on its line, or short of it, comes back nowhere
        // within closingRadii: it closes where its end comes nearest.
        let approach = CircleRecognizer.approachRadii * r
        if closing.lead == nil,
            let n = nearestApproach(samples, turning, of: kept.upperBound - 1, in: kept, after: Double.pi * r),
            n.distance <= approach
        {
            closing.lead = n.segment
        }
        if closing.tail == nil,
            let n = nearestApproach(samples, turning, of: kept.lowerBound, in: kept, after: Double.pi * r),
            n.distance <= approach
        {
            closing.tail = n.segment + 1
        }
        straightStretches(
            turning, in: kept, fraction: CircleRecognizer.straightFraction, window: CircleRecognizer.straightWindow
        ) { from, to in
            let length = turning.length(from: from, to: to) / r
            straight = max(straight, length)
            // Begun where the loop closes or before, or ended there or after:
            // a line into or out of the loop runs on at least to that sample.
            let beforeLead = closing.lead.map { from <= $0 } ?? false
            let afterTail = closing.tail.map { to >= $0 } ?? false
            if beforeLead || afterTail {
                straightOutside = max(straightOutside, length)
            }
        }
        if straight > parameters.maxStraight {
            return .straight(straight, max: parameters.maxStraight)
        }
        // Outside only: a circle may start well inside its loop (one $1 subject
        // starts half a radius in), while a line into a loop comes from outside.
        let startOffset = max(0, path.first!.distance(to: c) - r) / r
        let endOffset = max(0, path.last!.distance(to: c) - r) / r
        let offset = max(startOffset, endOffset)
        let tailGap = startOffset >= endOffset ? startGap : endGap
        if offset * tailGap > parameters.maxTail {
            return .tail(offset: offset, gap: tailGap, atStart: startOffset >= endOffset, max: parameters.maxTail)
        }
        if straightOutside > CircleRecognizer.maxStraightOutsideLoop {
            return .straightOutsideLoop(straightOutside, max: CircleRecognizer.maxStraightOutsideLoop)
        }
        return nil
    }

    /// The stroke measured as an oval: its aspect, and how far it lies from its
    /// ellipse (the RMS distance from the circle fitted to it made round,
    /// relative to that circle's radius).
    private func ovalFit(_ path: ArraySlice<Point>) -> (Oval, ellipse: [Point]) {
        let rounding = roundOval(path, into: &rounded)
        var error = Double.infinity
        var ellipse: [Point] = []
        if let (c, r) = taubinCircleFit(rounded), r > 0 {
            error = radialFitError(rounded, center: c, radius: r)
            // The ellipse: the circle fitted to the rounded stroke, unrounded.
            ellipse = (0..<CircleRecognizer.ellipsePoints).map { i in
                let a = 2 * Double.pi * Double(i) / Double(CircleRecognizer.ellipsePoints)
                return rounding.unrounded(c + Point(x: cos(a), y: sin(a)) * r)
            }
        }
        let oval = Oval(
            aspect: rounding.aspect, error: error, tolerance: parameters.ovalTolerance,
            minAspect: parameters.minOvalAspect)
        return (oval, ellipse)
    }

    /// Points of the ellipse an oval's evidence draws.
    static let ellipsePoints = 48

    /// How far the stroke is from closing, seen from its start (or its end): the
    /// distance from that end to the other, or, if less, to the nearest point a
    /// full circle's sweep (`closingSweepDegrees`) along from it. A circle drawn round
    /// more than once ends far from its start but passes over it again.
    private func closingGap(_ path: ArraySlice<Point>, around c: Point, fromStart: Bool) -> Double {
        let turn = CircleRecognizer.closingSweepDegrees * Double.pi / 180
        let from = fromStart ? path.first! : path.last!
        var gap = path.first!.distance(to: path.last!)
        var swept = 0.0
        var prev = (from - c).angle
        func visit(_ p: Point) {
            let a = (p - c).angle
            swept += wrapAngle(a - prev)
            prev = a
            if abs(swept) >= turn { gap = min(gap, from.distance(to: p)) }
        }
        if fromStart {
            for p in path.dropFirst() { visit(p) }
        } else {
            for p in path.reversed().dropFirst() { visit(p) }
        }
        return gap
    }

    /// Where a stroke begun inside its loop reaches the loop: the first sample
    /// `leadInReach` radii or more from the centre, if the stroke starts
    /// `leadInMinStart` radii or more from it, moves only outward until then
    /// (never back in by more than `leadInSlack` radii) and gets there within
    /// `leadInMaxLength` radii along. Nil when the stroke starts on its loop or
    /// does not begin that way. An e's bar crosses the centre, coming in before
    /// it goes out; a spiral winds out for a turn or more.
    private func leadIn(_ kept: Range<Int>, around c: Point, radius r: Double) -> Int? {
        let first = kept.lowerBound
        var farthest = samples[first].distance(to: c) / r
        guard farthest >= CircleRecognizer.leadInMinStart, farthest <= CircleRecognizer.leadInMaxStart else {
            return nil
        }
        for i in (first + 1)..<kept.upperBound {
            guard turning.length(from: first, to: i) <= CircleRecognizer.leadInMaxLength * r else { return nil }
            let d = samples[i].distance(to: c) / r
            if d < farthest - CircleRecognizer.leadInSlack { return nil }
            if d >= CircleRecognizer.leadInReach { return i }
            farthest = max(farthest, d)
        }
        return nil
    }

    /// The sharpest turn back that is not a hook: a hook cut off farther than
    /// `hookRadii` from its end, or a turn of `maxTurnBackDegrees` or more inside
    /// the part kept. Nil when there is none.
    private func turnBack(_ kept: Range<Int>, radius r: Double) -> (degrees: Double, fromEnd: Double)? {
        let span = CircleRecognizer.turnSpan
        let last = samples.count - 1
        var worst: (degrees: Double, fromEnd: Double)? = nil
        func consider(_ i: Int) {
            let t = turning.degrees[i]
            guard t >= CircleRecognizer.maxTurnBackDegrees || i == kept.lowerBound || i == kept.upperBound - 1 else {
                return
            }
            let fromEnd = min(turning.length(from: 0, to: i), turning.length(from: i, to: last)) / r
            if fromEnd > CircleRecognizer.hookRadii && t > (worst?.degrees ?? 0) { worst = (t, fromEnd) }
        }
        if kept.lowerBound > 0 { consider(kept.lowerBound) }
        if kept.upperBound < samples.count { consider(kept.upperBound - 1) }
        var i = kept.lowerBound + span
        while i < kept.upperBound - span {
            if turning.degrees[i] >= CircleRecognizer.maxTurnBackDegrees { consider(i) }
            i += 1
        }
        return worst
    }

    public var evidence: Evidence { lastEvidence }
}

extension CircleRecognizer.Parameters {
    /// The config keys of a `circle` recognizer (`ParameterKey`).
    public static var keys: [ParameterKey<Self>] {
        [
            .number("tolerance", \.tolerance, 0.01...1, "RMS distance from the fitted circle / radius"),
            .number(
                "oval_tolerance", \.ovalTolerance, 0...1,
                "or, for an oval: RMS distance from its fitted ellipse / its mean radius (0: round circles only)"),
            .number(
                "min_oval_aspect", \.minOvalAspect, 0...1,
                "an oval's minor axis / major axis, at least (as measured on the stroke's points: a drawn 0.45 measures about 0.5)"
            ),
            .number("min_radius_mm", \.minRadiusMM, 0...500, "smaller circles are ignored"),
            .number(
                "min_sweep_deg", \.minSweepDegrees, 90...720, "degrees the stroke must turn around the centre",
                atMost: "max_sweep_deg"),
            .number("max_sweep_deg", \.maxSweepDegrees, 180...1440, "more than this is a spiral, not a circle"),
            .number(
                "inner_box_fraction", \.innerBoxFraction, 0...1,
                "no point may come nearer the centre than this box (× radius): rejects S, 8, spirals"),
            .number(
                "min_box_coverage", \.minBoxCoverage, 0...1,
                "the stroke's bounding box must cover this much of the circle's"),
            .number("max_end_gap", \.maxEndGap, 0...4, "start-to-end distance, in radii"),
            .number(
                "max_tail", \.maxTail, 0...16,
                "farther end's distance outside the circle × start-to-end gap, in radii²: rejects a line with a loop at its end (a P)"
            ),
            .number(
                "max_straight", \.maxStraight, 0...16,
                "longest stretch of the stroke turning less than a third of its average, in radii: rejects a line into or out of a loop (a lasso, a 9)"
            ),
            .number(
                "max_corner_share", \.maxCornerShare, 0.2...1,
                "share of the turning done in the sharpest fifth of the stroke (people's circles: 0.28–0.43)"),
            .millis("max_duration_ms", \.maxDuration, 100...60_000, "longest a circle may take"),
        ]
    }
}
