@testable import GestureCore

/// Seeded generators of one-finger strokes for the built-in shapes and for the
/// strokes people draw that are close to them, in mm on the 200 × 100 mm test
/// panel, one point every 10 ms (100 Hz). The same seed gives the same strokes
/// on every machine. What they vary is what varies between people: size, start,
/// direction, how round, how steady, how the stroke closes, how fast.
enum ShapeGenerator {
    /// How the finger's speed changes along a stroke: `s` of the way in time to
    /// how far along the path.
    enum Speed: CaseIterable {
        case even, eased, fastStart, fastEnd
        func progress(_ s: Double) -> Double {
            switch self {
            case .even: s
            case .eased: (1 - cos(Double.pi * s)) / 2
            case .fastStart: 1 - (1 - s) * (1 - s)
            case .fastEnd: s * s
            }
        }
    }

    static func speed(_ g: inout SplitMix64) -> Speed {
        Speed.allCases[Int(g.next() % UInt64(Speed.allCases.count))]
    }

    static func jitter(_ p: Point, _ g: inout SplitMix64, mm sd: Double = 0.1) -> Point {
        Point(x: p.x + g.gaussian() * sd, y: p.y + g.gaussian() * sd)
    }

    /// A polyline walked by its length: `point(at:)` gives the point that far
    /// along it, for lengths that never go back from one call to the next.
    struct Walk {
        let path: [Point]
        let along: [Double]
        private var j = 1

        init(_ path: [Point]) {
            var along = [0.0]
            for i in 1..<path.count { along.append(along[i - 1] + path[i].distance(to: path[i - 1])) }
            self.path = path
            self.along = along
        }

        var length: Double { along[along.count - 1] }

        mutating func point(at s: Double) -> Point {
            while j < along.count - 1 && along[j] < s { j += 1 }
            let f = along[j] > along[j - 1] ? (s - along[j - 1]) / (along[j] - along[j - 1]) : 0
            return path[j - 1] + (path[j] - path[j - 1]) * min(max(f, 0), 1)
        }
    }

    /// A closed loop as people draw one: an ellipse (`ratio` minor/major, tilted
    /// at random), with a slow wobble of the radius, a start inside or outside
    /// (`spiral`: the radius grows or shrinks by that share over the stroke),
    /// swept `sweepDegrees` (360 closes it; less stops short, more overshoots),
    /// clockwise or not, `durationMS` long with the given speed profile.
    struct Loop {
        var center = mm(100, 50)
        var radius = 15.0
        var ratio = 1.0
        var tilt = 0.0
        var start = 0.0
        var clockwise = true
        var sweepDegrees = 360.0
        var wobble = (0.0, 0.0)
        var wobblePhase = (0.0, 0.0)
        var spiral = 0.0
        var durationMS = 1000.0
        var speed = Speed.even

        static func random(_ g: inout SplitMix64) -> Loop {
            var l = Loop()
            l.radius = g.uniform(8...30)
            l.center = mm(100 + g.uniform(-20...20), 50 + g.uniform(-10...10))
            l.ratio = g.uniform(0.7...1.0)
            l.tilt = g.uniform(0...Double.pi)
            l.start = g.uniform(0...(2 * Double.pi))
            l.clockwise = g.unit() < 0.5
            l.sweepDegrees = 360 + g.uniform(-35...50)
            l.wobble = (g.uniform(0...0.04), g.uniform(0...0.04))
            l.wobblePhase = (g.uniform(0...6.3), g.uniform(0...6.3))
            l.spiral = g.uniform(-0.12...0.12)
            l.durationMS = g.uniform(400...2500)
            l.speed = ShapeGenerator.speed(&g)
            return l
        }

        /// The point `s` (0…1) of the way along the loop's path.
        func point(_ s: Double) -> Point {
            let sign = clockwise ? 1.0 : -1.0
            let a = start + sign * sweepDegrees * Double.pi / 180 * s
            let k = 1 + wobble.0 * sin(2 * a + wobblePhase.0) + wobble.1 * sin(3 * a + wobblePhase.1)
            let r = radius * k * (1 + spiral * (s - 0.5))
            // An ellipse with semi-axes r and r·ratio, rotated by tilt.
            let ex = r * cos(a - tilt), ey = r * ratio * sin(a - tilt)
            return Point(
                x: center.x + ex * cos(tilt) - ey * sin(tilt),
                y: center.y + ex * sin(tilt) + ey * cos(tilt))
        }

        /// The direction of travel at `s`, as a unit vector.
        func heading(_ s: Double) -> Point {
            let d = point(min(s + 0.001, 1)) - point(max(s - 0.001, 0))
            return d / max(d.length, 1e-9)
        }

