/// One-finger checkmark: a short stroke down and to the right, then a longer one
/// up and to the right.
///
/// Decided at lift on the resampled stroke, so that sensor jitter and a few
/// pixels of backtracking do not matter, with a hook at either end cut off (the
/// finger settling as it lands, flicking as it lifts): the vertex is the lowest
/// point (largest y) away from the ends; each arm is judged by its chord
/// (direction, length) and by how straight it is (path length / chord), never
/// point by point. What tells a checkmark from a V is that the second arm is
/// the longer one (for that, a rounded corner's arms are measured to where
/// their lines meet) and rises higher than the first fell — or, when it is
/// flat, runs farther right than the whole first arm is long. And it has one
/// corner (a W, or a v written with a lead-in, turns another) and a straight
/// long arm.
public final class CheckmarkRecognizer: Recognizer {
    public struct Parameters: Sendable, Equatable {
        /// Second arm length / first arm length, at least.
        public var minArmRatio = 1.4
        public var maxArmRatio = 8.0
        /// Second arm's rise / first arm's drop, at least.
        public var minRiseRatio = 1.5
        /// Or, for a flat second arm: its run to the right / the first arm's
        /// length, at least (and it ends above the start, after a first arm
        /// that went right). A short steep first arm and a long flat second one
        /// rise less than `minRiseRatio`, and so does a second arm flatter than
        /// the first that is only 1.5 times as long; a V's second arm runs right
        /// about as far as its first arm's run, short of that arm's length,
        /// however lopsided. A delete mark's first arm goes back left.
        public var minRunRatio = 1.0
        public var minLengthMM = 8.0
        /// First arm: angle below the horizontal, degrees (90 = straight down).
        public var firstArmMinDegrees = 0.0
        public var firstArmMaxDegrees = 115.0
        /// Second arm: angle above the horizontal, degrees.
        public var secondArmMinDegrees = 20.0
        public var secondArmMaxDegrees = 85.0
        /// Path length / chord of each arm, at most.
        public var maxArmBend = 1.7
        /// Turning anywhere but at the vertex's corner, at most (degrees,
        /// between chords of 2 mm or more; near the ends only a turn back
        /// counts): a checkmark has one corner. A W's second valley and a
        /// written v's lead-in turn a corner of their own.
        public var maxOtherCornerDegrees = 60.0
        /// The second arm, past the vertex's corner and short of a lift hook,
        /// strays from its chord at most this part of the chord's length: a
        /// checkmark's long arm is one straight stroke; a √ runs on along its bar.
        public var maxSecondArmBow = 0.25
        public var maxDuration = Millis(3000)
        public init() {}
    }

    public enum Failure: Sendable, Equatable {
        case tooFewPoints(Int)
        case tooShort(Double, min: Double)
        /// The lowest point is sample `n` of `of`, at an end.
        case noVertex(Int, of: Int)
        case firstArmAngle(Double, min: Double, max: Double)
        case secondArmAngle(Double, min: Double, max: Double)
        /// The arms' lengths to where their lines meet, `beyondCorner` mm
        /// outside a rounded corner (nil: to the lowest point).
        case armRatioLow(Double, min: Double, beyondCorner: Double?)
        case armRatioHigh(Double, max: Double)
        /// The second arm rises `rise` × the first arm's drop and runs right
        /// `run` × its length; a run far enough still asks that the stroke end
        /// above its start, after a first arm that went right.
        case rise(Double, min: Double, run: Double, minRun: Double, endsAbove: Bool, firstGoesRight: Bool)
        case bent(Double, Double, max: Double)
        /// A second corner: turning `degrees` at `at` (0…1 along the stroke).
        case secondCorner(Double, at: Double, max: Double)
        /// The second arm strays `bow` × its length from its chord.
        case secondArmBows(Double, max: Double)
    }

    public let kind = GestureKind.checkmark
    public let parameters: Parameters
    public let fingers: ClosedRange<Int> = 1...1
    private let drawing = ShapeDrawing()
    private var samples: [Point] = []
    private var lastEvidence = Evidence()
    static let sampleCount = 48
    /// A hook is at most this part of the stroke (a first arm is longer unless the
    /// arm ratio is past 9, beyond `maxArmRatio`) and turns back at least this
    /// much: as for the circle, a tenth, so that a 1–2 mm hook off a short stroke
    /// is cut rather than taken for part of the first arm.
    static let hookFraction = 0.1
    static let hookDegrees = 75.0

    public init(_ parameters: Parameters) {
        self.parameters = parameters
        samples.reserveCapacity(CheckmarkRecognizer.sampleCount)
    }

