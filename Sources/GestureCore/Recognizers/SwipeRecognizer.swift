/// Swipe: `fingers` fingers moving fast and mostly straight in one direction, then
/// lifting. Discrete, decided at lift, by speed and straightness rather than by a
/// fixed duration: the centroid must have travelled at least `minDistanceMM` and
/// `minLength` of the screen's extent along the motion, at `minSpeedMMPerS` on
/// average and still at a quarter of it over the last 80 ms before the lift (a
/// finger easing out still moves; one that stopped before lifting placed
/// something, it did not swipe), with a path
/// at most 1 / `minStraightness` times the straight line, within
/// `maxAngleDegrees` of one of the allowed directions. With a diagonal among the
/// directions, the nearest of all eight is taken; else the nearest of the four.
/// `maxDuration` (0: none) bounds it in time as well. Reports the direction.
public final class SwipeRecognizer: Recognizer {
    public enum Direction: String, Sendable, CaseIterable {
        case left, right, up, down
        case upLeft = "up_left", upRight = "up_right", downLeft = "down_left", downRight = "down_right"

        public var isDiagonal: Bool {
            switch self {
            case .left, .right, .up, .down: false
            case .upLeft, .upRight, .downLeft, .downRight: true
            }
        }

        /// Its angle on the screen: degrees clockwise from right (y grows downwards).
        var degrees: Double {
            switch self {
            case .right: 0
            case .downRight: 45
            case .down: 90
            case .downLeft: 135
            case .left: 180
            case .upLeft: 225
            case .up: 270
            case .upRight: 315
            }
        }

        static let cardinal: [Direction] = [.right, .down, .left, .up]
        static let all: [Direction] = [.right, .downRight, .down, .downLeft, .left, .upLeft, .up, .upRight]

        /// Its bit in a set of directions kept as one byte (`SwipeRecognizer.allowed`).
        var bit: UInt8 {
            switch self {
            case .right: 1
            case .downRight: 2
            case .down: 4
            case .downLeft: 8
            case .left: 16
            case .upLeft: 32
            case .up: 64
            case .upRight: 128
            }
        }
    }

    public struct Parameters: Sendable, Equatable {
        public var fingers = 1
        public var directions: Set<Direction> = [.left, .right, .up, .down]
        public var minDistanceMM = 15.0
        /// Fraction of the screen's extent along the motion (width, height, or the
        /// diagonal for a diagonal swipe); lisgd's S, M, L are 0, 0.33, 0.66.
        public var minLength = 0.0
        public var minSpeedMMPerS = 80.0
        /// 0: no limit.
        public var maxDuration = Millis(0)
        public var maxAngleDegrees = 30.0
        /// Straight-line travel / path length of the centroid.
        public var minStraightness = 0.75
        public init() {}

        /// The largest `maxAngleDegrees` with diagonals among the directions:
        /// beyond it, neighbouring directions would overlap.
        public static let maxAngleWithDiagonals = 22.5
        public var usesDiagonals: Bool { directions.contains { $0.isDiagonal } }
    }

    public enum Failure: Sendable, Equatable {
        case timedOut(max: Millis)
        case tooShort(Double, min: Double)
        /// Travelled this fraction of the screen's extent along the motion.
        case tooShortForScreen(Double, min: Double)
        case tooSlow(Double, min: Double)
        /// Slowed to this speed over the last moments before the lift.
        case stoppedBeforeLift(Double, min: Double)
        case notStraight(Double, min: Double)
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
    /// `parameters.directions`, one bit each (`Direction.bit`), and whether a
    /// diagonal is among them: what the lift asks, without hashing.
    private let allowed: UInt8
    private let usesDiagonals: Bool
    public var fingers: ClosedRange<Int> { parameters.fingers...parameters.fingers }
    private var state = State.idle
    /// The centroid's travel, path and velocity (landing and lifting fingers do
    /// not count as travel), worked out once per frame for all the swipes and pans
    /// of an arena (`SharedMotion`).
    let motion: SharedMotion

    /// Below this share of `minSpeedMMPerS` over the last 80 ms, the finger
    /// stopped before lifting (a swipe easing out slows to about half).
    static let stoppedFraction = 0.25

    public convenience init(_ parameters: Parameters) { self.init(parameters, sharing: SharedMotion()) }

    init(_ parameters: Parameters, sharing motion: SharedMotion) {
        self.parameters = parameters
        self.motion = motion
        allowed = parameters.directions.reduce(0) { $0 | $1.bit }
        usesDiagonals = parameters.usesDiagonals
    }

    public func reset() {
        state = .idle
        motion.reset()
    }

