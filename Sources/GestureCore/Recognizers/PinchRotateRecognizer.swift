/// Pinch and rotate: two fingers (the first two down) changing their distance or
/// their angle. Continuous: began when the scale leaves 1 by `startScaleDelta` (pinch)
/// or the angle turns `startDegrees` (rotate); changed with `scale` / `rotation_deg`
/// since the fingers landed; ended at lift; cancelled when a touch is.
public final class TwoFingerTransformRecognizer: Recognizer {
    public enum Mode: Sendable { case pinch, rotate }

    public struct Parameters: Sendable, Equatable {
        /// Pinch: |scale - 1| to begin.
        public var startScaleDelta = 0.12
        /// Rotate: degrees to begin.
        public var startDegrees = 15.0
        public init() {}
    }

    enum State { case idle, tracking, active, decided }

    public let kind: GestureKind
    public let parameters: Parameters
    let mode: Mode
    private var state = State.idle
    private var a: TouchID?
    private var b: TouchID?
    private var pa = Point.zero, pb = Point.zero
    private var startDistance = 0.0
    private var startAngle = 0.0
    private var turned = 0.0
    private var lastAngle = 0.0

    public init(_ mode: Mode, _ parameters: Parameters) {
        self.mode = mode
        self.parameters = parameters
        kind = mode == .pinch ? .pinch : .rotate
    }

    public func reset() {
        state = .idle
        a = nil; b = nil
        turned = 0
    }

    public func handle(_ frame: borrowing TouchFrame) -> Proposal {
        if state == .decided { return .none }
        if frame.anyCancelled {
            let was = state
            state = .decided
            return was == .active ? .cancel("touch cancelled") : .fail("touch cancelled")
        }
        if state == .idle { state = .tracking }
        var liftedOne = false
        for t in frame.touches {
            if a == nil && t.phase == .began { a = t.id; pa = t.position; continue }
            if b == nil && t.phase == .began && t.id != a { b = t.id; pb = t.position; startTracking(); continue }
            if t.id == a { pa = t.position; if t.phase.isFinal { liftedOne = true } }
            if t.id == b { pb = t.position; if t.phase.isFinal { liftedOne = true } }
        }
        if frame.liveCount > 2 && state != .active {
            state = .decided
            return .fail("\(frame.liveCount) fingers; \(kind.rawValue) takes two")
        }
        guard b != nil else {
            if frame.isLast { state = .decided; return .fail("1 finger < 2: \(kind.rawValue) takes two") }
            return .none
        }
        let d = pa.distance(to: pb)
        let angle = (pb - pa).angle
        turned += wrapAngle(angle - lastAngle)
        lastAngle = angle
        let scale = startDistance > 0 ? d / startDistance : 1
        let center = (pa + pb) / 2
        let detail: GestureDetail = mode == .pinch ? .pinch(scale: scale) : .rotate(degrees: degrees(turned))
        let report = Report(detail: detail, fingers: 2, location: center, locationNormalised: normalise(center, frame.areaMM))
        switch state {
        case .tracking:
            if liftedOne || frame.isLast {
                state = .decided
                return .fail(mode == .pinch
                    ? "scale \(formatFixed(scale, decimals: 2)) stayed within 1 ± \(formatFixed(parameters.startScaleDelta, decimals: 2))"
                    : "turned \(formatFixed(abs(degrees(turned)), decimals: 0))° < \(formatFixed(parameters.startDegrees, decimals: 0))°")
            }
            let started = mode == .pinch ? abs(scale - 1) >= parameters.startScaleDelta
                                         : abs(degrees(turned)) >= parameters.startDegrees
            if started { state = .active; return .begin(report) }
            return .none
        case .active:
            if liftedOne || frame.isLast { state = .decided; return .end(report) }
            return .change(report)
        case .idle, .decided:
            return .none
        }
    }

    private func startTracking() {
        startDistance = pa.distance(to: pb)
        startAngle = (pb - pa).angle
        lastAngle = startAngle
        turned = 0
    }
}
