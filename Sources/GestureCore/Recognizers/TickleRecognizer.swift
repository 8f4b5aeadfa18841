/// Tickle: quick back-and-forth scrubbing along x with one finger. Counts
/// direction reversals, each after at least `minTravelMM` of travel; recognized
/// as soon as `reversals` are reached. Fails at once when a stroke takes longer
/// than `maxStrokeDuration` (too slow) or moves more vertically than
/// `maxVerticalRatio` times its horizontal travel (too vertical), and at the last
/// reversal when the strokes together crept up or down more than `maxDrift` mm
/// per mm across: scrubbing stays on its line, while a zigzag that works its way
/// down — a quickly drawn curly brace — is no tickle. Nor is one whose strokes
/// from turn to turn differ in length more than `maxAmplitudeRatio` times:
/// scrubbing goes back and forth over about the same span, a brace swings wide
/// at its curls and short at its point. Nor, at a turn, is one whose stroke
/// arched up or down more than `maxBow` times its width: scrubbing goes along a
/// line and back, while loops drawn in a row (cursive e's, a telephone cord)
/// turn back across at each loop's sides with the halves between arching over
/// its top and under its bottom.
///
/// A stroke runs from one turn to the next, timed from turn point to turn point
/// (not to the moment the travel back confirms the turn), and the first one from
/// when the finger starts moving, not from when it lands.
public final class TickleRecognizer: Recognizer {
    public struct Parameters: Sendable, Equatable {
        public var reversals = 4
        public var minTravelMM = 6.0
        public var maxStrokeDuration = Millis(400)
        public var maxVerticalRatio = 0.6
        public init() {}
    }

    public enum Failure: Sendable, Equatable {
        /// Stroke `stroke` took `took` (nil: the timer ran out first) > `max`.
        case strokeTooSlow(stroke: Int, took: Millis?, max: Millis, reversals: Int)
        case tooVertical(stroke: Int, vertical: Double, horizontal: Double, maxRatio: Double)
        /// The finished strokes together moved `vertical` mm up or down for
        /// `horizontal` mm across.
        case drifted(vertical: Double, horizontal: Double, maxRatio: Double)
        /// The strokes from turn to turn went between `shortest` and `longest` mm across.
        case irregular(shortest: Double, longest: Double, maxRatio: Double)
        /// Stroke `stroke` arched `bow` mm up or down beyond its chord for `horizontal` mm across.
        case bowed(stroke: Int, bow: Double, horizontal: Double, maxRatio: Double)
        case tooFewReversals(Int, needed: Int)
    }

    /// Where the scrubbing is.
    struct Scrub {
        /// +1 moving right, -1 moving left, 0 not yet moving.
        var direction = 0
        /// Still where it landed (within `restMM`).
        var resting = true
        /// The farthest point along the current direction, and when it was reached.
        var extreme: Point
        var extremeTime: EventTime
        var strokeStart: Point
        var strokeStartTime: EventTime
        /// The highest and lowest y the current stroke reached.
        var top = Double.infinity
        var bottom = -Double.infinity
        var reversals = 0
        /// Signed vertical and absolute horizontal travel of the finished strokes.
        var vertical = 0.0
        var horizontal = 0.0
        /// The shortest and longest horizontal travel of the finished strokes
        /// from turn to turn (all but the first, which starts where it landed).
        var shortest = Double.infinity
        var longest = 0.0
    }

    enum State {
        /// Its finger has not reported a position yet.
        case waiting
        /// Landed; not yet `minTravelMM` across.
        case starting(Scrub)
        case scrubbing(Scrub)
        case done
    }

    public let kind = GestureKind.tickle
    public let parameters: Parameters
    public let fingers: ClosedRange<Int> = 1...1
    private var state = State.waiting
    private var tracker = SingleFingerTracker()
    private var reversalPoints: [Point] = []