        /// The loop sampled every 10 ms, jittered; `radial`, if given, scales
        /// each point's distance from the centre by its value at `s`.
        func points(_ g: inout SplitMix64, radial: ((Double) -> Double)? = nil) -> [Point] {
            let n = max(8, Int(durationMS / 10))
            return (0...n).map { i in
                let s = speed.progress(Double(i) / Double(n))
                let p = radial.map { center + (point(s) - center) * $0(s) } ?? point(s)
                return ShapeGenerator.jitter(p, &g)
            }
        }
    }

    /// A straight hook of `length` mm off `end`, in a random direction, a few samples.
    static func hook(from end: Point, _ g: inout SplitMix64, length: Double) -> [Point] {
        let a = g.uniform(0...(2 * Double.pi))
        return (1...3).map { i in
            jitter(end + Point(x: cos(a), y: sin(a)) * (length * Double(i) / 3), &g)
        }
    }

    /// A circle as a person draws one with a finger: `Loop.random`, and a third
    /// of the time a short hook (1–2 mm) where the finger lands or lifts.
    static func sloppyCircle(_ g: inout SplitMix64) -> [Point] {
        let loop = Loop.random(&g)
        return withHooks(loop.points(&g), &g)
    }

    /// `p` with a 1–2 mm hook, in a random direction, where the finger lands
    /// and where it lifts.
    static func withHooksAtBothEnds(_ p: [Point], _ g: inout SplitMix64) -> [Point] {
        var p = hook(from: p[0], &g, length: g.uniform(1...2)).reversed() + p
        p += hook(from: p[p.count - 1], &g, length: g.uniform(1...2))
        return p
    }

    /// `p` with, a third of the time each, a 1–2 mm hook where the finger
    /// lands and where it lifts.
    static func withHooks(_ p: [Point], _ g: inout SplitMix64) -> [Point] {
        var p = p
        if g.unit() < 0.3 { p = hook(from: p[0], &g, length: g.uniform(1...2)).reversed() + p }
        if g.unit() < 0.3 { p += hook(from: p[p.count - 1], &g, length: g.uniform(1...2)) }
        return p
    }

    /// A circle left open: `Loop.random` stopping 35–60° short of closing (a
    /// sixth of the way round at most), with the hooks of `sloppyCircle`.
    static func openCircle(_ g: inout SplitMix64) -> [Point] {
        var loop = Loop.random(&g)
        loop.sweepDegrees = 360 - g.uniform(35...60)
        return withHooks(loop.points(&g), &g)
    }

    /// A circle begun inside its loop, as some people start one: from 0.4–0.7
    /// of the radius out (an ellipse's), moving out to the loop over the first
    /// 0.2–0.5 of a turn, then round 20–110° past closing, in 0.3–2 s.
    static func circleBegunInside(_ g: inout SplitMix64) -> [Point] {
        var loop = Loop.random(&g)
        loop.sweepDegrees = 360 + g.uniform(20...110)
        loop.spiral = 0
        loop.durationMS = g.uniform(300...2000)
        let inset = g.uniform(0.3...0.6), over = g.uniform(0.2...0.5)
        let turns = loop.sweepDegrees / 360
        return loop.points(&g) { s in 1 - inset * max(0, 1 - s * turns / over) }
    }

    /// A C, or any arc open by a quarter of the way round or more (a U, an n):
    /// `Loop.random` swept 180–270°, winding in or out by at most 5 %.
    static func arc(_ g: inout SplitMix64) -> [Point] {
        var loop = Loop.random(&g)
        loop.sweepDegrees = g.uniform(180...270)
        loop.spiral = g.uniform(-0.05...0.05)
        return loop.points(&g)
    }

    /// A straight line `length` mm into `to`, arriving along `heading`, sampled
    /// every 10 ms at `speedMMPerS`.
    static func line(to: Point, heading: Point, length: Double, speedMMPerS: Double, _ g: inout SplitMix64) -> [Point] {
        let n = max(3, Int(length / speedMMPerS * 100))
        let from = to - heading * length
        return (0..<n).map { i in jitter(from + heading * (length * Double(i) / Double(n)), &g) }
    }

