import FoundationEssentials
import GestureCore
import Glibc

/// Sensor trouble added to drawn strokes, to check that recognition does not hang
/// on the clean lines of a stylus: Gaussian jitter on every point, and a hook at
/// each end (the finger sliding in as it lands and flicking off as it lifts), in a
/// random direction. Deterministic for a seed.
public struct Perturbation: Sendable, Equatable {
    /// Standard deviation of the jitter, in mm.
    public var jitterMM = 0.0
    /// Length of the hook at each end, in mm.
    public var hookMM = 0.0
    public var seed: UInt64 = 1

    public init(jitterMM: Double = 0, hookMM: Double = 0, seed: UInt64 = 1) {
        self.jitterMM = jitterMM
        self.hookMM = hookMM
        self.seed = seed
    }

    public var isNone: Bool { jitterMM == 0 && hookMM == 0 }

    public var description: String {
        var parts: [String] = []
        if jitterMM > 0 { parts.append("jitter σ \(formatFixed(jitterMM, decimals: 2)) mm") }
        if hookMM > 0 { parts.append("\(formatFixed(hookMM, decimals: 1)) mm hooks at both ends") }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ") + " (seed \(seed))"
    }

    /// The stroke with hooks and jitter added; `index` varies the random draw per stroke.
    public func apply(to stroke: LabelledStroke, index: Int, pxPerMM: Double) -> LabelledStroke {
        guard !isNone, stroke.points.count >= 2 else { return stroke }
        var rng = SplitMix64(seed: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        var s = stroke
        if hookMM > 0 {
            let steps = 3
            let length = hookMM * pxPerMM
            let a0 = rng.unit() * 2 * Double.pi, a1 = rng.unit() * 2 * Double.pi
            let p0 = s.points[0], t0 = s.times[0]
            let pn = s.points[s.points.count - 1], tn = s.times[s.times.count - 1]
            var head: [Point] = [], headT: [Double] = []
            for k in stride(from: steps, to: 0, by: -1) {
                let f = Double(k) / Double(steps)
                head.append(Point(x: p0.x + length * f * cos(a0), y: p0.y + length * f * sin(a0)))
                headT.append(t0 - Double(k) * 8)
            }
            s.points.insert(contentsOf: head, at: 0)
            s.times.insert(contentsOf: headT, at: 0)
            for k in 1...steps {
                let f = Double(k) / Double(steps)
                s.points.append(Point(x: pn.x + length * f * cos(a1), y: pn.y + length * f * sin(a1)))
                s.times.append(tn + Double(k) * 8)
            }
        }
        if jitterMM > 0 {
            let sd = jitterMM * pxPerMM
            for i in s.points.indices {
                s.points[i].x += rng.gaussian() * sd
                s.points[i].y += rng.gaussian() * sd
            }
        }
        return s
    }
}
