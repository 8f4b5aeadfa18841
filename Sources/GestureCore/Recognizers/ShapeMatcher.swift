/// Template matching of one-finger strokes against examples a person drew: the
/// matcher of the `shape` recognizer, and of the tools that teach and measure it.
///
/// It follows Protractor (Yang Li, "Protractor: A Fast and Accurate Gesture
/// Recognizer", CHI 2010): each stroke is resampled to `sampleCount` points
/// evenly spaced along its path, translated so that its centroid is the origin,
/// and scaled to a unit vector; two strokes are compared by the angle between
/// their vectors after rotating one by the angle that brings them closest, which
/// Protractor finds in closed form (no search). Why Protractor rather than $1 or
/// $P: a shape is taught with three or so examples, where the $1 family is at its
/// best (the $1 paper's user-dependent results); Protractor's closed-form rotation
/// makes a match a few hundred multiply-adds per example, once, at lift; its
/// uniform scaling keeps a line a line (where $1's non-uniform scaling to a
/// square blows up a thin stroke); and the direction a stroke is drawn in, which
/// $P throws away, is part of what a person teaches.
///
/// Orientation `any` takes the unconstrained optimal rotation (Protractor's
/// orientation-invariant variant; aligning the indicative angle first, as the
/// paper does, changes nothing the closed form does not already find).
/// Orientation `fixed` does not align the stroke at all and bounds the rotation
/// to ±`maxRotationDegrees`: Protractor's orientation-sensitive variant snaps the
/// indicative angle to one of eight directions, whose boundaries make two nearly
/// equal strokes land 45° apart; a bound has no boundary inside it. The
/// similarity of two unit vectors rotated by θ is a·cos θ + b·sin θ, one hump
/// over the circle, so the best rotation within the bound is the unconstrained
/// one when it lies inside, else the nearer end of the bound.
///
/// The distance is that angle, in radians: 0 for the same shape, π/2 for
/// unrelated ones; the `shape` recognizer accepts a stroke when its closest
/// example is within `max_distance`.
public struct ShapeMatcher: Sendable {
    public enum Orientation: String, Sendable, CaseIterable {
        /// As taught, within ±`maxRotationDegrees`.
        case fixed
        /// Any rotation.
        case any
    }

    public enum Direction: String, Sendable, CaseIterable {
        /// Drawn from the same end as the examples.
        case asDrawn = "as_drawn"
        /// Either way: the stroke reversed is matched too.
        case either
    }

    public struct Options: Sendable, Equatable {
        public var orientation = Orientation.fixed
        public var direction = Direction.asDrawn
        /// With `fixed`: the most a stroke may be turned to match an example.
        public var maxRotationDegrees = 15.0
        public init(orientation: Orientation = .fixed, direction: Direction = .asDrawn, maxRotationDegrees: Double = 15)
        {
            self.orientation = orientation
            self.direction = direction
            self.maxRotationDegrees = maxRotationDegrees
        }
    }

    /// How a stroke matched its closest example.
    public struct Match: Sendable, Equatable {
        /// Index of the example, in the order given.
        public var example: Int
        /// The angle between the stroke and the example, radians (0…π).
        public var distance: Double
        /// The stroke matched drawn the other way.
        public var reversed: Bool
        /// The rotation that brought the stroke closest, degrees, clockwise on screen.
        public var rotationDegrees: Double
    }

    /// Points a stroke is resampled to (Protractor: 16 suffice for its
    /// accuracy; 32 keep a small loop or hook of a taught shape).
    public static let sampleCount = 32
    /// Fewer distinct points than this cannot be matched.
    public static let minPoints = 2

    public let options: Options
    /// One unit vector (x0, y0, x1, y1, …) per example.
    private let templates: [[Double]]
    private let cosBound: Double
    private let sinBound: Double

    /// Examples are strokes in mm (any origin); one with fewer than two distinct
    /// points or no length matches nothing.
    public init(examples: [[Point]], options: Options) {
        self.options = options
        var scratch: [Point] = []
        var vectors: [[Double]] = []
        for e in examples {
            var v = [Double](repeating: 0, count: 2 * ShapeMatcher.sampleCount)
            if !ShapeMatcher.vectorize(e, samples: &scratch, into: &v) {
                for i in v.indices { v[i] = .nan }
            }
            vectors.append(v)
        }
        templates = vectors
        let bound = options.maxRotationDegrees * .pi / 180
        cosBound = cos(bound)
        sinBound = sin(bound)
    }

    public var exampleCount: Int { templates.count }

    /// The closest example to `stroke` (points in mm, in the order drawn), or nil
    /// when there is none or the stroke has no length.
    public func closest(_ stroke: [Point]) -> Match? {
        var scratch = Scratch()
        return closest(stroke, using: &scratch)
    }

