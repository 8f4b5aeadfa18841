/// Pan: between `minFingers` and `maxFingers` fingers whose centroid moves at
/// least `startThresholdMM`. Continuous: began, changed (translation and velocity
/// in mm and mm/s), ended when the fingers lift, cancelled when a touch is.
/// When fingers land or lift mid-pan the translation carries on without a jump.
public final class PanRecognizer: Recognizer {
    public struct Parameters: Sendable, Equatable {
        public var minFingers = 1
        public var maxFingers = 10
        public var startThresholdMM = 5.0
        public init() {}
    }

    enum State { case idle, tracking, panning, decided }

    public let kind = GestureKind.pan
    public let parameters: Parameters
    private var state = State.idle
    private var centroidTranslation = CentroidTranslation()
    private var lastCount = 0
    private var maxFingers = 0
    /// Recent (time, translation) samples for the velocity, a fixed ring.
    private var ringTime = [EventTime](repeating: .zero, count: 8)
    private var ringTranslation = [Point](repeating: .zero, count: 8)
    private var ringNext = 0
    private var ringCount = 0
    /// Velocity is measured over about this window.
    static let velocityWindow = Millis(80)

    public init(_ parameters: Parameters) { self.parameters = parameters }

    public func reset() {
        state = .idle
        centroidTranslation.reset()
        lastCount = 0
        maxFingers = 0
        ringNext = 0
        ringCount = 0
    }

    public func handle(_ frame: borrowing TouchFrame) -> Proposal {
        if state == .decided { return .none }
        if frame.anyCancelled {
            let wasPanning = state == .panning
            state = .decided
            return wasPanning ? .cancel("touch cancelled") : .fail("touch cancelled")
        }
        let live = frame.liveCount
        maxFingers = max(maxFingers, live)
        if state == .idle { state = .tracking }
        if live > 0 { lastCount = live }
        let t = centroidTranslation.update(frame)
        record(t, at: frame.time)

        switch state {
        case .tracking:
            if live > parameters.maxFingers {
                state = .decided
                return .fail("\(live) fingers > max \(parameters.maxFingers)")
            }
            if frame.isLast {
                state = .decided
                if maxFingers < parameters.minFingers {
                    return .fail("\(maxFingers) finger\(maxFingers == 1 ? "" : "s") < min \(parameters.minFingers)")
                }
                return .fail("lifted after \(formatFixed(t.length, decimals: 1)) mm < \(formatFixed(parameters.startThresholdMM, decimals: 1)) mm")
            }
            guard live >= parameters.minFingers, t.length >= parameters.startThresholdMM else { return .none }
            state = .panning
            return .begin(report(frame, t, fingers: live))
        case .panning:
            if frame.isLast {
                state = .decided
                return .end(report(frame, t, fingers: maxFingers))
            }
            if live > parameters.maxFingers || live < parameters.minFingers {
                state = .decided
                return .end(report(frame, t, fingers: live))
            }
            return .change(report(frame, t, fingers: live))
        case .idle, .decided:
            return .none
        }
    }

    private var lastTranslation: Point {
        ringCount == 0 ? .zero : ringTranslation[(ringNext + 7) & 7]
    }

    private func record(_ t: Point, at time: EventTime) {
        ringTime[ringNext] = time
        ringTranslation[ringNext] = t
        ringNext = (ringNext + 1) & 7
        ringCount = min(ringCount + 1, 8)
    }

    private var velocity: Point {
        guard ringCount >= 2 else { return .zero }
        let newest = (ringNext + 7) & 7
        var oldest = newest
        var k = 1
        while k < ringCount {
            let idx = (newest - k + 8) & 7
            oldest = idx
            if ringTime[newest] - ringTime[idx] >= PanRecognizer.velocityWindow { break }
            k += 1
        }
        let dt = (ringTime[newest] - ringTime[oldest]).seconds
        guard dt > 0 else { return .zero }
        return (ringTranslation[newest] - ringTranslation[oldest]) / dt
    }

    private func report(_ frame: borrowing TouchFrame, _ t: Point, fingers: Int) -> Report {
        Report(detail: .pan(translation: t, velocity: velocity), fingers: fingers,
               location: frame.centroid, locationNormalised: frame.centroidNormalised)
    }
}
