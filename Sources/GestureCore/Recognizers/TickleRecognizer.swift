/// Tickle: quick back-and-forth scrubbing along x with one finger. Counts
/// direction reversals, each after at least `minTravelMM` of travel; recognized
/// as soon as `reversals` are reached. Fails at once when a stroke takes longer
/// than `maxStrokeDuration` (too slow) or moves more vertically than
/// `maxVerticalRatio` times its horizontal travel (too vertical).
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

    enum State { case tracking, decided }

    public let kind = GestureKind.tickle
    public let parameters: Parameters
    private var state = State.tracking
    private var tracker = SingleFingerTracker()
    /// +1 moving right, -1 moving left, 0 not yet moving.
    private var direction = 0
    private var extreme = Point.zero
    private var extremeTime = EventTime.zero
    private var strokeStart = Point.zero
    private var strokeStartTime = EventTime.zero
    private var count = 0
    private var reversalPoints: [Point] = []
    private var started = false
    private var resting = true

    /// Movement of a finger that has landed and not started scrubbing yet.
    static let restMM = 1.0

    public init(_ parameters: Parameters) {
        self.parameters = parameters
        reversalPoints.reserveCapacity(16)
    }

    public func reset() {
        state = .tracking
        tracker.reset()
        direction = 0
        count = 0
        started = false
        resting = true
        reversalPoints.removeAll(keepingCapacity: true)
    }

    public var deadline: EventTime? {
        guard state == .tracking, started else { return nil }
        // A finger resting where it landed sends no frames; the clock starts when it moves.
        if direction == 0, let p = tracker.stroke.last, p.distance(to: strokeStart) < TickleRecognizer.restMM { return nil }
        // Coming back from the farthest point: that was the turn, and the next
        // stroke started there.
        if direction != 0, let p = tracker.stroke.last, Double(direction) * (p.x - extreme.x) < 0 {
            return extremeTime + parameters.maxStrokeDuration
        }
        return strokeStartTime + parameters.maxStrokeDuration
    }

    public func timeout(at time: EventTime) -> Proposal {
        guard state == .tracking else { return .none }
        state = .decided
        return .fail("too slow: stroke \(count + 1) took longer than \(parameters.maxStrokeDuration) (\(count) reversal\(count == 1 ? "" : "s"))")
    }

    public func handle(_ frame: borrowing TouchFrame) -> Proposal {
        guard state == .tracking else { return .none }
        let step = tracker.feed(frame)
        if tracker.maxFingers > 1 { state = .decided; return .fail("\(tracker.maxFingers) fingers; tickle is one finger") }
        guard let p = tracker.stroke.last else { return .none }
        if !started {
            started = true
            extreme = p; strokeStart = p; strokeStartTime = frame.time; extremeTime = frame.time
        }
        switch step {
        case .cancelled:
            state = .decided
            return .fail("touch cancelled")
        case .nothing:
            return .none
        case .moved, .lifted:
            break
        }
        let dx = p.x - extreme.x
        if direction == 0 {
            if p.distance(to: strokeStart) < TickleRecognizer.restMM {
                strokeStartTime = frame.time // still resting where it landed
            } else if resting {
                // Resting frames stop coming when the finger is still: the first
                // stroke is timed from the first frame that moves.
                resting = false
                strokeStartTime = frame.time
            }
            if !resting && abs(dx) >= parameters.minTravelMM {
                direction = dx > 0 ? 1 : -1
                extreme = p; extremeTime = frame.time
            }
        } else if (Double(direction) * dx) > 0 {
            // Further along the current direction.
            extreme = p; extremeTime = frame.time
            if extremeTime - strokeStartTime > parameters.maxStrokeDuration {
                state = .decided
                return .fail("too slow: stroke \(count + 1) took \(extremeTime - strokeStartTime) > \(parameters.maxStrokeDuration) (\(count) reversal\(count == 1 ? "" : "s"))")
            }
        } else if abs(dx) >= parameters.minTravelMM {
            // Reversal: the finished stroke ran from strokeStart to extreme.
            if let why = checkStroke(to: extreme, at: frame.time) { state = .decided; return .fail(why) }
            count += 1
            reversalPoints.append(extreme)
            strokeStart = extreme
            strokeStartTime = extremeTime
            direction = -direction
            extreme = p; extremeTime = frame.time
            if count >= parameters.reversals {
                state = .decided
                return .recognize(tracker.report(.tickle(reversals: count)))
            }
        }
        if step == .lifted {
            state = .decided
            return .fail("\(count) reversal\(count == 1 ? "" : "s") < \(parameters.reversals)")
        }
        return .none
    }

    private func checkStroke(to end: Point, at time: EventTime) -> String? {
        let d = end - strokeStart
        let vertical = abs(d.y), horizontal = abs(d.x)
        if vertical > horizontal * parameters.maxVerticalRatio {
            return "too vertical: stroke \(count + 1) moved \(formatFixed(vertical, decimals: 1)) mm up/down for \(formatFixed(horizontal, decimals: 1)) mm across (max ratio \(formatFixed(parameters.maxVerticalRatio, decimals: 2)))"
        }
        return nil
    }

    public var evidence: Evidence {
        var e = Evidence()
        e.reversals = reversalPoints
        e.strokeBox = Box(bounding: tracker.stroke.points)
        return e
    }
}
