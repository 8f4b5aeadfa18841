@testable import GestureCore

/// Seeded generators of checkmarks and V's near the line between them: checkmarks
/// whose second arm is only 1.5–2 times the first, with a rounded corner, slanted
/// either way; V's whose arms are nearly equal or a little lopsided. Each is two
/// straight arms joined by an arc, drawn at a steady pace with a speed profile,
/// sampled at 100 Hz with 0.1 mm of jitter.
extension ShapeGenerator {
    /// Two arms from the start: `first` mm at `down` degrees below the horizontal,
    /// then `second` mm at `up` degrees above it, the corner between them rounded
    /// with an arc of `corner` mm radius, the whole turned by `slant` degrees
    /// (positive: clockwise on screen) about its start, drawn in `durationMS`.
    static func roundedVee(
        _ g: inout SplitMix64, first: Double, down: Double, second: Double, up: Double, corner: Double,
        slant: Double, durationMS: Double
    ) -> [Point] {
        let d1 = down * Double.pi / 180, d2 = -up * Double.pi / 180
        let u1 = Point(x: cos(d1), y: sin(d1)), u2 = Point(x: cos(d2), y: sin(d2))
        // The arc meets each arm `back` mm from the vertex.
        let opening = Double.pi - (down + up) * Double.pi / 180
        let back = min(corner * cos(opening / 2) / max(sin(opening / 2), 1e-3), 0.45 * min(first, second))
        let vertex = u1 * first
        let path = roundedPath(
            from: .zero, [(vertex - u1 * back, vertex, vertex + u2 * back)], to: vertex + u2 * second)
        let origin = mm(90 + g.uniform(-20...0), 30 + g.uniform(-10...10))
        return drawn(path, at: origin, slant: slant, durationMS: durationMS, &g)
    }

    /// Straight lines from `start` through each corner to `end`, each corner
    /// cut off from `a` to `b` (on the lines either side of `at`) by a
    /// quadratic Bézier through near it; lines in steps of 0.05 mm.
    static func roundedPath(from start: Point, _ corners: [(a: Point, at: Point, b: Point)], to end: Point) -> [Point] {
        var path = [start]
        func lineTo(_ p: Point) {
            let from = path[path.count - 1]
            let n = max(1, Int(from.distance(to: p) / 0.05))
            for i in 1...n { path.append(from + (p - from) * (Double(i) / Double(n))) }
        }
        for (a, c, b) in corners {
            lineTo(a)
            for i in 1...20 {
                let t = Double(i) / 20
                path.append(a * ((1 - t) * (1 - t)) + c * (2 * (1 - t) * t) + b * (t * t))
            }
        }
        lineTo(end)
        return path
    }

    /// `path` (mm, from the origin) turned by `slant` degrees (positive:
    /// clockwise on screen) about its start, placed at `origin`, drawn in
    /// `durationMS` with a speed profile, sampled every 10 ms with 0.1 mm of
    /// jitter.
    static func drawn(
        _ path: [Point], at origin: Point, slant: Double = 0, durationMS: Double, _ g: inout SplitMix64
    ) -> [Point] {
        var walk = Walk(path)
        let total = walk.length
        let s = slant * Double.pi / 180
        let speed = ShapeGenerator.speed(&g)
        let n = max(8, Int(durationMS / 10))
        return (0...n).map { i in
            let p = walk.point(at: speed.progress(Double(i) / Double(n)) * total)
            let q = Point(x: p.x * cos(s) - p.y * sin(s), y: p.x * sin(s) + p.y * cos(s))
            return jitter(origin + q, &g)
        }
    }

    /// `roundedVee` with each measure drawn from its range: the first arm
    /// `first` mm, the second `ratio` times as long, the corner's arc `corner`
    /// of the first arm, slanted up to `slant` degrees either way, in 250–900 ms.
    static func roundedVee(
        _ g: inout SplitMix64, first: ClosedRange<Double>, down: ClosedRange<Double>, ratio: ClosedRange<Double>,
        up: ClosedRange<Double>, corner: ClosedRange<Double>, slant: Double
    ) -> [Point] {
        let arm = g.uniform(first)
        return roundedVee(
            &g, first: arm, down: g.uniform(down), second: arm * g.uniform(ratio), up: g.uniform(up),
            corner: arm * g.uniform(corner), slant: g.uniform(-slant...slant), durationMS: g.uniform(250...900))
    }

    /// A checkmark close to a V: the second arm 1.5–2 times the first (6–14 mm),
    /// the first 40–60° down, the second 45–62° up, the corner rounded by up to a
    /// fifth of the first arm, slanted up to 15° either way, in 250–900 ms.
    static func nearVCheckmark(_ g: inout SplitMix64) -> [Point] {
        roundedVee(&g, first: 6...14, down: 40...60, ratio: 1.5...2.0, up: 45...62, corner: 0...0.2, slant: 15)
    }

    /// A V a little lopsided: the second arm 1.0–1.3 times the first (8–25 mm),
    /// both 55–75° from the horizontal, the corner rounded by up to a fifth of the
    /// first arm, slanted up to 10° either way, in 250–900 ms.
    static func lopsidedV(_ g: inout SplitMix64) -> [Point] {
        roundedVee(&g, first: 8...25, down: 55...75, ratio: 1.0...1.3, up: 55...75, corner: 0...0.2, slant: 10)
    }