    public func reset() { drawing.reset() }

    public var stateDescription: String { drawing.description }

    public func handle(_ event: RecognizerEvent, _ frame: borrowing TouchFrame) -> Proposal {
        drawing.handle(event, frame, maxDuration: parameters.maxDuration, decide: decide)
    }

    /// The decision on a finished stroke.
    public func decide() -> Proposal {
        if let f = failure() { return .fail(.checkmark(f)) }
        return .recognize(drawing.tracker.report(.checkmark(vertex: vertex), at: vertex))
    }

    /// The vertex of the last stroke judged.
    private var vertex = Point.zero

    private func failure() -> Failure? {
        var e = Evidence()
        defer { lastEvidence = e }
        let stroke = drawing.tracker.stroke
        guard stroke.count >= 5 else { return .tooFewPoints(stroke.count) }
        resample(stroke.points, count: CheckmarkRecognizer.sampleCount, into: &samples)
        smooth(&samples)
        let kept = hookTrimmedRange(
            samples, maxFraction: CheckmarkRecognizer.hookFraction,
            minTurnDegrees: CheckmarkRecognizer.hookDegrees, span: 2)
        if kept.lowerBound > 0 { e.hookCuts.append(samples[kept.lowerBound]) }
        if kept.upperBound < samples.count { e.hookCuts.append(samples[kept.upperBound - 1]) }
        e.strokeBox = Box(bounding: samples[kept])
        let first = kept.lowerBound, last = kept.upperBound - 1
        var v = first + 1
        for i in (first + 1)..<last where samples[i].y > samples[v].y { v = i }
        let start = samples[first], lowest = samples[v], end = samples[last]
        e.vertex = lowest
        self.vertex = lowest
        e.chords = [start, lowest, end]
        let low1 = lowest - start, low2 = end - lowest
        if low1.length + low2.length < parameters.minLengthMM {
            return .tooShort(low1.length + low2.length, min: parameters.minLengthMM)
        }
        if v < first + 2 || v > last - 2 {
            return .noVertex(v - first + 1, of: last - first + 1)
        }
        let path1 = pathLength(first, v), path2 = pathLength(v, last)
        let span = max(
            2,
            Int(
                (CheckmarkRecognizer.cornerChordMM * Double(max(last - first, 1)) / max(path1 + path2, 0.001)).rounded(
                    .up))
        )
        let corner: ClosedRange<Int>? =
            first + span <= last - span ? vertexCorner(first: first, vertex: v, last: last, span: span) : nil
        // A rounded corner's lowest point is short of where the arms meet,
        // the shorter arm by the larger share, and slides towards the flatter
        // arm: for the arm ratio, their lengths are measured to where their
        // lines meet.
        let meet = corner.flatMap {
            $0.contains(v) ? armsMeet(first: first, corner: $0, last: last, lowest: lowest) : nil
        }
        let vertex = meet ?? lowest
        let a = vertex - start, b = end - vertex
        let firstAngle = degrees(atan2(low1.y, low1.x))
        let secondAngle = degrees(atan2(-low2.y, low2.x))
        e.notes.append(
            "first arm \(formatFixed(low1.length, decimals: 1)) mm at \(formatFixed(firstAngle, decimals: 0))° down, second \(formatFixed(low2.length, decimals: 1)) mm at \(formatFixed(secondAngle, decimals: 0))° up"
        )
        if firstAngle < parameters.firstArmMinDegrees || firstAngle > parameters.firstArmMaxDegrees {
            return .firstArmAngle(firstAngle, min: parameters.firstArmMinDegrees, max: parameters.firstArmMaxDegrees)
        }
        if secondAngle < parameters.secondArmMinDegrees || secondAngle > parameters.secondArmMaxDegrees {
            return .secondArmAngle(
                secondAngle, min: parameters.secondArmMinDegrees, max: parameters.secondArmMaxDegrees)
        }
        let ratio = b.length / max(a.length, 0.001)
        if ratio < parameters.minArmRatio {
            return .armRatioLow(ratio, min: parameters.minArmRatio, beyondCorner: meet.map { $0.distance(to: lowest) })
        }
        // Whether the first arm is long enough to be one (not a tick before a
        // slash) is judged on it as drawn.
        let drawnRatio = low2.length / max(low1.length, 0.001)
        if drawnRatio > parameters.maxArmRatio {
            return .armRatioHigh(drawnRatio, max: parameters.maxArmRatio)
        }
        let rise = (lowest.y - end.y) / max(lowest.y - start.y, 0.001)
        let run = low2.x / max(low1.length, 0.001)
        let endsAbove = end.y < start.y, firstGoesRight = low1.x > 0
        let flatSecondArm = run >= parameters.minRunRatio && endsAbove && firstGoesRight
        if rise < parameters.minRiseRatio && !flatSecondArm {
            return .rise(
                rise, min: parameters.minRiseRatio, run: run, minRun: parameters.minRunRatio, endsAbove: endsAbove,
                firstGoesRight: firstGoesRight)
        }
        // What a landing's blob or hook adds to the path within `leadInMM`
        // of the start, beyond going straight, is not the first arm's bend.
        var landed = first
        while landed < v - 1 && samples[landed].distance(to: start) < CheckmarkRecognizer.leadInMM { landed += 1 }
        let landing = min(
            pathLength(first, landed) - start.distance(to: samples[landed]), CheckmarkRecognizer.leadInMM)
        let bend1 = (path1 - landing) / max(low1.length, 0.001)
        let bend2 = path2 / max(low2.length, 0.001)
        if bend1 > parameters.maxArmBend || bend2 > parameters.maxArmBend {
            return .bent(bend1, bend2, max: parameters.maxArmBend)
        }
        guard let corner else { return nil }
        if let other = otherCorner(first: first, last: last, span: span, outside: corner) {
            e.corners = [samples[other.at]]
            return .secondCorner(
                other.degrees, at: Double(other.at - first) / Double(max(last - first, 1)), max: other.limit)
        }
        // The second arm from where the corner ends to short of a lift hook.
        let stop = max(
            corner.upperBound + 1, last - Int((Double(last - first) * CheckmarkRecognizer.liftFraction).rounded(.up)))
        let from = samples[corner.upperBound], to = samples[min(stop, last)]
        var bow = 0.0
        for i in corner.upperBound...min(stop, last) { bow = max(bow, distance(from: samples[i], toSegment: from, to)) }
        bow /= max(from.distance(to: to), 0.001)
        if bow > parameters.maxSecondArmBow { return .secondArmBows(bow, max: parameters.maxSecondArmBow) }
        return nil
    }

