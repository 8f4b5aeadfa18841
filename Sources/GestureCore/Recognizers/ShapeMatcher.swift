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
/// Each example is matched together with synthetic variants of it made by
/// gesture path stochastic resampling (GPSR; see `variant`), and the distance to
/// an example is the closest of it and its variants: three examples do not span
/// how loosely a person draws a star or an arrow, and the variants fill in
/// between (BENCHMARKS.md: recall with 3 examples from 86 % to 92 %).
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

    /// Synthetic variants made from each example (GPSR, see `variant`), kept
    /// beside it: 17 unit vectors of 64 doubles, 8704 bytes, per example.
    static let variantsPerExample = 16
    /// Points of a variant's stochastic resampling (the paper's n).
    static let variantPoints = 48
    /// Variance of their spacing (the paper's σ²).
    static let variantVariance = 0.1

    public let options: Options
    /// Unit vectors (x0, y0, x1, y1, …): each example's, then its variants'.
    private let templates: [[Double]]
    /// The example each template was made from.
    private let exampleOf: [Int]
    public let exampleCount: Int
    private let cosBound: Double
    private let sinBound: Double

    /// Examples are strokes in mm (any origin); one with fewer than two distinct
    /// points or no length matches nothing.
    public init(examples: [[Point]], options: Options) {
        self.options = options
        var scratch: [Point] = []
        var vectors: [[Double]] = []
        var owners: [Int] = []
        let k = ShapeMatcher.variantsPerExample
        for (index, e) in examples.enumerated() {
            var v = [Double](repeating: 0, count: 2 * ShapeMatcher.sampleCount)
            if !ShapeMatcher.vectorize(e, samples: &scratch, into: &v) {
                for i in v.indices { v[i] = .nan }
                vectors.append(v)
                owners.append(index)
                continue
            }
            vectors.append(v)
            owners.append(index)
            var rng = SplitMix64(seed: ShapeMatcher.seed(of: e))
            for _ in 0..<k {
                let synthetic = ShapeMatcher.variant(
                    e, count: ShapeMatcher.variantPoints, variance: ShapeMatcher.variantVariance, rng: &rng)
                guard ShapeMatcher.vectorize(synthetic, samples: &scratch, into: &v) else { continue }
                vectors.append(v)
                owners.append(index)
            }
        }
        templates = vectors
        exampleOf = owners
        exampleCount = examples.count
        let bound = options.maxRotationDegrees * .pi / 180
        cosBound = cos(bound)
        sinBound = sin(bound)
    }

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
        var out = [Double](repeating: .infinity, count: exampleCount)
        for (i, t) in templates.enumerated() {
            out[exampleOf[i]] = min(out[exampleOf[i]], angle(scratch.vector, t)?.0 ?? .infinity)
        }
        if options.direction == .either {
            scratch.samples.reverse()
            ShapeMatcher.normalise(scratch.samples, into: &scratch.vector)
            for (i, t) in templates.enumerated() {
                out[exampleOf[i]] = min(out[exampleOf[i]], angle(scratch.vector, t)?.0 ?? .infinity)
            }
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
            best = Match(example: exampleOf[i], distance: d, reversed: reversed, rotationDegrees: rot)
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

    /// A synthetic stroke made from `points` by gesture path stochastic
    /// resampling (GPSR: Taranta, Maghoumi, Pittman & LaViola, "A Rapid
    /// Prototyping Approach to Synthetic Data Generation for Improved 2D Gesture
    /// Recognition", UIST 2016): `count` points are placed along the path at
    /// uneven spacings, each 1 + u·√(12σ²) with u uniform in [0, 1) (scaled to
    /// the path's length), and the steps between consecutive points are set to
    /// unit length, so that some stretches of the stroke come out longer and
    /// others shorter, as when a person draws the shape again.
    static func variant(_ points: [Point], count: Int, variance: Double, rng: inout SplitMix64) -> [Point] {
        var gaps: [Double] = []
        var sum = 0.0
        for _ in 1..<count {
            let g = 1 + rng.unit() * (12 * variance).squareRoot()
            gaps.append(g)
            sum += g
        }
        var total = 0.0
        for i in points.indices.dropFirst() { total += points[i].distance(to: points[i - 1]) }
        // The points along the path at the cumulative spacings.
        var placed: [Point] = [points[0]]
        var walked = 0.0, target = 0.0
        var seg = 1
        for g in gaps {
            target += g / sum * total
            while seg < points.count {
                let d = points[seg].distance(to: points[seg - 1])
                if walked + d >= target && d > 0 {
                    let f = (target - walked) / d
                    placed.append(points[seg - 1] + (points[seg] - points[seg - 1]) * f)
                    break
                }
                walked += d
                seg += 1
            }
            if seg >= points.count { placed.append(points[points.count - 1]) }
        }
        var out: [Point] = [.zero]
        var at = Point.zero
        for i in placed.indices.dropFirst() {
            let step = placed[i] - placed[i - 1]
            let n = step.distance(to: .zero)
            guard n > 1e-12 else { continue }
            at += step / n
            out.append(at)
        }
        return out
    }

    /// A seed from the example's coordinates: the same variants for the same
    /// example wherever it is taught.
    static func seed(of points: [Point]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for p in points {
            h = (h ^ p.x.bitPattern) &* 0x100_0000_01b3
            h = (h ^ p.y.bitPattern) &* 0x100_0000_01b3
        }
        return h
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
