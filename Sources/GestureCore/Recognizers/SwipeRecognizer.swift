/// Swipe: `fingers` fingers moving fast and mostly straight in one direction, then
/// lifting. Discrete, decided at lift: the centroid must have travelled at least
/// `minDistanceMM` within `maxDuration`, at `minSpeedMMPerS` on average, within
/// `maxAngleDegrees` of one of the allowed directions. Reports the direction.
public final class SwipeRecognizer: Recognizer {
    public enum Direction: String, Sendable, CaseIterable { case left, right, up, down }

    public struct Parameters: Sendable, Equatable {
        public var fingers = 1
        public var directions: Set<Direction> = Set(Direction.allCases)
        public var minDistanceMM = 15.0
        public var minSpeedMMPerS = 80.0
        public var maxDuration = Millis(800)
        public var maxAngleDegrees = 30.0
        public init() {}
    }

    enum State { case idle, tracking, decided }

    public let kind = GestureKind.swipe
    public let parameters: Parameters
    private var state = State.idle
    private var start = Point.zero
    private var startTime = EventTime.zero
    private var maxFingers = 0
    /// Landing and lifting fingers do not count as travel.
    private var centroidTranslation = CentroidTranslation()

    public init(_ parameters: Parameters) { self.parameters = parameters }

    public func reset() {
        state = .idle
        maxFingers = 0
        centroidTranslation.reset()
    }

    public var deadline: EventTime? { state == .tracking ? startTime + parameters.maxDuration : nil }

    public func timeout(at time: EventTime) -> Proposal {
        guard state == .tracking else { return .none }
        state = .decided
        return .fail("took longer than \(parameters.maxDuration)")
    }

    public func handle(_ frame: borrowing TouchFrame) -> Proposal {
        if state == .decided { return .none }
        if frame.anyCancelled { state = .decided; return .fail("touch cancelled") }
        let live = frame.liveCount
        if state == .idle {
            state = .tracking
            startTime = frame.time
            start = frame.centroid
        }
        let translation = centroidTranslation.update(frame)
        maxFingers = max(maxFingers, live)
        if maxFingers > parameters.fingers {
            state = .decided
            return .fail("\(maxFingers) fingers > \(parameters.fingers)")
        }
        guard frame.isLast else { return .none }
        state = .decided
        if maxFingers < parameters.fingers {
            return .fail("\(maxFingers) finger\(maxFingers == 1 ? "" : "s") < \(parameters.fingers)")
        }
        let distance = translation.length
        if distance < parameters.minDistanceMM {
            return .fail("travelled \(formatFixed(distance, decimals: 1)) mm < \(formatFixed(parameters.minDistanceMM, decimals: 1)) mm")
        }
        let seconds = max((frame.time - startTime).seconds, 0.001)
        let speed = distance / seconds
        if speed < parameters.minSpeedMMPerS {
            return .fail("speed \(formatFixed(speed, decimals: 0)) mm/s < \(formatFixed(parameters.minSpeedMMPerS, decimals: 0)) mm/s")
        }
        let direction: Direction
        let off: Double
        if abs(translation.x) >= abs(translation.y) {
            direction = translation.x > 0 ? .right : .left
            off = degrees(atan2(abs(translation.y), abs(translation.x)))
        } else {
            direction = translation.y > 0 ? .down : .up
            off = degrees(atan2(abs(translation.x), abs(translation.y)))
        }
        if off > parameters.maxAngleDegrees {
            return .fail("\(formatFixed(off, decimals: 0))° off \(direction.rawValue) > \(formatFixed(parameters.maxAngleDegrees, decimals: 0))°")
        }
        if !parameters.directions.contains(direction) {
            return .fail("direction \(direction.rawValue) not in \(parameters.directions.map(\.rawValue).sorted().joined(separator: ", "))")
        }
        return .recognize(Report(detail: .swipe(direction: direction.rawValue, translation: translation, speedMMPerS: speed),
                                 fingers: maxFingers, location: start,
                                 locationNormalised: normalise(start, frame.areaMM)))
    }
}

func normalise(_ p: Point, _ area: Point) -> Point {
    Point(x: area.x > 0 ? p.x / area.x : 0, y: area.y > 0 ? p.y / area.y : 0)
}
