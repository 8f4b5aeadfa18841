/// One-finger checkmark: a short stroke down and to the right, then a longer one
/// up and to the right.
///
/// Decided at lift on the resampled stroke, so that sensor jitter and a few
/// pixels of backtracking do not matter, with a hook at either end cut off (the
/// finger settling as it lands, flicking as it lifts): the vertex is the lowest
/// point (largest y) away from the ends; each arm is judged by its chord
/// (direction, length) and by how straight it is (path length / chord), never
/// point by point. What tells a checkmark from a V is that the second arm is the
/// longer one and rises higher than the first fell.
public final class CheckmarkRecognizer: Recognizer {
    public struct Parameters: Sendable, Equatable {
        /// Second arm length / first arm length, at least.
        public var minArmRatio = 1.4
        public var maxArmRatio = 8.0
        /// Second arm's rise / first arm's drop, at least.
        public var minRiseRatio = 1.5
        public var minLengthMM = 8.0
        /// First arm: angle below the horizontal, degrees (90 = straight down).
        public var firstArmMinDegrees = 0.0
        public var firstArmMaxDegrees = 115.0
        /// Second arm: angle above the horizontal, degrees.
        public var secondArmMinDegrees = 20.0
        public var secondArmMaxDegrees = 85.0
        /// Path length / chord of each arm, at most.
        public var maxArmBend = 1.7
        public var maxDuration = Millis(3000)
        public init() {}
    }

    enum State { case tracking, decided }

    public let kind = GestureKind.checkmark
    public let parameters: Parameters
    private var state = State.tracking
    private var tracker = SingleFingerTracker()
    private var samples: [Point] = []
    private var lastEvidence = Evidence()
    static let sampleCount = 48
    /// A hook is at most this part of the stroke (a first arm is longer unless the
    /// arm ratio is far past `maxArmRatio`) and turns back at least this much.
    static let hookFraction = 0.08
    static let hookDegrees = 75.0

    public init(_ parameters: Parameters) {
        self.parameters = parameters
        samples.reserveCapacity(CheckmarkRecognizer.sampleCount)
    }

    public func reset() {
        state = .tracking
        tracker.reset()
    }

    public func handle(_ frame: borrowing TouchFrame) -> Proposal {
        guard state == .tracking else { return .none }
        switch tracker.follow(frame, shape: "a checkmark", maxDuration: parameters.maxDuration) {
        case .pending: return .none
        case .failed(let why): state = .decided; return .fail(why)
        case .lifted: state = .decided; return decide()
        }
    }

    public func decide() -> Proposal {
        var e = Evidence()
        defer { lastEvidence = e }
        let stroke = tracker.stroke
        guard stroke.count >= 5 else { return .fail("\(stroke.count) point\(stroke.count == 1 ? "" : "s") < 5: too few for a checkmark") }
        resample(stroke.points, count: CheckmarkRecognizer.sampleCount, into: &samples)
        smooth(&samples)
        let kept = hookTrimmedRange(samples, maxFraction: CheckmarkRecognizer.hookFraction,
                                    minTurnDegrees: CheckmarkRecognizer.hookDegrees, span: 2)
        if kept.lowerBound > 0 { e.hookCuts.append(samples[kept.lowerBound]) }
        if kept.upperBound < samples.count { e.hookCuts.append(samples[kept.upperBound - 1]) }
        e.strokeBox = Box(bounding: samples[kept])
        let first = kept.lowerBound, last = kept.upperBound - 1
        var v = first + 1
        for i in (first + 1)..<last where samples[i].y > samples[v].y { v = i }
        let start = samples[first], vertex = samples[v], end = samples[last]
        e.vertex = vertex
        e.chords = [start, vertex, end]
        let a = vertex - start, b = end - vertex
        let total = a.length + b.length
        if total < parameters.minLengthMM {
            return .fail("stroke \(formatFixed(total, decimals: 1)) mm < \(formatFixed(parameters.minLengthMM, decimals: 1)) mm")
        }
        if v < first + 2 || v > last - 2 {
            return .fail("no vertex: the lowest point is sample \(v - first + 1) of \(last - first + 1), at an end of the stroke")
        }
        let firstAngle = degrees(atan2(a.y, a.x))
        let secondAngle = degrees(atan2(-b.y, b.x))
        e.notes.append("first arm \(formatFixed(a.length, decimals: 1)) mm at \(formatFixed(firstAngle, decimals: 0))° down, second \(formatFixed(b.length, decimals: 1)) mm at \(formatFixed(secondAngle, decimals: 0))° up")
        if firstAngle < parameters.firstArmMinDegrees || firstAngle > parameters.firstArmMaxDegrees {
            return .fail("first arm points \(formatFixed(firstAngle, decimals: 0))° below horizontal, outside \(formatFixed(parameters.firstArmMinDegrees, decimals: 0))…\(formatFixed(parameters.firstArmMaxDegrees, decimals: 0))°")
        }
        if secondAngle < parameters.secondArmMinDegrees || secondAngle > parameters.secondArmMaxDegrees {
            return .fail("second arm points \(formatFixed(secondAngle, decimals: 0))° above horizontal, outside \(formatFixed(parameters.secondArmMinDegrees, decimals: 0))…\(formatFixed(parameters.secondArmMaxDegrees, decimals: 0))°")
        }
        let ratio = b.length / max(a.length, 0.001)
        if ratio < parameters.minArmRatio {
            return .fail("second arm \(formatFixed(ratio, decimals: 2))× the first < \(formatFixed(parameters.minArmRatio, decimals: 2))×")
        }
        if ratio > parameters.maxArmRatio {
            return .fail("second arm \(formatFixed(ratio, decimals: 2))× the first > \(formatFixed(parameters.maxArmRatio, decimals: 2))×")
        }
        let rise = (vertex.y - end.y) / max(vertex.y - start.y, 0.001)
        if rise < parameters.minRiseRatio {
            return .fail("second arm rises \(formatFixed(rise, decimals: 2))× the first arm's drop < \(formatFixed(parameters.minRiseRatio, decimals: 2))×")
        }
        let bend1 = pathLength(first, v) / max(a.length, 0.001)
        let bend2 = pathLength(v, last) / max(b.length, 0.001)
        if bend1 > parameters.maxArmBend || bend2 > parameters.maxArmBend {
            return .fail("arms bend: path/chord \(formatFixed(bend1, decimals: 2)) and \(formatFixed(bend2, decimals: 2)), max \(formatFixed(parameters.maxArmBend, decimals: 2))")
        }
        return .recognize(tracker.report(.checkmark(vertex: vertex), at: vertex))
    }

    private func pathLength(_ from: Int, _ to: Int) -> Double {
        var len = 0.0
        var i = from + 1
        while i <= to { len += samples[i].distance(to: samples[i - 1]); i += 1 }
        return len
    }

    public var evidence: Evidence { lastEvidence }
}
