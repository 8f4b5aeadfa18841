@testable import GestureCore

/// Seeded generators of strokes that have a loop in them but are not a circle —
/// a line with a loop at either end, a loop in the middle of a line, letters and
/// digits written with a loop, spirals, two loops — and of sloppy circles with a
/// short lead-in or tail, to tell them apart. Each is drawn as a pen moving at a
/// steady step along straight lines and arcs, in units of the loop's radius,
/// then scaled to a radius of 8–30 mm, turned to any angle, mirrored half of the
/// time (the other direction round), timed so that the loop takes 0.4–2.5 s with
/// one of the speed profiles, and sampled at 100 Hz with 0.1 mm of jitter.
extension ShapeGenerator {
    /// A pen that draws in units of the loop's radius.
    struct Pen {
        var points = [Point.zero]
        var position = Point.zero
        /// Direction of travel, radians.
        var heading = 0.0
        static let step = 0.02

        /// A straight line `length` long.
        mutating func line(_ length: Double) {
            let n = max(1, Int(length / Pen.step))
            let d = Point(x: cos(heading), y: sin(heading)) * (length / Double(n))
            for _ in 0..<n {
                position += d
                points.append(position)
            }
        }

        /// Turns on the spot by `degrees` (a corner; positive turns the way loops do).
        mutating func turn(_ degrees: Double) { heading += degrees * Double.pi / 180 }

        /// An arc that turns `degrees` (positive one way, negative the other) with
        /// a radius of curvature going from `radius` to `endRadius` (a spiral when
        /// they differ), and bending more and less twice a turn by `lumpiness`
        /// (0: round; 0.3: about an ellipse of 0.7).
        mutating func arc(
            _ degrees: Double, radius: Double = 1, endRadius: Double? = nil, lumpiness: Double = 0, phase: Double = 0
        ) {
            let total = abs(degrees) * Double.pi / 180
            let sign = degrees < 0 ? -1.0 : 1.0
            let r1 = endRadius ?? radius
            var turned = 0.0
            while turned < total {
                let f = turned / total
                let r = radius + (r1 - radius) * f
                let k = (1 + lumpiness * cos(2 * turned + phase)) / r
                let dh = min(k * Pen.step, total - turned)
                turned += dh
                heading += sign * dh
                position += Point(x: cos(heading), y: sin(heading)) * Pen.step
                points.append(position)
            }
        }

        /// A loop as people draw one: `degrees` round (about 360), a little lumpy.
        mutating func loop(_ degrees: Double, _ g: inout SplitMix64) {
            arc(degrees, lumpiness: g.uniform(0...0.25), phase: g.uniform(0...6.3))
        }
    }

    /// Places a pen's drawing on the panel: scaled to a loop radius of 8–30 mm,
    /// turned to any angle, mirrored half of the time, the loop taking 0.4–2.5 s
    /// (a loop is 2π radii of path), sampled at 100 Hz with a speed profile and
    /// 0.1 mm of jitter.
    static func place(_ pen: Pen, _ g: inout SplitMix64) -> [Point] {
        let r = g.uniform(8...30)
        let rotation = g.uniform(0...(2 * Double.pi))
        let mirror = g.unit() < 0.5 ? -1.0 : 1.0
        let loopMS = g.uniform(400...2500)
        let speed = ShapeGenerator.speed(&g)
        let path = pen.points
        var walk = Walk(path)
        let total = walk.length
        // Centred on the drawing's box, then on the panel.
        let box = Box(bounding: path)!
        let mid = Point(x: (box.minX + box.maxX) / 2, y: (box.minY + box.maxY) / 2)
        let centre = mm(100 + g.uniform(-10...10), 50 + g.uniform(-5...5))
        func placed(_ p: Point) -> Point {
            let q = Point(x: p.x - mid.x, y: mirror * (p.y - mid.y)) * r
            return centre
                + Point(x: q.x * cos(rotation) - q.y * sin(rotation), y: q.x * sin(rotation) + q.y * cos(rotation))
        }
        let n = max(8, Int(total / (2 * Double.pi) * loopMS / 10))
        return (0...n).map { i in
            let p = walk.point(at: speed.progress(Double(i) / Double(n)) * total)
            return jitter(placed(p), &g)
        }
    }

    /// The families of strokes with a loop that are not a circle.
    enum LoopFamily: String, CaseIterable {
        /// A straight line 1–3 radii long, then a loop (a lasso, a P drawn bowl last).
        case loopAtEnd
        /// A loop, then a straight line 1–3 radii long out of it.
        case loopAtStart
        /// A line 1–3 radii long, a loop, and on along the same way 1–3 radii
        /// (a pigtail: the loop in the middle of a line).
        case loopInALine
        /// A handle 2–4 radii long up to a loop, and back down the handle 1–2 radii
        /// (a pitchfork's or a lollipop's handle drawn in one go).
        case pitchfork
        /// A 6: a wide curve (radius 2.5–4, turning 60–110°) down into the loop.
        case six
        /// A 9 or a q: the loop, then back down its side and on 1.5–3 radii.
        case nine
        /// An a: the loop, then down its side and 0.6–1.2 radii on (a short stem).
        case letterA
        /// A d: the loop, up 1.5–3 radii, and back down past the loop.
        case letterD
        /// A g: the loop, down 1.5–2.5 radii, and a hook back the other way.
        case letterG
        /// A spiral of 1.5–2 turns, winding in or out by 30–60 %.
        case spiral
        /// Two loops one after the other, 0–1 radii apart (a loop-de-loop).
        case twoLoops
        /// An α: a line 0.8–2 radii in, a loop that turns 40–80° short of closing,
        /// and a line out that crosses the line in.
        case alpha
        /// A capital D in one stroke: a stem 1.6–2.4 up, a corner of 75–105°,
        /// and a bow of 160–200° (its radius half the stem) back down to the
        /// stem's foot.
        case capitalD
        /// A null sign in one stroke (∅): a loop, then a turn of 80–110° in and a
        /// line 2.2–3 radii out across it.
        case nullSign
    }

