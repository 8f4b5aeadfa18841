/// Pan: between `minFingers` and `maxFingers` fingers whose centroid moves at
/// least `startThresholdMM`. Continuous: began, changed (translation and velocity
/// in mm and mm/s), ended when the fingers lift, cancelled when a touch is.
/// When fingers land or lift mid-pan the translation carries on without a jump.
///
/// `fingers` in its events is the most fingers down at once in the sequence so
/// far: it stays put while the fingers lift one by one at the end, so `began`,
/// every `changed` and `ended` of a four-finger drag all say 4.
///
/// With `stepMM` it is a slider (lisgd's "pressed" mode): it begins when the
/// travel along `axis` first reaches `stepMM`, and then says `changed` only when
/// the travel reaches another step from the last one reported, each event with
/// `step` +1 (right or down on the screen as seen) or −1. Going back needs a
/// whole step, so a finger resting on a boundary does not chatter; at most one
/// step is reported per frame, the rest on the next frames. A motion that goes
/// `stepMM` across the axis before it goes `stepMM` along it fails the slider.
public final class PanRecognizer: Recognizer {
    public enum Axis: String, Sendable, CaseIterable { case x, y }

    public struct Parameters: Sendable, Equatable {
        public var minFingers = 1
        public var maxFingers = 10
        public var startThresholdMM = 5.0
        /// 0: a plain pan; above 0: a slider with steps this long.
        public var stepMM = 0.0
        public var axis = Axis.y
        public init() {}
    }

    public enum Failure: Sendable, Equatable {
        /// The fingers lifted after the centroid moved only this far.
        case tooShort(Double, threshold: Double)
        /// A slider's fingers moved this far across its axis before a step along it.
        case acrossAxis(Double, step: Double, axis: Axis)
    }

    enum State {
        /// Before the first frame.
        case idle
        /// Fingers down; the centroid has not moved `startThresholdMM` yet.
        case tracking
        case panning
        case done
    }

    public let kind = GestureKind.pan
    public let parameters: Parameters
    public var fingers: ClosedRange<Int> { parameters.minFingers...max(parameters.minFingers, parameters.maxFingers) }
    private var state = State.idle
    /// The centroid's translation and velocity, worked out once per frame for
    /// all the swipes and pans of an arena (`SharedMotion`).
    let motion: SharedMotion
    /// A slider's last reported step, in steps from where it started.
    private var level = 0

    public convenience init(_ parameters: Parameters) { self.init(parameters, sharing: SharedMotion()) }

    init(_ parameters: Parameters, sharing motion: SharedMotion) {
        self.parameters = parameters
        self.motion = motion
    }

    public func reset() {
        state = .idle
        motion.reset()
        level = 0
    }

    public var stateDescription: String {
        switch state {
        case .idle: "idle"
        case .tracking: "tracking"
        case .panning: "panning"
        case .done: "done"
        }
    }

    public func handle(_ event: RecognizerEvent, _ frame: borrowing TouchFrame) -> Proposal {
        guard case .frame(let input) = event else { return .none }  // no timer
        motion.advance(by: frame)
        let t = motion.current.translation
        if parameters.stepMM > 0 { return slide(frame, t, input) }
        switch state {
        case .idle, .tracking:
            state = .tracking
            if input.isLast {
                state = .done
                return .fail(.pan(.tooShort(t.length, threshold: parameters.startThresholdMM)))
            }
            guard input.fingers >= parameters.minFingers, t.length >= parameters.startThresholdMM else { return .none }
            state = .panning
            return .begin(report(frame, t, input))
        case .panning:
            if input.isLast || !fingers.contains(input.fingers) {
                state = .done
                return .end(report(frame, t, input))
            }
            return .change(report(frame, t, input))
        case .done:
            return .none
        }
    }

    private func slide(_ frame: borrowing TouchFrame, _ t: Point, _ input: TouchInput) -> Proposal {
        let step = parameters.stepMM
        let along = parameters.axis == .x ? t.x : t.y
        let across = parameters.axis == .x ? t.y : t.x
        switch state {
        case .idle, .tracking:
            state = .tracking
            if abs(along) < step && abs(across) >= step {
                state = .done
                return .fail(.pan(.acrossAxis(abs(across), step: step, axis: parameters.axis)))
            }
            if input.isLast {
                state = .done
                return .fail(.pan(.tooShort(abs(along), threshold: step)))
            }
            guard input.fingers >= parameters.minFingers, abs(along) >= step else { return .none }
            state = .panning
            level = along > 0 ? 1 : -1
            return .begin(report(frame, t, input, step: level))
        case .panning:
            if input.isLast || !fingers.contains(input.fingers) {
                state = .done
                return .end(report(frame, t, input))
            }
            let here = along / step
            if here >= Double(level + 1) {
                level += 1
                return .change(report(frame, t, input, step: 1))
            }
            if here <= Double(level - 1) {
                level -= 1
                return .change(report(frame, t, input, step: -1))
            }
            return .none
        case .done:
            return .none
        }
    }

