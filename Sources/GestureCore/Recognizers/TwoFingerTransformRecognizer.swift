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

    public enum Failure: Sendable, Equatable {
        /// Pinch: the scale never left 1 ± `delta` before a finger lifted.
        case scaleStayed(Double, delta: Double)
        /// Rotate: turned only this many degrees before a finger lifted.
        case turnedTooLittle(Double, min: Double)
    }

    /// The two fingers followed: the first two that land.
    struct Pair {
        var a: TouchID?
        var b: TouchID?
        var pa = Point.zero, pb = Point.zero
        var startDistance = 0.0
        var lastAngle = 0.0
        /// Radians turned since the second finger landed.
        var turned = 0.0
    }

    enum State {
        case idle
        /// Following the pair, not begun yet.
        case tracking(Pair)
        case active(Pair)
        case done
    }

    public let kind: GestureKind
    public let parameters: Parameters
    public let fingers: ClosedRange<Int> = 2...2
    let mode: Mode
    private var state = State.idle

    public init(_ mode: Mode, _ parameters: Parameters) {
        self.mode = mode
        self.parameters = parameters
        kind = mode == .pinch ? .pinch : .rotate
    }

    public func reset() { state = .idle }

    public var stateDescription: String {
        switch state {
        case .idle: "idle"
        case .tracking(let p): p.b == nil ? "tracking(1 finger)" : "tracking(2 fingers)"
        case .active: "active"
        case .done: "done"
        }
    }

    public func handle(_ event: RecognizerEvent, _ frame: borrowing TouchFrame) -> Proposal {
        switch (state, event) {
        case (.idle, .frame(let input)):
            return follow(Pair(), frame, input, active: false)
        case (.tracking(let pair), .frame(let input)):
            return follow(pair, frame, input, active: false)
        case (.active(let pair), .frame(let input)):
            return follow(pair, frame, input, active: true)
        case (_, .timeout), (.done, .frame):
            return .none
        }
    }

    private func follow(_ pair: Pair, _ frame: borrowing TouchFrame, _ input: TouchInput, active: Bool) -> Proposal {
        var p = pair
        var liftedOne = false
        for t in frame.touches {
            if p.a == nil && t.phase == .began {
                p.a = t.id
                p.pa = t.position
                continue
            }
            if p.b == nil && t.phase == .began && t.id != p.a {
                p.b = t.id
                p.pb = t.position
                p.startDistance = p.pa.distance(to: p.pb)
                p.lastAngle = (p.pb - p.pa).angle
                p.turned = 0
                continue
            }
            if t.id == p.a {
                p.pa = t.position
                if t.phase.isFinal { liftedOne = true }
            }
            if t.id == p.b {
                p.pb = t.position
                if t.phase.isFinal { liftedOne = true }
            }
        }
        guard p.b != nil else {
            state = .tracking(p)
            return .none
        }
        let d = p.pa.distance(to: p.pb)
        let angle = (p.pb - p.pa).angle
        p.turned += wrapAngle(angle - p.lastAngle)
        p.lastAngle = angle
        let scale = p.startDistance > 0 ? d / p.startDistance : 1
        let center = (p.pa + p.pb) / 2
        let detail: GestureDetail = mode == .pinch ? .pinch(scale: scale) : .rotate(degrees: degrees(p.turned))
        let report = Report(
            detail: detail, fingers: 2, location: center,
            locationNormalised: normalised(center, in: frame.areaMM))
        let ending = liftedOne || input.isLast
        if active {
            if ending {
                state = .done
                return .end(report)
            }
            state = .active(p)
            return .change(report)
        }
        if ending {
            state = .done
            return .fail(
                .twoFinger(
                    mode == .pinch
                        ? .scaleStayed(scale, delta: parameters.startScaleDelta)
                        : .turnedTooLittle(abs(degrees(p.turned)), min: parameters.startDegrees)))
        }
        let started =
            mode == .pinch
            ? abs(scale - 1) >= parameters.startScaleDelta
            : abs(degrees(p.turned)) >= parameters.startDegrees
        state = started ? .active(p) : .tracking(p)
        return started ? .begin(report) : .none
    }
}

extension TwoFingerTransformRecognizer.Parameters {
    /// The config keys of a `pinch` recognizer (`ParameterKey`).
    public static var pinchKeys: [ParameterKey<Self>] {
        [.number("start_scale_delta", \.startScaleDelta, 0.01...2, "|scale - 1| before it begins")]
    }

    /// The config keys of a `rotate` recognizer (`ParameterKey`).
    public static var rotateKeys: [ParameterKey<Self>] {
        [.number("start_deg", \.startDegrees, 1...180, "turn before it begins")]
    }
}