    /// A line with a loop at its end, the way a P, a lasso or a pitchfork's handle
    /// is drawn: a straight line `tail` radii long that runs into a loop (which
    /// is `Loop.random` but closing back onto the line), at up to `angle` degrees
    /// off the loop's tangent. The loop is a circle; the stroke is not.
    static func lineWithLoop(_ g: inout SplitMix64, tail: ClosedRange<Double>, angle: Double = 30) -> [Point] {
        var loop = Loop.random(&g)
        loop.sweepDegrees = 360 + g.uniform(-15...30)
        loop.spiral = g.uniform(-0.05...0.05)
        let t = loop.radius * g.uniform(tail)
        let off = g.uniform(-angle...angle) * Double.pi / 180
        let h = loop.heading(0)
        let heading = Point(x: h.x * cos(off) - h.y * sin(off), y: h.x * sin(off) + h.y * cos(off))
        let speed = loop.radius * 2 * Double.pi / (loop.durationMS / 1000)
        return line(to: loop.point(0), heading: heading, length: t, speedMMPerS: speed, &g) + loop.points(&g)
    }

    /// A P: a stem drawn from the bottom up, and a bowl from its top round to
    /// the stem's middle (or lower): `stem` × the bowl's height.
    static func letterP(_ g: inout SplitMix64, stem: ClosedRange<Double>) -> [Point] {
        let h = g.uniform(10...30)  // bowl height
        let w = h * g.uniform(0.5...0.9) / 2  // bowl's horizontal semi-axis
        let top = mm(90 + g.uniform(-10...10), 50 - h / 2 - g.uniform(0...10))
        let bottom = top + Point(x: g.uniform(-0.1...0.1) * h, y: h * g.uniform(stem))
        let speed = g.uniform(40...150)  // mm/s
        var p = line(
            to: top, heading: (top - bottom) / (top - bottom).length, length: (top - bottom).length,
            speedMMPerS: speed, &g)
        // The bowl: half an ellipse to the right of the stem, top to middle.
        let c = top + Point(x: 0, y: h / 2)
        let n = max(8, Int(Double.pi * (w + h / 2) / 2 / speed * 100))
        let close = g.uniform(0.9...1.1)  // where it meets the stem again
        for i in 0...n {
            let a = -Double.pi / 2 + Double.pi * close * Double(i) / Double(n)
            p.append(jitter(c + Point(x: w * cos(a) * 1.6, y: h / 2 * sin(a)), &g))
        }
        return p
    }

    /// An 'e': a line across the middle, then round the loop, ending low on the right.
    static func letterE(_ g: inout SplitMix64) -> [Point] {
        var loop = Loop.random(&g)
        loop.clockwise = false
        loop.tilt = 0
        loop.ratio = g.uniform(0.8...1.0)
        loop.start = 0
        loop.sweepDegrees = g.uniform(290...330)
        loop.spiral = 0
        let speed = loop.radius * 2 * Double.pi / (loop.durationMS / 1000)
        let across = loop.radius * g.uniform(1.5...1.9)
        return line(to: loop.point(0), heading: mm(1, 0), length: across, speedMMPerS: speed, &g) + loop.points(&g)
    }

    /// Two arms: from the start down to a vertex, then up: the first `first` mm at
    /// `down` degrees below the horizontal, the second `second` mm at `up`
    /// degrees above it, both slightly bowed, each drawn in `armMS`.
    static func vee(
        _ g: inout SplitMix64, first: Double, down: Double, second: Double, up: Double, armMS: ClosedRange<Double>
    ) -> [Point] {
        let start = mm(100 + g.uniform(-30...0), 30 + g.uniform(-10...10))
        let d1 = down * Double.pi / 180, d2 = up * Double.pi / 180
        let vertex = start + Point(x: cos(d1), y: sin(d1)) * first
        let end = vertex + Point(x: cos(d2), y: -sin(d2)) * second
        var p: [Point] = []
        for (a, b, last) in [(start, vertex, false), (vertex, end, true)] {
            let n = max(4, Int(g.uniform(armMS) / 10))
            let bow = g.uniform(-0.06...0.06) * a.distance(to: b)
            let normal = Point(x: -(b - a).y, y: (b - a).x) / max(a.distance(to: b), 1e-9)
            let speed = ShapeGenerator.speed(&g)
            for i in 0..<(last ? n + 1 : n) {
                let s = speed.progress(Double(i) / Double(n))
                p.append(jitter(a + (b - a) * s + normal * (bow * sin(Double.pi * s)), &g))
            }
        }
        return p
    }

    /// A checkmark: a short first arm down and to the right, a second 1.8–3.5
    /// times as long up to the right.
    static func checkmark(_ g: inout SplitMix64) -> [Point] {
        let first = g.uniform(5...14)
        return vee(
            &g, first: first, down: g.uniform(30...75), second: first * g.uniform(1.8...3.5),
            up: g.uniform(40...70), armMS: 80...400)
    }