    /// The vertex's own corner: the run of samples about it that turn at least
    /// `cornerFloorDegrees` over chords of `span` samples (a rounded corner
    /// turns over several).
    private func vertexCorner(first: Int, vertex v: Int, last: Int, span: Int) -> ClosedRange<Int> {
        var left = min(max(v, first + span), last - span), right = left
        while left > first + span
            && turningDegrees(samples, at: left - 1, span: span) >= CheckmarkRecognizer.cornerFloorDegrees
        {
            left -= 1
        }
        while right < last - span
            && turningDegrees(samples, at: right + 1, span: span) >= CheckmarkRecognizer.cornerFloorDegrees
        {
            right += 1
        }
        return left...right
    }

    /// Where the arms' lines meet, when the corner is rounded: the first arm's
    /// line from the start to where the corner (`vertexCorner`) begins, the
    /// second's from where it ends to the end. Only where each arm has a line
    /// of its own (at least half of it lies outside the corner), only outside
    /// the stroke's lowest point (farther from the line between start and
    /// end, on the lowest point's side), and no farther from it than the
    /// corner's path is long: a cusp, where the first arm curves down into
    /// the corner, is its own vertex.
    private func armsMeet(first: Int, corner: ClosedRange<Int>, last: Int, lowest: Point) -> Point? {
        let p1 = samples[first], q1 = samples[corner.lowerBound]
        let p2 = samples[corner.upperBound], q2 = samples[last]
        let d1 = q1 - p1, d2 = q2 - p2
        guard d1.length >= 0.5 * lowest.distance(to: p1), d2.length >= 0.5 * lowest.distance(to: q2) else { return nil }
        let cross = d1.x * d2.y - d1.y * d2.x
        guard d1.length > 0, d2.length > 0, abs(cross) > 1e-9 * d1.length * d2.length else { return nil }
        let w = p2 - p1
        let t = (w.x * d2.y - w.y * d2.x) / cross
        let meet = p1 + d1 * t
        guard meet.distance(to: lowest) <= pathLength(corner.lowerBound, corner.upperBound) else { return nil }
        // Outside: farther from the line between start and end than the
        // lowest point, on its side.
        let chord = q2 - p1
        func outward(_ q: Point) -> Double {
            let r = q - p1
            return (r.y * chord.x - r.x * chord.y) / max(chord.length, 0.001)
        }
        let side: Double = outward(lowest) < 0 ? -1 : 1
        return side * outward(meet) > side * outward(lowest) ? meet : nil
    }

