/// A one-finger shape taught by example: one stroke, matched at lift against
/// the examples in the config with Protractor (Yang Li, CHI 2010) and the
/// warping of directions of Jackknife (Taranta et al., CHI 2017; see
/// `ShapeMatcher` for the method and why it was chosen).
///
/// While the finger moves the recognizer only keeps its points
/// (`ShapeStrokePoints`: at most `maxPoints`, evenly thinned as a long stroke
/// goes on, a finger at rest adding none), so a long stroke costs no more
/// memory and no allocation; at lift the stroke is resampled and compared with
/// every example. It fails a stroke shorter than
/// `minLengthMM` (a tap, a finger resting), one that took longer than
/// `maxDuration`, and one whose closest example is further than `maxDistance`
/// scaled by how far apart the examples are (`ShapeMatcher.bound`).
public final class ShapeRecognizer: Recognizer {
    public struct Parameters: Sendable, Equatable {
        /// The strokes taught, points in mm (any origin), in the order drawn.
        public var examples: [[Point]] = []
        public var orientation = ShapeMatcher.Orientation.fixed
        public var direction = ShapeMatcher.Direction.asDrawn
        /// With `fixed`: the most a stroke may be turned to match an example, degrees.
        public var maxRotationDegrees = 15.0
        /// The closest example must be within this distance (`ShapeMatcher`:
        /// the angle in radians plus the weighted warping cost of directions,
        /// corrected by the ratio of turnings), scaled by the examples' spread
        /// (`ShapeMatcher.bound`). Chosen on the $1 logs by `gesturectl evaluate
        /// --templates` (BENCHMARKS.md): the highest recall with 3 examples whose
        /// false accepts stay within 0.25 %.
        public var maxDistance = 0.51
        public var minLengthMM = 10.0
        public var maxDuration = Millis(10_000)
        public init() {}

        public var matcherOptions: ShapeMatcher.Options {
            ShapeMatcher.Options(
                orientation: orientation, direction: direction, maxRotationDegrees: maxRotationDegrees)
        }
    }

    public enum Failure: Sendable, Equatable {
        /// Fewer distinct points than a stroke needs.
        case tooFewPoints(Int)
        case tooShort(Double, min: Double)
        /// The config has no example that can be matched.
        case noExamples
        /// The closest example (index) is `distance` away, more than `max` (the
        /// `max_distance` scaled by the examples' spread).
        case noMatch(distance: Double, max: Double, example: Int)
    }

    enum State {
        /// Following the finger; its points are in `points`.
        case drawing
        /// Decided; waiting for the arena to reset.
        case done
    }

    public let kind = GestureKind.shape
    public let parameters: Parameters
    public let fingers: ClosedRange<Int> = 1...1
    private let matcher: ShapeMatcher
    /// `maxDistance` scaled by the examples' spread.
    private let bound: Double
    private var state = State.drawing
    private var touch: TouchID?
    private var stroke = ShapeStrokePoints()
    private var start: EventTime?
    private var lastNormalised = Point.zero
    private var areaMM = Point(x: 1, y: 1)
    private var scratch = ShapeMatcher.Scratch()
    private var lastEvidence = Evidence()
    public init(_ parameters: Parameters) {
        self.parameters = parameters
        matcher = ShapeMatcher(examples: parameters.examples, options: parameters.matcherOptions)
        bound = matcher.bound(maxDistance: parameters.maxDistance)
    }

    public func reset() {
        state = .drawing
        touch = nil
        stroke.reset()
        start = nil
    }

    public var stateDescription: String {
        switch state {
        case .drawing: "drawing(\(stroke.points.count) points)"
        case .done: "done"
        }
    }

    public func handle(_ event: RecognizerEvent, _ frame: borrowing TouchFrame) -> Proposal {
        switch (state, event) {
        case (.drawing, .frame):
            if follow(frame) {
                state = .done
                return decide()
            }
            if let start, frame.time - start > parameters.maxDuration {
                state = .done
                return .fail(.strokeTookTooLong(frame.time - start, max: parameters.maxDuration))
            }
            return .none
        case (.drawing, .timeout), (.done, _):
            return .none
        }
    }

    /// Keeps the followed finger's new point; true when it lifted.
    private func follow(_ frame: borrowing TouchFrame) -> Bool {
        areaMM = frame.areaMM
        var lifted = false
        for t in frame.touches {
            if touch == nil && t.phase == .began {
                touch = t.id
                start = frame.time
            }
            guard t.id == touch else { continue }
            stroke.append(t.position)
            lastNormalised = t.normalised
            lifted = t.phase.isFinal
        }
        if lifted { stroke.finish() }
        return lifted
    }

