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

    public enum Failure: Sendable, Equatable {
        case timedOut(max: Millis)
        case tooShort(Double, min: Double)
        case tooSlow(Double, min: Double)
        /// This many degrees off the nearest direction.
        case offAxis(Double, Direction, max: Double)
        case directionNotAllowed(Direction, allowed: Set<Direction>)
    }

    enum State {
        case idle
        /// Fingers down since `since`, the centroid first at `start`.
        case tracking(since: EventTime, start: Point)
        case done
    }

    public let kind = GestureKind.swipe
    public let parameters: Parameters
    public var fingers: ClosedRange<Int> { parameters.fingers...parameters.fingers }
    private var state = State.idle
    /// Landing and lifting fingers do not count as travel.
    private var centroidTranslation = CentroidTranslation()

    public init(_ parameters: Parameters) { self.parameters = parameters }

    public func reset() {
        state = .idle
        centroidTranslation.reset()
    }

    public var deadline: EventTime? {
        if case .tracking(let since, _) = state { since + parameters.maxDuration } else { nil }
    }

    public var stateDescription: String {
        switch state {
        case .idle: "idle"
        case .tracking: "tracking"
        case .done: "done"
        }
    }

    public func handle(_ event: RecognizerEvent, _ frame: borrowing TouchFrame) -> Proposal {
        switch (state, event) {
        case (.idle, .frame(let input)):
            return track(frame, input, since: frame.time, start: frame.centroid)
        case (.tracking(let since, let start), .frame(let input)):
            return track(frame, input, since: since, start: start)
        case (.tracking, .timeout):
            return fail(.timedOut(max: parameters.maxDuration))
        case (.idle, .timeout), (.done, _):
            return .none
        }
    }

    private func track(_ frame: borrowing TouchFrame, _ input: TouchInput, since: EventTime, start: Point) -> Proposal {
        let translation = centroidTranslation.update(frame)
        guard input.isLast else {
            state = .tracking(since: since, start: start)
            return .none
        }
        let distance = translation.length
        if distance < parameters.minDistanceMM { return fail(.tooShort(distance, min: parameters.minDistanceMM)) }
        let speed = distance / max((frame.time - since).seconds, 0.001)
        if speed < parameters.minSpeedMMPerS { return fail(.tooSlow(speed, min: parameters.minSpeedMMPerS)) }
        let direction: Direction
        let off: Double
        if abs(translation.x) >= abs(translation.y) {
            direction = translation.x > 0 ? .right : .left
            off = degrees(atan2(abs(translation.y), abs(translation.x)))
        } else {
            direction = translation.y > 0 ? .down : .up
            off = degrees(atan2(abs(translation.x), abs(translation.y)))
        }
        if off > parameters.maxAngleDegrees { return fail(.offAxis(off, direction, max: parameters.maxAngleDegrees)) }
        if !parameters.directions.contains(direction) {
            return fail(.directionNotAllowed(direction, allowed: parameters.directions))
        }
        state = .done
        return .recognize(Report(detail: .swipe(direction: direction.rawValue, translation: translation, speedMMPerS: speed),
                                 fingers: input.maxFingers, location: start,
                                 locationNormalised: normalised(start, in: frame.areaMM)))
    }

    private func fail(_ f: Failure) -> Proposal {
        state = .done
        return .fail(.swipe(f))
    }
}