    /// A V a little lopsided with a round bottom: the second arm 1.0–1.3 times
    /// the first (8–25 mm), both 50–80° from the horizontal, the corner rounded
    /// by an arc of up to 0.4 of the first arm (so that it cuts off up to 0.45
    /// of the shorter arm), slanted up to 20° either way, in 250–900 ms.
    static func roundBottomedV(_ g: inout SplitMix64) -> [Point] {
        roundedVee(&g, first: 8...25, down: 50...80, ratio: 1.0...1.3, up: 50...80, corner: 0...0.4, slant: 20)
    }

    /// A stroke through `corners` (mm, from the start at the origin), each
    /// corner rounded with an arc of `radius` mm (at most 0.4 of the shorter
    /// segment beside it), placed on the panel, drawn in `durationMS`.
    static func polyline(_ g: inout SplitMix64, _ corners: [Point], radius: Double, durationMS: Double) -> [Point] {
        let cut = (1..<(corners.count - 1)).map { k in
            let c = corners[k], before = corners[k - 1], after = corners[k + 1]
            let back = min(radius, 0.4 * min(c.distance(to: before), c.distance(to: after)))
            return (c + (before - c) / c.distance(to: before) * back, c, c + (after - c) / c.distance(to: after) * back)
        }
        let path = roundedPath(from: corners[0], cut, to: corners[corners.count - 1])
        let origin = mm(70 + g.uniform(-10...10), 30 + g.uniform(-10...10))
        return drawn(path, at: origin, durationMS: durationMS, &g)
    }

    /// A W drawn as a zig-zag: down, up, down, up, each stroke 8–18 mm at
    /// 55–80° from the horizontal, the last a little longer or shorter, the
    /// corners rounded by up to 1.5 mm, in 400–1200 ms.
    static func zigzagW(_ g: inout SplitMix64) -> [Point] {
        var corners = [Point.zero]
        for k in 0..<4 {
            let length = g.uniform(8...18) * (k == 3 ? g.uniform(0.8...1.6) : 1)
            let angle = g.uniform(55...80) * Double.pi / 180
            let last = corners[corners.count - 1]
            corners.append(last + Point(x: cos(angle), y: k % 2 == 0 ? sin(angle) : -sin(angle)) * length)
        }
        return polyline(&g, corners, radius: g.uniform(0...1.5), durationMS: g.uniform(400...1200))
    }

    /// A v written by hand: a lead-in up to the top of the first arm (0.3–0.7
    /// of its length, 35–70° up), a cusp, then a V whose arms are 1.0–1.3 ×
    /// each other, 55–75° from the horizontal; corners rounded by up to 1 mm,
    /// in 350–1000 ms.
    static func writtenV(_ g: inout SplitMix64) -> [Point] {
        let arm = g.uniform(8...20)
        let lead = arm * g.uniform(0.3...0.7), leadAngle = g.uniform(35...70) * Double.pi / 180
        let down = g.uniform(55...75) * Double.pi / 180, up = g.uniform(55...75) * Double.pi / 180
        let top = Point(x: cos(leadAngle), y: -sin(leadAngle)) * lead
        let vertex = top + Point(x: cos(down), y: sin(down)) * arm
        let end = vertex + Point(x: cos(up), y: -sin(up)) * (arm * g.uniform(1.0...1.3))
        return polyline(&g, [.zero, top, vertex, end], radius: g.uniform(0...1), durationMS: g.uniform(350...1000))
    }

    /// A √: a short tick down (3–8 mm at 40–70°), the rising arm 2–3.5 × as
    /// long at 60–80° up, then the bar along the top, 0.8–1.2 × the rising arm,
    /// within 5° of level; corners rounded by up to 1.5 mm, in 400–1100 ms.
    static func squareRoot(_ g: inout SplitMix64) -> [Point] {
        let tick = g.uniform(3...8), down = g.uniform(40...70) * Double.pi / 180
        let rise = tick * g.uniform(2...3.5), up = g.uniform(60...80) * Double.pi / 180
        let bar = rise * g.uniform(0.8...1.2), level = g.uniform(-5...5) * Double.pi / 180
        let vertex = Point(x: cos(down), y: sin(down)) * tick
        let top = vertex + Point(x: cos(up), y: -sin(up)) * rise
        let end = top + Point(x: cos(level), y: sin(level)) * bar
        return polyline(&g, [.zero, vertex, top, end], radius: g.uniform(0...1.5), durationMS: g.uniform(400...1100))
    }

    /// A small checkmark (first arm 3–6 mm at 35–70° down, the second 1.8–3 ×
    /// as long at 40–65° up) whose finger landed 0.4–1.4 mm off its start,
    /// ahead of where the first arm goes, settling there for 3–10 frames, so
    /// that the stroke begins by turning back 100–180° into it: a landing, not
    /// a lead-in.
    static func smallCheckmarkWithALanding(_ g: inout SplitMix64) -> [Point] {
        let first = g.uniform(3...6), down = g.uniform(35...70)
        let stroke = vee(
            &g, first: first, down: down, second: first * g.uniform(1.8...3), up: g.uniform(40...65),
            armMS: 80...300)
        let d = down * Double.pi / 180
        let back = g.uniform(0...80) * (g.unit() < 0.5 ? -1.0 : 1.0) * Double.pi / 180
        let length = g.uniform(0.4...1.4)
        let landing = stroke[0] + Point(x: cos(d + back), y: sin(d + back)) * length
        // The finger settles for a few frames (jittering 0.15 mm), then moves.
        let settle = (0..<Int(g.uniform(3...10))).map { _ in jitter(landing, &g, mm: 0.15) }
        let hook = (0..<3).map { i in jitter(landing + (stroke[0] - landing) * (Double(i) / 3), &g, mm: 0.05) }
        return settle + hook + stroke
    }
}