    /// Movement of a finger that has landed and not started scrubbing yet.
    static let restMM = 1.0
    /// Net vertical travel of the finished strokes per mm of horizontal travel, at
    /// most. Scrubbing that creeps stays near 0.25; curly braces drawn quickly go
    /// 0.34 and more (the $1 corpus).
    static let maxDrift = 0.3
    /// Longest / shortest stroke from turn to turn, at most. Scrubbing goes back
    /// and forth over about the same span (±20 % a stroke in the synthetic
    /// tickles: 1.5 at most); a quickly drawn curly brace swings wide at its
    /// curls and short at its point.
    static let maxAmplitudeRatio = 2.0
    /// How far a stroke may arch up or down beyond the straight line from turn to
    /// turn, per mm across. The synthetic tickles wobble up to 0.15 (plus
    /// jitter); loops drawn in a row arch 0.35 and more on their way back.
    static let maxBow = 0.3

    public init(_ parameters: Parameters) {
        self.parameters = parameters
        reversalPoints.reserveCapacity(16)
    }

    public func reset() {
        state = .waiting
        tracker.reset()
        reversalPoints.removeAll(keepingCapacity: true)
    }

    public var deadline: EventTime? {
        switch state {
        case .waiting, .done:
            return nil
        case .starting(let s):
            // A finger resting where it landed sends no frames; the clock starts when it moves.
            if let p = tracker.stroke.last, p.distance(to: s.strokeStart) < TickleRecognizer.restMM { return nil }
            return s.strokeStartTime + parameters.maxStrokeDuration
        case .scrubbing(let s):
            // Coming back from the farthest point: that was the turn, and the next
            // stroke started there.
            if let p = tracker.stroke.last, Double(s.direction) * (p.x - s.extreme.x) < 0 {
                return s.extremeTime + parameters.maxStrokeDuration
            }
            return s.strokeStartTime + parameters.maxStrokeDuration
        }
    }

    public var stateDescription: String {
        switch state {
        case .waiting: "waiting"
        case .starting(let s): s.resting ? "starting(resting)" : "starting(moving)"
        case .scrubbing(let s): "scrubbing(\(s.direction > 0 ? "right" : "left"), \(s.reversals) reversals)"
        case .done: "done"
        }
    }

    public func handle(_ event: RecognizerEvent, _ frame: borrowing TouchFrame) -> Proposal {
        switch (state, event) {
        case (.waiting, .frame):
            let followed = tracker.feed(frame)
            guard let p = tracker.stroke.last else { return .none }
            var s = Scrub(extreme: p, extremeTime: frame.time, strokeStart: p, strokeStartTime: frame.time)
            guard followed != .absent else {
                state = .starting(s)
                return .none
            }
            return start(&s, p, frame.time, lifted: followed == .lifted)
        case (.starting(var s), .frame):
            let followed = tracker.feed(frame)
            guard followed != .absent, let p = tracker.stroke.last else { return .none }
            return start(&s, p, frame.time, lifted: followed == .lifted)
        case (.scrubbing(var s), .frame):
            let followed = tracker.feed(frame)
            guard followed != .absent, let p = tracker.stroke.last else { return .none }
            return scrub(&s, p, frame.time, lifted: followed == .lifted)
        case (.starting(let s), .timeout), (.scrubbing(let s), .timeout):
            return fail(
                .strokeTooSlow(
                    stroke: s.reversals + 1, took: nil, max: parameters.maxStrokeDuration,
                    reversals: s.reversals))
        case (.waiting, .timeout), (.done, _):
            return .none
        }
    }

    /// Not moving across yet: resting where it landed, or setting off.
    private func start(_ s: inout Scrub, _ p: Point, _ time: EventTime, lifted: Bool) -> Proposal {
        let dx = p.x - s.extreme.x
        if p.distance(to: s.strokeStart) < TickleRecognizer.restMM {
            s.strokeStartTime = time  // still resting where it landed
        } else if s.resting {
            // Resting frames stop coming when the finger is still: the first
            // stroke is timed from the first frame that moves.
            s.resting = false
            s.strokeStartTime = time
        }
        if !s.resting && abs(dx) >= parameters.minTravelMM {
            s.direction = dx > 0 ? 1 : -1
            s.extreme = p
            s.extremeTime = time
            s.top = min(s.strokeStart.y, p.y)
            s.bottom = max(s.strokeStart.y, p.y)
            state = .scrubbing(s)
        } else {
            state = .starting(s)
        }
        return lifted ? fail(.tooFewReversals(0, needed: parameters.reversals)) : .none
    }