    private func report(_ frame: borrowing TouchFrame, _ t: Point, _ input: TouchInput, step: Int? = nil) -> Report {
        Report(
            detail: .pan(translation: t, velocity: motion.current.velocity.mmPerSecond), fingers: input.maxFingers,
            location: frame.centroid, locationNormalised: frame.centroidNormalised, step: step)
    }
}

extension PanRecognizer: FollowsMotion {
    /// A pan or slider may begin, step or end on any frame.
    var decidesOnlyAtEnds: Bool { false }
}

/// Velocity of the pan's translation over its recent samples: from the newest
/// back to the first at least `window` older (or the oldest kept), divided by
/// at least `minimumSpan`, as libinput's velocity tracker does, so that two
/// reports microseconds apart (a touch's first two can be) do not read as
/// millions of mm/s. A fixed ring of 8 samples: nothing allocated per frame.
struct VelocityEstimate {
    static let window = Millis(80)
    static let minimumSpan = Millis(10)
    /// The ring, kept in place (a tuple, not an array): copying an estimate (a
    /// `Motion` taken from `SharedMotion`) copies values, with no storage to share
    /// and copy again on the next write.
    private var ringTime = EightValues<EventTime>(.zero)
    private var ringTranslation = EightValues<Point>(.zero)
    private var next = 0
    private var count = 0

    mutating func reset() {
        next = 0
        count = 0
    }

    mutating func add(_ translation: Point, at time: EventTime) {
        ringTime[next] = time
        ringTranslation[next] = translation
        next = (next + 1) & 7
        count = min(count + 1, 8)
    }

    var mmPerSecond: Point {
        guard count >= 2 else { return .zero }
        let newest = (next + 7) & 7
        var oldest = newest
        var k = 1
        while k < count {
            let i = (newest - k + 8) & 7
            oldest = i
            if ringTime[newest] - ringTime[i] >= Self.window { break }
            k += 1
        }
        let span = ringTime[newest] - ringTime[oldest]
        guard span.value >= 0 else { return .zero }
        return (ringTranslation[newest] - ringTranslation[oldest]) / max(span, Self.minimumSpan).seconds
    }
}

/// Eight values in place, indexed 0…7 (masked: never out of bounds).
struct EightValues<Element> {
    private var v: (Element, Element, Element, Element, Element, Element, Element, Element)

    init(_ value: Element) { v = (value, value, value, value, value, value, value, value) }

    subscript(i: Int) -> Element {
        get {
            switch i & 7 {
            case 0: v.0
            case 1: v.1
            case 2: v.2
            case 3: v.3
            case 4: v.4
            case 5: v.5
            case 6: v.6
            default: v.7
            }
        }
        set {
            switch i & 7 {
            case 0: v.0 = newValue
            case 1: v.1 = newValue
            case 2: v.2 = newValue
            case 3: v.3 = newValue
            case 4: v.4 = newValue
            case 5: v.5 = newValue
            case 6: v.6 = newValue
            default: v.7 = newValue
            }
        }
    }
}

extension PanRecognizer.Parameters {
    /// The config keys of a `pan` recognizer (`ParameterKey`).
    public static var keys: [ParameterKey<Self>] {
        [
            .integer("min_fingers", \.minFingers, 1...10, "fewest fingers", atMost: "max_fingers"),
            .integer("max_fingers", \.maxFingers, 1...10, "most fingers"),
            .number("start_threshold_mm", \.startThresholdMM, 0...100, "movement before the pan begins"),
            .number(
                "step_mm", \.stepMM, 0...500,
                "above 0, a slider: began/changed only every step_mm along its axis, with \"step\": 1 or -1"),
            .choice("axis", \.axis, "a slider's axis; by default along its edge (needs step_mm)") { p, _ in
                p.stepMM == 0 ? ("axis", "axis only applies to a slider: set step_mm too") : nil
            },
        ]
    }
}