    /// A checkmark drawn with a short steep first arm (60–80° down, 5–12 mm) and a
    /// long flat second arm (2–3 × as long, 30–45° up): it rises less than 1.5 ×
    /// the first arm's drop, and ends above where it began.
    static func flatCheckmark(_ g: inout SplitMix64) -> [Point] {
        let first = g.uniform(5...12)
        return vee(
            &g, first: first, down: g.uniform(60...80), second: first * g.uniform(2...3),
            up: g.uniform(30...45), armMS: 80...400)
    }

    /// A V: two arms of nearly the same length (the second 0.8–1.25 × the first),
    /// each 55–80° from the horizontal, the whole leaning a little either way.
    static func equalArmedV(_ g: inout SplitMix64) -> [Point] {
        let first = g.uniform(8...25)
        let lean = g.uniform(-12...12)
        return vee(
            &g, first: first, down: g.uniform(55...80) + lean, second: first * g.uniform(0.8...1.25),
            up: g.uniform(55...80) - lean, armMS: 80...400)
    }

    /// A left curly brace drawn quickly, top to bottom: out to the left from the
    /// top, down, a point to the left in the middle and back, down, out to the
    /// right at the bottom, with the zigzag a fast hand adds to the stem.
    static func curlyBrace(_ g: inout SplitMix64) -> [Point] {
        let h = g.uniform(20...45), w = h * g.uniform(0.3...0.5)
        let x0 = 110 + g.uniform(-10...10), y0 = 50 - h / 2
        let zig = w * g.uniform(0.3...0.8)
        let phase = g.uniform(0...(2 * Double.pi))
        // 1 at 0, falling off to either side.
        func bump(_ x: Double) -> Double {
            let q = x * x
            return 1 / (1 + q * q)
        }
        // x along the brace's height: the curls at the ends, the point in the middle.
        func x(_ t: Double) -> Double {
            let end = w * bump(t / 0.12) + w * bump((1 - t) / 0.12)
            let tip = -w * bump((t - 0.5) / 0.07)
            return x0 + end + tip + zig * sin(2 * Double.pi * 2.5 * t + phase) * sin(Double.pi * t)
        }
        let n = Int(g.uniform(40...90))  // 400–900 ms
        let speed = ShapeGenerator.speed(&g)
        return (0...n).map { i in
            let t = speed.progress(Double(i) / Double(n))
            return jitter(mm(x(t), y0 + h * t), &g)
        }
    }

    /// Loops drawn in a row, moving right: cursive e's or l's, a telephone cord.
    /// 3–5 loops 8–24 mm across, 0.7–1.2 as tall as wide, each moving on 10–50 %
    /// of its width, 200–450 ms a loop. Every loop turns back twice across, at
    /// its left and right, so it counts reversals as scrubbing does.
    static func loops(_ g: inout SplitMix64) -> [Point] {
        let r = g.uniform(4...12), tall = g.uniform(0.7...1.2)
        let advance = 2 * r * g.uniform(0.1...0.5)
        let count = 3 + Int(g.next() % 3)
        let loopMS = g.uniform(200...450)
        let sign = g.unit() < 0.5 ? -1.0 : 1.0
        let origin = mm(70 + g.uniform(-10...10), 50 + g.uniform(-10...10))
        let n = Int(Double(count) * loopMS / 10)
        return (0...n).map { i in
            let t = Double(i) / Double(n) * Double(count)
            let a = 2 * Double.pi * t
            return jitter(origin + Point(x: advance * t - r * cos(a), y: sign * tall * r * sin(a)), &g)
        }
    }

    /// Scrubbing: `reversals + 1` strokes across of 8–25 mm (±20 % each), 60–300 ms
    /// each, creeping up or down by up to `creep` of their width, with some wobble.
    static func tickle(_ g: inout SplitMix64, reversals: Int, creep: Double) -> [Point] {
        let amplitude = g.uniform(8...25)
        let strokeMS = g.uniform(60...300)
        let drift = g.uniform(-creep...creep)
        var p = mm(100 + g.uniform(-20...20), 50 + g.uniform(-10...10))
        var points = [p]
        var direction = g.unit() < 0.5 ? -1.0 : 1.0
        for _ in 0...reversals {
            let width = amplitude * g.uniform(0.8...1.2)
            let n = max(4, Int(strokeMS * g.uniform(0.8...1.2) / 10))
            let wobble = g.uniform(-0.1...0.1) * width
            let start = p
            for k in 1...n {
                let f = (1 - cos(Double.pi * Double(k) / Double(n))) / 2
                p = mm(start.x + direction * width * f, start.y + drift * width * f + wobble * sin(Double.pi * f))
                points.append(jitter(p, &g, mm: 0.05))
            }
            direction = -direction
        }
        return points
    }
}
