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
/// The angle alone compares where the points lie, not how the stroke turns: a
/// checkmark and a V, a `[` and a `{`, a star drawn a little looser, differ in
/// where their corners are and how sharp they are more than in where their
/// points lie. So the distance adds a second measure, the one of Jackknife
/// (Taranta, Maghoumi, Pittman & LaViola, "Jackknife: A Reliable Recognizer with
/// Few Samples and Many Modalities", CHI 2017): both strokes resampled to
/// `directionCount` points, the unit direction vectors between consecutive
/// points compared by dynamic time warping within a Sakoe–Chiba band of
/// `directionBand`, each aligned pair costing 1 − cos of the angle between the
/// two directions. The stroke's directions are first turned by the rotation
/// Protractor chose, so the measure keeps the orientation options.
///
/// The distance is the angle in radians plus `directionWeight` times that
/// warping cost, multiplied by a correction factor in Jackknife's manner: the
/// ratio of the two strokes' total turning over their `directionCount` points
/// (the larger over the smaller, each plus `turningOffset`) to the power 1.5.
/// A `[` turns through two corners, a `{` through two curls and a cusp; an
/// arrow whose head is drawn in another order turns about as much as the
/// examples, though its points lie elsewhere. 0 for the same shape, above π/2
/// for unrelated ones.
///
/// The `shape` recognizer accepts a stroke when its closest example is within
/// `max_distance` scaled by how far apart the examples themselves are (`bound`):
/// a person who draws a shape the same way every time gets a tighter bound, one
/// who draws it loosely a looser one. The spread is the median, over the
/// examples, of each one's distance to the nearest of the others; the bound is
/// `max_distance` × (`spreadOffset` + spread) / (`spreadOffset` +
/// `referenceSpread`), so that `max_distance` is the bound for examples the
/// typical `referenceSpread` apart, and for a single example. With the second
/// measure, recall with 3 examples chosen leave-one-subject-out rises from 92 %
/// to 96 % at the same false accepts; with the turning and the spread, to 98 %
/// (BENCHMARKS.md).
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
        /// The distance between the stroke and the example: the angle between
        /// them, radians (0…π), plus `directionWeight` times the warping cost of
        /// their directions (see the type's description).
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
    /// beside it: 17 unit vectors of 64 doubles and 17 runs of 15 directions,
    /// 12,784 bytes, per example.
    static let variantsPerExample = 16
    /// Points of a variant's stochastic resampling (the paper's n).
    static let variantPoints = 48
    /// Variance of their spacing (the paper's σ²).
    static let variantVariance = 0.1

    /// Points a stroke is resampled to for its directions (Jackknife's 16).
    public static let directionCount = 16
    /// How far the warping of directions may stray from the diagonal, in steps.
    static let directionBand = 2
    /// The weight of the warping cost of directions beside Protractor's angle,
    /// chosen leave-one-subject-out on the $1 logs (BENCHMARKS.md).
    public static let directionWeight = 0.2

    /// The turning (radians) added to each side of the ratio of total turnings,
    /// so that nearly straight strokes do not divide by nothing. The ratio's
    /// power, 1.5, was chosen leave-one-subject-out on the $1 logs (BENCHMARKS.md).
    static let turningOffset = 0.5
    /// The bound is `max_distance` × (`spreadOffset` + spread) / (`spreadOffset`
    /// + `referenceSpread`); `referenceSpread` is about the median spread of
    /// three examples of the $1 logs' shapes.
    static let spreadOffset = 0.3
    public static let referenceSpread = 0.15

    public let options: Options
    /// `directionWeight`, or 0 to measure with Protractor's angle alone.
    let weight: Double
    /// The total turning of each example, radians, by example.
    private let turnings: [Double]
    private let correctsTurning: Bool
    /// How far apart the examples are: the median of each one's distance to
    /// the nearest of the others; `referenceSpread` for fewer than two.
    public private(set) var spread = ShapeMatcher.referenceSpread
    /// Unit vectors (x0, y0, x1, y1, …): each example's, then its variants'.
    private let templates: [[Double]]
    /// The unit direction vectors (dx0, dy0, …) of each template, in the same order.
    private let directions: [[Double]]
    /// The example each template was made from.
    private let exampleOf: [Int]
    public let exampleCount: Int
    private let cosBound: Double
    private let sinBound: Double

    /// Examples are strokes in mm (any origin); one with fewer than two distinct
    /// points or no length matches nothing.
    public init(examples: [[Point]], options: Options) {
        self.init(examples: examples, options: options, directionWeight: ShapeMatcher.directionWeight)
    }

    /// `correctsTurning` false: without the ratio of turnings (to measure what it adds).
    /// `measuresSpread` false: `spread` stays `referenceSpread` (a table of
    /// distances needs no bound, and measuring the spread matches every example
    /// against all the others).
    init(
        examples: [[Point]], options: Options, directionWeight: Double, correctsTurning: Bool = true,
        measuresSpread: Bool = true
    ) {
        self.options = options
        weight = directionWeight
        self.correctsTurning = correctsTurning
        var scratch: [Point] = []
        var vectors: [[Double]] = []
        var dirs: [[Double]] = []
        var owners: [Int] = []
        var turns: [Double] = []
        var d = [Double](repeating: 0, count: 2 * (ShapeMatcher.directionCount - 1))
        let k = ShapeMatcher.variantsPerExample
        for (index, e) in examples.enumerated() {
            var v = [Double](repeating: 0, count: 2 * ShapeMatcher.sampleCount)
            if !ShapeMatcher.vectorize(e, samples: &scratch, into: &v) {
                for i in v.indices { v[i] = .nan }
                vectors.append(v)
                dirs.append(d)
                owners.append(index)
                turns.append(0)
                continue
            }
            ShapeMatcher.directions(e, samples: &scratch, into: &d)
            turns.append(ShapeMatcher.turning(directions: d))
            vectors.append(v)
            dirs.append(d)
            owners.append(index)
            var rng = SplitMix64(seed: ShapeMatcher.seed(of: e))
            for _ in 0..<k {
                let synthetic = ShapeMatcher.variant(
                    e, count: ShapeMatcher.variantPoints, variance: ShapeMatcher.variantVariance, rng: &rng)
                guard ShapeMatcher.vectorize(synthetic, samples: &scratch, into: &v) else { continue }
                ShapeMatcher.directions(synthetic, samples: &scratch, into: &d)
                vectors.append(v)
                dirs.append(d)
                owners.append(index)
            }
        }
        templates = vectors
        directions = dirs
        exampleOf = owners
        exampleCount = examples.count
        turnings = turns
        let bound = options.maxRotationDegrees * .pi / 180
        cosBound = cos(bound)
        sinBound = sin(bound)
        if examples.count >= 2 && measuresSpread {
            // Each example against the others' templates: the distances are the same
            // whether or not the example's own templates are among them.
            var nearest: [Double] = []
            for (i, e) in examples.enumerated() {
                guard let all = distances(e) else { continue }
                nearest.append(all.indices.filter { $0 != i }.map { all[$0] }.min() ?? .infinity)
            }
            spread = ShapeMatcher.spread(nearest: nearest)
        }
    }

    /// The spread of examples whose distances to the nearest of the others are
    /// `nearest`: their median (of the finite ones), or `referenceSpread` when
    /// fewer than two examples can be matched.
    public static func spread(nearest: [Double]) -> Double {
        let finite = nearest.filter(\.isFinite).sorted()
        guard finite.count >= 2 else { return referenceSpread }
        let m = finite.count / 2
        return finite.count % 2 == 1 ? finite[m] : (finite[m - 1] + finite[m]) / 2
    }

    /// How much the bound of examples this far apart is of `max_distance`.
    public static func boundScale(spread: Double) -> Double {
        (spreadOffset + spread) / (spreadOffset + referenceSpread)
    }

    /// The largest distance to the closest example that these examples accept,
    /// for a `max_distance`: scaled by their spread.
    public func bound(maxDistance: Double) -> Double {
        maxDistance * ShapeMatcher.boundScale(spread: spread)
    }

    /// The total turning of a stroke from its unit directions (`directions`):
    /// the sum of the absolute angles between consecutive steps, radians. Over
    /// `directionCount` points, as for the warping, so that a finger's jitter
    /// between them adds little.
    static func turning(directions d: [Double]) -> Double {
        var total = 0.0
        var last = -1
        var k = 0
        while k < d.count / 2 {
            defer { k += 1 }
            guard d[2 * k] != 0 || d[2 * k + 1] != 0 else { continue }
            if last >= 0 {
                let dot = d[2 * last] * d[2 * k] + d[2 * last + 1] * d[2 * k + 1]
                let cross = d[2 * last] * d[2 * k + 1] - d[2 * last + 1] * d[2 * k]
                total += abs(atan2(cross, dot))
            }
            last = k
        }
        return total
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
        /// The stroke's directions, and the same turned to match a template.
        var directions: [Double] = []
        var turned: [Double] = []
        /// The warping's cumulative costs, (m + 1)², m directions.
        var warp: [Double] = []
        /// The stroke's total turning, radians.
        var turning = 0.0
        public init() {
            let m = ShapeMatcher.directionCount - 1
            samples.reserveCapacity(max(ShapeMatcher.sampleCount, ShapeMatcher.directionCount))
            vector = [Double](repeating: 0, count: 2 * ShapeMatcher.sampleCount)
            directions = [Double](repeating: 0, count: 2 * m)
            turned = directions
            warp = [Double](repeating: 0, count: (m + 1) * (m + 1))
        }
    }

    /// As `closest(_:)`, reusing `scratch`.
    public func closest(_ stroke: [Point], using scratch: inout Scratch) -> Match? {
        guard prepare(stroke, reversed: false, &scratch) else { return nil }
        var best = nearest(reversed: false, &scratch)
        if options.direction == .either {
            prepare(stroke, reversed: true, &scratch)
            if let r = nearest(reversed: true, &scratch), best == nil || r.distance < best!.distance {
                best = r
            }
        }
        return best
    }

    /// The stroke's unit vector and directions, drawn as given or reversed,
    /// into `scratch`; false when it has no length.
    @discardableResult
    private func prepare(_ stroke: [Point], reversed: Bool, _ scratch: inout Scratch) -> Bool {
        guard ShapeMatcher.vectorize(stroke, samples: &scratch.samples, into: &scratch.vector) else { return false }
        if reversed {
            scratch.samples.reverse()
            ShapeMatcher.normalise(scratch.samples, into: &scratch.vector)
        }
        ShapeMatcher.directions(stroke, samples: &scratch.samples, into: &scratch.directions)
        // The same either way round.
        scratch.turning = ShapeMatcher.turning(directions: scratch.directions)
        if reversed {
            // The same path walked the other way: the steps in reverse order, each turned around.
            let m = ShapeMatcher.directionCount - 1
            for k in 0..<(m / 2) {
                let j = m - 1 - k
                let (x, y) = (scratch.directions[2 * k], scratch.directions[2 * k + 1])
                scratch.directions[2 * k] = scratch.directions[2 * j]
                scratch.directions[2 * k + 1] = scratch.directions[2 * j + 1]
                scratch.directions[2 * j] = x
                scratch.directions[2 * j + 1] = y
            }
            for i in scratch.directions.indices { scratch.directions[i] = -scratch.directions[i] }
        }
        return true
    }

    /// The distance from `stroke` to every example, in the order given (nil
    /// when the stroke has no length; `.infinity` for an example that has none):
    /// `closest` is their minimum. For tools that match one stroke against many
    /// sets of examples, or look for which taught shapes a stroke is near.
    public func distances(_ stroke: [Point]) -> [Double]? {
        var scratch = Scratch()
        guard prepare(stroke, reversed: false, &scratch) else { return nil }
        var out = [Double](repeating: .infinity, count: exampleCount)
        for i in templates.indices {
            out[exampleOf[i]] = min(out[exampleOf[i]], measure(i, &scratch)?.0 ?? .infinity)
        }
        if options.direction == .either {
            prepare(stroke, reversed: true, &scratch)
            for i in templates.indices {
                out[exampleOf[i]] = min(out[exampleOf[i]], measure(i, &scratch)?.0 ?? .infinity)
            }
        }
        return out
    }

    /// Each stroke matched against every one of them as an example, as a
    /// matcher taught them all measures it (`distances`): row i is stroke i's
    /// distance to each, nil when stroke i has no length.
    package static func distanceTable(_ strokes: [[Point]], options: Options) -> [[Double]?] {
        let matcher = ShapeMatcher(
            examples: strokes, options: options, directionWeight: directionWeight, measuresSpread: false)
        // Each matched as the recognizer keeps a stroke's points.
        return strokes.map { matcher.distances(ShapeStrokePoints($0).points) }
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

    private func nearest(reversed: Bool, _ scratch: inout Scratch) -> Match? {
        var best: Match?
        for i in templates.indices {
            guard let (d, rot) = measure(i, &scratch), best == nil || d < best!.distance else { continue }
            best = Match(example: exampleOf[i], distance: d, reversed: reversed, rotationDegrees: rot)
        }
        return best
    }

    /// The distance from the stroke in `scratch` to template `i`, and the
    /// rotation (degrees) that brought them closest; nil when the example has
    /// no length.
    private func measure(_ i: Int, _ scratch: inout Scratch) -> (Double, Double)? {
        guard let (theta, rotation) = angle(scratch.vector, templates[i]) else { return nil }
        // Turn the stroke's directions as Protractor turned its points.
        let r = rotation * .pi / 180
        let c = cos(r), s = sin(r)
        let count = scratch.directions.count
        precondition(scratch.turned.count == count)
        scratch.directions.withUnsafeBufferPointer { from in
            scratch.turned.withUnsafeMutableBufferPointer { to in
                // Pointers: a debug build's tests match millions of strokes.
                guard let d = from.baseAddress, let t = to.baseAddress else { return }
                var k = 0
                while k < count {
                    let x = d[k], y = d[k + 1]
                    t[k] = x * c - y * s
                    t[k + 1] = x * s + y * c
                    k += 2
                }
            }
        }
        guard weight > 0 else { return (theta, rotation) }
        let w = ShapeMatcher.warpingCost(scratch.turned, directions[i], band: ShapeMatcher.directionBand, &scratch.warp)
        guard correctsTurning else { return (theta + weight * w, rotation) }
        let a = scratch.turning + ShapeMatcher.turningOffset
        let b = turnings[exampleOf[i]] + ShapeMatcher.turningOffset
        let ratio = max(a, b) / min(a, b)
        let correction = ratio * ratio.squareRoot()  // to the power 1.5
        return ((theta + weight * w) * correction, rotation)
    }

    /// Dynamic time warping of two runs of unit direction vectors (dx0, dy0, …,
    /// the same count), each aligned pair costing 1 − their dot product, within
    /// `band` steps of the diagonal; `table` holds (m + 1)² doubles.
    static func warpingCost(_ a: [Double], _ b: [Double], band: Int, _ table: inout [Double]) -> Double {
        let m = a.count / 2
        let w = m + 1
        precondition(m >= 1 && b.count >= 2 * m && table.count >= w * w)
        // Pointers and no generic `min`: a debug build's tests match millions of strokes.
        func least(_ x: Double, _ y: Double) -> Double { y < x ? y : x }
        return a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                table.withUnsafeMutableBufferPointer { all in
                    let cells = UnsafeMutableBufferPointer(rebasing: all[0..<(w * w)])
                    cells.update(repeating: .infinity)
                    guard let a = a.baseAddress, let b = b.baseAddress, let t = cells.baseAddress else { return 0 }
                    t[0] = 0
                    var i = 1
                    while i <= m {
                        var j = max(1, i - band)
                        let last = min(m, i + band)
                        while j <= last {
                            let cost = 1 - (a[2 * (i - 1)] * b[2 * (j - 1)] + a[2 * (i - 1) + 1] * b[2 * (j - 1) + 1])
                            let before = least(least(t[(i - 1) * w + j], t[i * w + j - 1]), t[(i - 1) * w + j - 1])
                            t[i * w + j] = cost + before
                            j += 1
                        }
                        i += 1
                    }
                    return t[m * w + m]
                }
            }
        }
    }

    /// The unit direction vectors between `directionCount` points evenly spaced
    /// along `points`, into `d` (a step of no length stays zero).
    static func directions(_ points: [Point], samples: inout [Point], into d: inout [Double]) {
        resample(points, count: directionCount, into: &samples)
        for k in 0..<(directionCount - 1) {
            let step = samples[k + 1] - samples[k]
            let n = step.distance(to: .zero)
            d[2 * k] = n > 1e-12 ? step.x / n : 0
            d[2 * k + 1] = n > 1e-12 ? step.y / n : 0
        }
    }

    /// Protractor's optimal angular distance between two unit vectors, with the
    /// rotation bounded for `fixed`; nil when the example has no length.
    private func angle(_ v: [Double], _ t: [Double]) -> (Double, Double)? {
        var a = 0.0, b = 0.0
        precondition(t.count >= v.count)
        v.withUnsafeBufferPointer { vs in
            t.withUnsafeBufferPointer { ts in
                guard let v = vs.baseAddress, let t = ts.baseAddress else { return }
                var i = 0
                while i < vs.count {
                    a += t[i] * v[i] + t[i + 1] * v[i + 1]
                    b += t[i] * v[i + 1] - t[i + 1] * v[i]
                    i += 2
                }
            }
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