    private func scrub(_ s: inout Scrub, _ p: Point, _ time: EventTime, lifted: Bool) -> Proposal {
        let dx = p.x - s.extreme.x
        if Double(s.direction) * dx > 0 {
            // Further along the current direction.
            s.extreme = p
            s.extremeTime = time
            s.top = min(s.top, p.y)
            s.bottom = max(s.bottom, p.y)
            if s.extremeTime - s.strokeStartTime > parameters.maxStrokeDuration {
                return fail(
                    .strokeTooSlow(
                        stroke: s.reversals + 1, took: s.extremeTime - s.strokeStartTime,
                        max: parameters.maxStrokeDuration, reversals: s.reversals))
            }
        } else if abs(dx) >= parameters.minTravelMM {
            // Reversal: the finished stroke ran from strokeStart to extreme.
            let d = s.extreme - s.strokeStart
            if abs(d.y) > abs(d.x) * parameters.maxVerticalRatio {
                return fail(
                    .tooVertical(
                        stroke: s.reversals + 1, vertical: abs(d.y), horizontal: abs(d.x),
                        maxRatio: parameters.maxVerticalRatio))
            }
            let bow = s.bottom - s.top - abs(d.y)
            if bow > abs(d.x) * TickleRecognizer.maxBow {
                return fail(
                    .bowed(
                        stroke: s.reversals + 1, bow: bow, horizontal: abs(d.x), maxRatio: TickleRecognizer.maxBow))
            }
            s.vertical += d.y
            s.horizontal += abs(d.x)
            if s.reversals > 0 {
                s.shortest = min(s.shortest, abs(d.x))
                s.longest = max(s.longest, abs(d.x))
            }
            s.reversals += 1
            reversalPoints.append(s.extreme)
            s.strokeStart = s.extreme
            s.strokeStartTime = s.extremeTime
            s.direction = -s.direction
            s.extreme = p
            s.extremeTime = time
            s.top = min(s.strokeStart.y, p.y)
            s.bottom = max(s.strokeStart.y, p.y)
            if s.reversals >= parameters.reversals {
                if abs(s.vertical) > s.horizontal * TickleRecognizer.maxDrift {
                    return fail(
                        .drifted(
                            vertical: abs(s.vertical), horizontal: s.horizontal,
                            maxRatio: TickleRecognizer.maxDrift))
                }
                if s.longest > s.shortest * TickleRecognizer.maxAmplitudeRatio {
                    return fail(
                        .irregular(
                            shortest: s.shortest, longest: s.longest, maxRatio: TickleRecognizer.maxAmplitudeRatio))
                }
                state = .done
                return .recognize(tracker.report(.tickle(reversals: s.reversals)))
            }
        }
        state = .scrubbing(s)
        return lifted ? fail(.tooFewReversals(s.reversals, needed: parameters.reversals)) : .none
    }

    private func fail(_ f: Failure) -> Proposal {
        state = .done
        return .fail(.tickle(f))
    }

    public var evidence: Evidence {
        var e = Evidence()
        e.reversals = reversalPoints
        e.strokeBox = Box(bounding: tracker.stroke.points)
        return e
    }
}

extension TickleRecognizer.Parameters {
    /// The config keys of a `tickle` recognizer (`ParameterKey`).
    public static var keys: [ParameterKey<Self>] {
        [
            .integer("reversals", \.reversals, 1...50, "direction changes needed"),
            .number("min_travel_mm", \.minTravelMM, 0.5...200, "travel before a turn counts"),
            .millis("max_stroke_ms", \.maxStrokeDuration, 20...5_000, "a stroke slower than this fails (too slow)"),
            .number(
                "max_vertical_ratio", \.maxVerticalRatio, 0...10, "vertical / horizontal travel of a stroke, at most"),
        ]
    }
}