    public var deadline: EventTime? {
        guard parameters.maxDuration.value > 0, case .tracking(let since, _) = state else { return nil }
        return since + parameters.maxDuration
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
        motion.advance(by: frame)
        guard input.isLast else {
            state = .tracking(since: since, start: start)
            return .none
        }
        // The motion read in place, and its heading worked out once for all
        // the swipes deciding on this frame.
        let motion = self.motion
        let p = parameters
        let translation = motion.current.translation
        let path = motion.current.path
        let distance = translation.length
        if distance < p.minDistanceMM { return fail(.tooShort(distance, min: p.minDistanceMM)) }
        let speed = distance / max((frame.time - since).seconds, 0.001)
        if speed < p.minSpeedMMPerS { return fail(.tooSlow(speed, min: p.minSpeedMMPerS)) }
        let heading = motion.heading
        // A finger easing out still moves; one that stopped has all but halted.
        let endSpeed = heading.endSpeed
        let stopped = p.minSpeedMMPerS * Self.stoppedFraction
        if endSpeed < stopped { return fail(.stoppedBeforeLift(endSpeed, min: stopped)) }
        let straightness = path > 0 ? distance / path : 1
        if straightness < p.minStraightness { return fail(.notStraight(straightness, min: p.minStraightness)) }
        // Nearest direction, and how far off it the travel is.
        let angle = heading.degrees
        var direction = Direction.right
        var off = 360.0
        for d in usesDiagonals ? Direction.all : Direction.cardinal {
            var diff = abs(angle - d.degrees)
            if diff > 180 { diff = 360 - diff }
            if diff < off {
                off = diff
                direction = d
            }
        }
        if off > p.maxAngleDegrees { return fail(.offAxis(off, direction, max: p.maxAngleDegrees)) }
        if allowed & direction.bit == 0 {
            return fail(.directionNotAllowed(direction, allowed: p.directions))
        }
        if p.minLength > 0 {
            let area = frame.areaMM
            let extent: Double =
                switch direction {
                case .left, .right: area.x
                case .up, .down: area.y
                case .upLeft, .upRight, .downLeft, .downRight: area.length
                }
            let fraction = extent > 0 ? distance / extent : 0
            if fraction < p.minLength { return fail(.tooShortForScreen(fraction, min: p.minLength)) }
        }
        state = .done
        return .recognize(
            Report(
                detail: .swipe(direction: direction, translation: translation, speedMMPerS: speed),
                fingers: input.maxFingers, location: start,
                locationNormalised: normalised(start, in: frame.areaMM)))
    }

    private func fail(_ f: Failure) -> Proposal {
        state = .done
        return .fail(.swipe(f))
    }
}

extension SwipeRecognizer: FollowsMotion {
    /// Between the first frame and the lift it only follows the motion, which an
    /// arena steps for it; the deadline (`maxDuration`) is from the first frame.
    var decidesOnlyAtEnds: Bool { true }
}

extension SwipeRecognizer.Parameters {
    /// The config keys of a `swipe` recognizer (`ParameterKey`).
    public static var keys: [ParameterKey<Self>] {
        [
            .integer("fingers", \.fingers, 1...10, "fingers moving together"),
            .number("min_distance_mm", \.minDistanceMM, 1...1000, "net travel"),
            .number(
                "min_speed_mm_s", \.minSpeedMMPerS, 0...10_000,
                "average speed from touch to lift (a quarter of it over the last 80 ms)"),
            .millis("max_duration_ms", \.maxDuration, 0...60_000, "0: no limit; else at least 50") { p, _ in
                let ms = p.maxDuration.value
                return ms > 0 && ms < 50
                    ? ("max_duration_ms", "expected 0 (no limit) or at least 50, got \(formatBound(ms))") : nil
            },
            .number(
                "max_angle_deg", \.maxAngleDegrees, 1...45,
                "how far off the direction's axis the travel may be (at most 22.5 with diagonals, and so by default)"),
            .number(
                "min_length", \.minLength, 0...1,
                "net travel as a share of the screen along it (lisgd's M, L: 0.33, 0.66)"),
            .number("min_straightness", \.minStraightness, 0...1, "net travel / path length"),
            .choices(
                "directions", \.directions, item: "direction",
                "the directions it recognizes; with a diagonal, the nearest of eight is taken"
            ) { p, written in
                guard p.usesDiagonals else { return nil }
                let limit = Self.maxAngleWithDiagonals
                if !written("max_angle_deg") {
                    p.maxAngleDegrees = min(p.maxAngleDegrees, limit)
                    return nil
                }
                guard p.maxAngleDegrees > limit else { return nil }
                return (
                    "max_angle_deg",
                    "at most \(formatBound(limit)) with diagonal directions (the nearest of eight is taken), got \(formatBound(p.maxAngleDegrees))"
                )
            },
        ]
    }
}
