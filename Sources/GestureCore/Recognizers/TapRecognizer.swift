/// Tap and multi-tap: `fingers` fingers down and up within `maxDuration`, moving
/// less than `maxMovementMM`, `taps` times, each next tap starting within
/// `multiTapWindow` of the last lift and `multiTapSlopMM` of its place.
public final class TapRecognizer: Recognizer {
    public struct Parameters: Sendable, Equatable {
        public var taps = 1
        public var fingers = 1
        public var maxMovementMM = 5.0
        public var maxDuration = Millis(350)
        public var multiTapWindow = Millis(300)
        public var multiTapSlopMM = 12.0
        public init() {}
    }

    enum State {
        case idle
        case touching(count: Int, start: EventTime)
        case waiting(count: Int, until: EventTime)
        case decided
    }

    public let kind = GestureKind.tap
    public let parameters: Parameters
    private var state = State.idle
    private var maxFingers = 0
    private var starts: [(TouchID, Point)] = []
    private var lastTapLocation = Point.zero
    private var lastNormalised = Point.zero
    private var maxMoved = 0.0

    public init(_ parameters: Parameters) {
        self.parameters = parameters
        starts.reserveCapacity(10)
    }

    public func reset() {
        state = .idle
        maxFingers = 0
        starts.removeAll(keepingCapacity: true)
        maxMoved = 0
    }

    public var deadline: EventTime? {
        switch state {
        case .touching(_, let start): start + parameters.maxDuration
        case .waiting(_, let until): until
        default: nil
        }
    }

    public func timeout(at time: EventTime) -> Proposal {
        switch state {
        case .touching:
            state = .decided
            return .fail("held longer than \(parameters.maxDuration)")
        case .waiting(let count, _):
            state = .decided
            return .fail("\(count) of \(parameters.taps) taps: no next tap within \(parameters.multiTapWindow)")
        default:
            return .none
        }
    }

    public func handle(_ frame: borrowing TouchFrame) -> Proposal {
        switch state {
        case .decided:
            return .none
        case .idle:
            guard frame.began else { return .none }
            beginTap(frame, count: 0)
        case .waiting(let count, _):
            guard frame.began else { return .none }
            let d = frame.centroid.distance(to: lastTapLocation)
            if d > parameters.multiTapSlopMM {
                state = .decided
                return .fail("tap \(count + 1) landed \(formatFixed(d, decimals: 1)) mm from tap \(count) > \(formatFixed(parameters.multiTapSlopMM, decimals: 1)) mm")
            }
            beginTap(frame, count: count)
        case .touching:
            break
        }
        guard case .touching(let count, let start) = state else { return .none }

        var live = 0
        for t in frame.touches {
            if t.phase == .cancelled { state = .decided; return .fail("touch cancelled") }
            if t.phase == .began { starts.append((t.id, t.position)) }
            if !t.phase.isFinal { live += 1 }
            if let s = starts.first(where: { $0.0 == t.id }) {
                maxMoved = max(maxMoved, t.position.distance(to: s.1))
            }
        }
        maxFingers = max(maxFingers, live)
        if maxMoved > parameters.maxMovementMM {
            state = .decided
            return .fail("moved \(formatFixed(maxMoved, decimals: 1)) mm > \(formatFixed(parameters.maxMovementMM, decimals: 1)) mm")
        }
        if maxFingers > parameters.fingers {
            state = .decided
            return .fail("\(maxFingers) fingers > \(parameters.fingers)")
        }
        if frame.time - start > parameters.maxDuration {
            state = .decided
            return .fail("held \(frame.time - start) > \(parameters.maxDuration)")
        }
        guard frame.isLast else { return .none }
        if maxFingers < parameters.fingers {
            state = .decided
            return .fail("\(maxFingers) finger\(maxFingers == 1 ? "" : "s") < \(parameters.fingers)")
        }
        let taps = count + 1
        // Where the fingers landed: the last lift's frame holds only the last finger.
        var landed = Point.zero
        for s in starts { landed += s.1 }
        lastTapLocation = starts.isEmpty ? frame.centroid : landed / Double(starts.count)
        let area = frame.areaMM
        lastNormalised = Point(x: area.x > 0 ? lastTapLocation.x / area.x : 0, y: area.y > 0 ? lastTapLocation.y / area.y : 0)
        if taps >= parameters.taps {
            state = .decided
            return .recognize(Report(detail: .tap(taps: taps), fingers: maxFingers, location: lastTapLocation,
                                     locationNormalised: lastNormalised))
        }
        state = .waiting(count: taps, until: frame.time + parameters.multiTapWindow)
        return .none
    }

    private func beginTap(_ frame: borrowing TouchFrame, count: Int) {
        state = .touching(count: count, start: frame.time)
        maxFingers = 0
        maxMoved = 0
        starts.removeAll(keepingCapacity: true)
    }

    public var evidence: Evidence {
        var e = Evidence()
        e.tapRadius = (lastTapLocation, parameters.maxMovementMM)
        return e
    }
}