    static func loopStroke(_ family: LoopFamily, _ g: inout SplitMix64) -> [Point] {
        var pen = Pen()
        // How far off the loop's tangent a line runs into or out of it.
        func off() -> Double { g.uniform(-30...30) }
        /// A straight line of a length in `radii`, then a turn off the loop's tangent.
        func lineIn(_ radii: ClosedRange<Double>) {
            pen.line(g.uniform(radii))
            pen.turn(off())
        }
        /// A turn off the loop's tangent, then a straight line of a length in `radii`.
        func lineOut(_ radii: ClosedRange<Double>) {
            pen.turn(off())
            pen.line(g.uniform(radii))
        }
        /// A turn back of 150–180° and a stem of a length in `radii` (a 9, an a, a g).
        func stem(_ radii: ClosedRange<Double>) {
            pen.turn(g.uniform(150...180))
            pen.line(g.uniform(radii))
        }
        switch family {
        case .loopAtEnd:
            lineIn(1...3)
            pen.loop(g.uniform(330...390), &g)
        case .loopAtStart:
            pen.loop(g.uniform(330...390), &g)
            lineOut(1...3)
        case .loopInALine:
            lineIn(1...3)
            pen.loop(g.uniform(340...380), &g)
            lineOut(1...3)
        case .pitchfork:
            lineIn(2...4)
            pen.loop(g.uniform(330...370), &g)
            stem(1...2)
        case .six:
            let bend = g.uniform(60...110)
            pen.arc(bend, radius: g.uniform(2.5...4))
            pen.loop(g.uniform(330...380), &g)
        case .nine:
            pen.loop(g.uniform(340...380), &g)
            stem(1.5...3)
        case .letterA:
            pen.loop(g.uniform(340...380), &g)
            stem(0.6...1.2)
        case .letterD:
            pen.loop(g.uniform(340...380), &g)
            pen.turn(g.uniform(-20...20))
            pen.line(g.uniform(1.5...3))
            pen.turn(g.uniform(165...180))
            pen.line(g.uniform(2.5...4))
        case .letterG:
            pen.loop(g.uniform(340...380), &g)
            stem(1.5...2.5)
            pen.arc(-g.uniform(120...180), radius: g.uniform(0.5...0.8))
        case .spiral:
            let inward = g.unit() < 0.5
            let change = g.uniform(0.3...0.6)
            pen.arc(
                g.uniform(540...720), radius: inward ? 1 : 1 - change, endRadius: inward ? 1 - change : 1,
                lumpiness: g.uniform(0...0.15), phase: g.uniform(0...6.3))
        case .twoLoops:
            pen.loop(g.uniform(350...370), &g)
            pen.line(g.uniform(0...1))
            pen.loop(g.uniform(350...370), &g)
        case .alpha:
            pen.line(g.uniform(0.8...2))
            pen.loop(360 - g.uniform(40...80), &g)
            pen.line(g.uniform(0.8...2))
        case .capitalD:
            let stem = g.uniform(1.6...2.4)
            pen.line(stem)
            pen.turn(g.uniform(75...105))
            pen.arc(g.uniform(160...200), radius: stem / 2, lumpiness: g.uniform(0...0.2), phase: g.uniform(0...6.3))
        case .nullSign:
            pen.loop(g.uniform(350...380), &g)
            pen.turn(g.uniform(80...110))
            pen.line(g.uniform(2.2...3))
        }
        return place(pen, &g)
    }

    /// A circle drawn carelessly: `Loop.random` made harsher — ellipses to 0.6,
    /// closing 35° short to 110° over (1.3 turns), winding in or out by up to
    /// 10 % — and, a third of the time each, a straight lead-in and a straight
    /// tail of up to 0.3 radii, off the tangent by up to 40°, and 1–2 mm hooks.
    static func carelessCircle(_ g: inout SplitMix64) -> [Point] {
        var loop = Loop.random(&g)
        loop.ratio = g.uniform(0.6...1.0)
        loop.sweepDegrees = 360 + g.uniform(-35...110)
        loop.spiral = g.uniform(-0.1...0.1)
        var p = loop.points(&g)
        let speed = loop.radius * 2 * Double.pi / (loop.durationMS / 1000)
        func turned(_ h: Point) -> Point {
            let a = g.uniform(-40...40) * Double.pi / 180
            return Point(x: h.x * cos(a) - h.y * sin(a), y: h.x * sin(a) + h.y * cos(a))
        }
        if g.unit() < 0.3 {
            let length = loop.radius * g.uniform(0.05...0.3)
            p = line(to: p[0], heading: turned(loop.heading(0)), length: length, speedMMPerS: speed, &g) + p
        }
        if g.unit() < 0.3 {
            let length = loop.radius * g.uniform(0.05...0.3)
            let h = turned(loop.heading(1))
            let end = p[p.count - 1]
            p += line(to: end + h * length, heading: h, length: length, speedMMPerS: speed, &g).dropFirst()
        }
        return withHooks(p, &g)
    }
}