    /// The decision on the finished stroke.
    public func decide() -> Proposal {
        var e = Evidence()
        defer { lastEvidence = e }
        let points = stroke.points, pathLength = stroke.pathLength
        if !points.isEmpty { e.strokeBox = Box(bounding: points[...]) }
        guard points.count >= ShapeMatcher.minPoints else { return .fail(.shape(.tooFewPoints(points.count))) }
        guard pathLength >= parameters.minLengthMM else {
            return .fail(.shape(.tooShort(pathLength, min: parameters.minLengthMM)))
        }
        guard let m = matcher.closest(points, using: &scratch) else { return .fail(.shape(.noExamples)) }
        e.notes.append(
            "closest example \(m.example) at \(formatFixed(m.distance, decimals: 3))\(m.reversed ? ", drawn the other way" : "")"
        )
        guard m.distance <= bound else {
            return .fail(.shape(.noMatch(distance: m.distance, max: bound, example: m.example)))
        }
        let last = points[points.count - 1]
        return .recognize(
            Report(
                detail: .shape(example: m.example, distance: m.distance, reversed: m.reversed), fingers: 1,
                location: last, locationNormalised: lastNormalised))
    }

    public var evidence: Evidence { lastEvidence }
}

/// The points a shape recognizer keeps of one stroke, and its length.
///
/// A point is taken when it lies `minStep` or more from the last one taken: a
/// finger resting before it lifts wiggles by a tenth of a millimetre, and those
/// wiggles would add length, and so resampled points, where nothing was drawn.
/// At most `maxPoints` are kept: when they fill up, every other one is dropped
/// and from then on only every other point taken is kept (then every fourth…),
/// so the stroke stays evenly thinned however long it goes on; the last point
/// taken is kept at `finish`. `gesturectl explain` keeps a stroke's points the
/// same way, so that it measures what the recognizer measured.
public struct ShapeStrokePoints: Sendable {
    /// Points kept of one stroke.
    public static let maxPoints = 512
    /// The least distance from the last point taken for a point to count, mm.
    public static let minStep = 0.3

    public private(set) var points: [Point] = []
    /// The length of the path through every point taken, mm.
    public private(set) var pathLength = 0.0
    private var lastTaken: Point?
    /// Points taken since the last one kept, and how many make one kept.
    private var sinceKept = 0
    private var stride = 1
    /// The last point taken when it was not kept (between strides).
    private var pending: Point?

    public init() { points.reserveCapacity(Self.maxPoints) }

    /// The points kept of `path`, as a recognizer following it would keep them.
    public init(_ path: [Point]) {
        self.init()
        for p in path { append(p) }
        finish()
    }

    public mutating func reset() {
        points.removeAll(keepingCapacity: true)
        pathLength = 0
        lastTaken = nil
        sinceKept = 0
        stride = 1
        pending = nil
    }

    public mutating func append(_ p: Point) {
        if let last = lastTaken {
            let d = p.distance(to: last)
            guard d >= Self.minStep else { return }
            pathLength += d
        }
        lastTaken = p
        guard !points.isEmpty else {
            points.append(p)
            return
        }
        sinceKept += 1
        guard sinceKept >= stride else {
            pending = p
            return
        }
        if points.count == Self.maxPoints {
            // The last kept is `stride` before `p`; the one before it, which
            // stays, 2 × stride: the new stride.
            let half = Self.maxPoints / 2
            for i in 0..<half { points[i] = points[2 * i] }
            points.removeLast(Self.maxPoints - half)
            stride *= 2
        }
        points.append(p)
        sinceKept = 0
        pending = nil
    }

    /// The finger lifted: its last point taken ends the stroke.
    public mutating func finish() {
        guard let p = pending else { return }
        if points.count == Self.maxPoints { points[points.count - 1] = p } else { points.append(p) }
        pending = nil
        sinceKept = 0
    }
}

extension ShapeRecognizer.Parameters {
    /// Strokes in `examples`: how many, and points in each.
    public static let exampleCount = 1...64
    public static let pointsPerExample = 5...1000

    /// The config keys of a `shape` recognizer (`ParameterKey`).
    public static var keys: [ParameterKey<Self>] {
        [
            .strokes(
                "examples", \.examples, count: exampleCount, points: pointsPerExample,
                "the strokes taught: [[[x, y], …], …] in mm, each in the order drawn (the config file as a whole at most 1 MiB: `shape record` writes at most 48 points a stroke)"
            ),
            .choice("orientation", \.orientation, "`fixed`: as taught (within max_rotation_deg); `any`: any rotation"),
            .choice("direction", \.direction, "`as_drawn`: from the same end as the examples; `either`: either way"),
            .number(
                "max_rotation_deg", \.maxRotationDegrees, 0...180,
                "with orientation `fixed`: the most a stroke is turned to match"),
            .number(
                "max_distance", \.maxDistance, 0...3.2,
                "largest distance to the closest example (angle in radians + 0.2 × directions' warping cost, × the ratio of turnings^1.5), for examples 0.15 apart; scaled by (0.3 + their spread) / 0.45"
            ),
            .number("min_length_mm", \.minLengthMM, 0...500, "shortest stroke matched"),
            .millis("max_duration_ms", \.maxDuration, 100...60_000, "longest a stroke may take"),
        ]
    }
}