    /// The sharpest turn outside the vertex's corner, if sharper than
    /// `maxOtherCornerDegrees`: over chords of `span` samples, at least
    /// `cornerChordMM` (so that a sensor's jitter on a small stroke makes no
    /// corner). None counts within `leadInMM` of the start, a landing finger's
    /// blob or hook, however far along the stroke its settling has taken the
    /// samples. Near the ends (`cornerEndFraction` of the stroke and a chord),
    /// where a landing hook or a lift flick turns that was not cut off, none
    /// counts but a turn back (`cuspDegrees`) near the start: a written v's
    /// lead-in.
    private func otherCorner(first: Int, last: Int, span: Int, outside corner: ClosedRange<Int>) -> (
        at: Int, degrees: Double, limit: Double
    )? {
        let end = span + Int((Double(last - first) * CheckmarkRecognizer.cornerEndFraction).rounded(.up))
        // A stroke of a few millimetres (`min_length_mm` lowered) may be all ends.
        guard first + span <= last - end else { return nil }
        var sharpest: (at: Int, degrees: Double, limit: Double)?
        for i in (first + span)...(last - end) where !corner.contains(i) {
            // Within a landing finger's blob or hook of the start, however far
            // along the stroke its settling has taken the samples, no corner.
            guard samples[first].distance(to: samples[i]) >= CheckmarkRecognizer.leadInMM else { continue }
            var limit = parameters.maxOtherCornerDegrees
            // Near the start, only a turn back: a lead-in.
            if i < first + end { limit = max(CheckmarkRecognizer.cuspDegrees, limit) }
            let t = turningDegrees(samples, at: i, span: span)
            if t > limit && t > (sharpest?.degrees ?? 0) { sharpest = (i, t, limit) }
        }
        return sharpest
    }
    static let cornerChordMM = 2.0
    static let cornerFloorDegrees = 15.0
    static let cornerEndFraction = 0.12
    static let cuspDegrees = 100.0
    static let leadInMM = 2.5
    /// The end of the stroke a lift hook may bend, left out of the second arm's bow.
    static let liftFraction = 0.08

    private func pathLength(_ from: Int, _ to: Int) -> Double {
        var len = 0.0
        var i = from + 1
        while i <= to {
            len += samples[i].distance(to: samples[i - 1])
            i += 1
        }
        return len
    }

    public var evidence: Evidence { lastEvidence }
}

extension CheckmarkRecognizer.Parameters {
    /// The config keys of a `checkmark` recognizer (`ParameterKey`).
    public static var keys: [ParameterKey<Self>] {
        [
            .number(
                "min_arm_ratio", \.minArmRatio, 0.1...20, "second arm at least this many times as long as the first",
                atMost: "max_arm_ratio"),
            .number(
                "max_arm_ratio", \.maxArmRatio, 0.1...50, "second arm at most this many times as long as the first"),
            .number(
                "min_rise_ratio", \.minRiseRatio, 0...50,
                "second arm rises at least this many times the first arm's drop"),
            .number(
                "min_run_ratio", \.minRunRatio, 0...50,
                "or runs right at least this many times the first arm's length, after a first arm that went right (a flat second arm)"
            ),
            .number("min_length_mm", \.minLengthMM, 0...500, "both arms together"),
            .number(
                "first_arm_min_deg", \.firstArmMinDegrees, -90...180,
                "first arm's angle below horizontal (90 = straight down)",
                atMost: "first_arm_max_deg"),
            .number("first_arm_max_deg", \.firstArmMaxDegrees, -90...180, "first arm's largest angle below horizontal"),
            .number(
                "second_arm_min_deg", \.secondArmMinDegrees, -90...180, "second arm's angle above horizontal",
                atMost: "second_arm_max_deg"),
            .number(
                "second_arm_max_deg", \.secondArmMaxDegrees, -90...180, "second arm's largest angle above horizontal"),
            .number("max_arm_bend", \.maxArmBend, 1...10, "path length / straight length of each arm"),
            .number(
                "max_other_corner_deg", \.maxOtherCornerDegrees, 0...180,
                "sharpest turn anywhere but at the vertex (a checkmark has one corner)"),
            .number(
                "max_second_arm_bow", \.maxSecondArmBow, 0...10,
                "second arm's farthest point from its chord / the chord's length (past the corner, short of a lift hook)"
            ),
            .millis("max_duration_ms", \.maxDuration, 100...60_000, "longest a checkmark may take"),
        ]
    }
}