    /// Storage reused from stroke to stroke, so that matching allocates nothing.
    public struct Scratch: Sendable {
        var samples: [Point] = []
        var vector: [Double] = []
        public init() {
            samples.reserveCapacity(ShapeMatcher.sampleCount)
            vector = [Double](repeating: 0, count: 2 * ShapeMatcher.sampleCount)
        }
    }

    /// As `closest(_:)`, reusing `scratch`.
    public func closest(_ stroke: [Point], using scratch: inout Scratch) -> Match? {
        guard ShapeMatcher.vectorize(stroke, samples: &scratch.samples, into: &scratch.vector) else { return nil }
        var best = nearest(scratch.vector, reversed: false)
        if options.direction == .either {
            scratch.samples.reverse()
            ShapeMatcher.normalise(scratch.samples, into: &scratch.vector)
            if let r = nearest(scratch.vector, reversed: true), best == nil || r.distance < best!.distance {
                best = r
            }
        }
        return best
    }

    /// The distance from `stroke` to every example, in the order given (nil
    /// when the stroke has no length; `.infinity` for an example that has none):
    /// `closest` is their minimum. For tools that match one stroke against many
    /// sets of examples, or look for which taught shapes a stroke is near.
    public func distances(_ stroke: [Point]) -> [Double]? {
        var scratch = Scratch()
        guard ShapeMatcher.vectorize(stroke, samples: &scratch.samples, into: &scratch.vector) else { return nil }
        var out = templates.map { angle(scratch.vector, $0)?.0 ?? .infinity }
        if options.direction == .either {
            scratch.samples.reverse()
            ShapeMatcher.normalise(scratch.samples, into: &scratch.vector)
            for (i, t) in templates.enumerated() { out[i] = min(out[i], angle(scratch.vector, t)?.0 ?? .infinity) }
        }
        return out
    }

    /// For each example, the distance to the closest of the others (leave one
    /// out): how consistently a shape was taught. A value near the others' is an
    /// example like them; one far above them was drawn differently. Empty for
    /// fewer than two examples; `.infinity` for an example that has no length.
    public static func consistency(examples: [[Point]], options: Options) -> [Double] {
        guard examples.count >= 2 else { return [] }
        var out: [Double] = []
        for i in examples.indices {
            var others = examples
            others.remove(at: i)
            let m = ShapeMatcher(examples: others, options: options)
            out.append(m.closest(examples[i])?.distance ?? .infinity)
        }
        return out
    }

    /// The distance between two strokes, as the matcher measures it (the first
    /// matched against the second as its only example).
    public static func distance(_ stroke: [Point], _ example: [Point], options: Options) -> Double? {
        ShapeMatcher(examples: [example], options: options).closest(stroke)?.distance
    }

    private func nearest(_ v: [Double], reversed: Bool) -> Match? {
        var best: Match?
        for (i, t) in templates.enumerated() {
            guard let (d, rot) = angle(v, t), best == nil || d < best!.distance else { continue }
            best = Match(example: i, distance: d, reversed: reversed, rotationDegrees: rot)
        }
        return best
    }

    /// Protractor's optimal angular distance between two unit vectors, with the
    /// rotation bounded for `fixed`; nil when the example has no length.
    private func angle(_ v: [Double], _ t: [Double]) -> (Double, Double)? {
        var a = 0.0, b = 0.0
        var i = 0
        while i < v.count {
            a += t[i] * v[i] + t[i + 1] * v[i + 1]
            b += t[i] * v[i + 1] - t[i + 1] * v[i]
            i += 2
        }
        guard a.isFinite, b.isFinite else { return nil }
        var theta = atan2(b, a)
        var similarity = (a * a + b * b).squareRoot()
        if options.orientation == .fixed && abs(theta) > options.maxRotationDegrees * .pi / 180 {
            let s = theta < 0 ? -sinBound : sinBound
            similarity = a * cosBound + b * s
            theta = theta < 0 ? -options.maxRotationDegrees * .pi / 180 : options.maxRotationDegrees * .pi / 180
        }
        return (acos(min(1, max(-1, similarity))), -theta * 180 / .pi)
    }

    /// Resamples `points` into `samples` and writes the unit vector into `v`;
    /// false when the stroke has no length.
    static func vectorize(_ points: [Point], samples: inout [Point], into v: inout [Double]) -> Bool {
        guard points.count >= minPoints else { return false }
        resample(points, count: sampleCount, into: &samples)
        return normalise(samples, into: &v)
    }

    /// Centres the samples on their centroid and scales them to a unit vector.
    @discardableResult
    static func normalise(_ samples: [Point], into v: inout [Double]) -> Bool {
        var c = Point.zero
        for p in samples { c += p }
        c = c / Double(samples.count)
        var sum = 0.0
        for (i, p) in samples.enumerated() {
            let x = p.x - c.x, y = p.y - c.y
            v[2 * i] = x
            v[2 * i + 1] = y
            sum += x * x + y * y
        }
        let norm = sum.squareRoot()
        guard norm > 1e-9, norm.isFinite else { return false }
        for i in v.indices { v[i] /= norm }
        return true
    }
}
