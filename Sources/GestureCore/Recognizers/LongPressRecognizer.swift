/// Long press: `fingers` fingers held still (within `maxMovementMM`) for
/// `minDuration`. Continuous, as UIKit's: began when the time is up, changed as
/// the fingers move afterwards, ended at lift; fails if they move or lift early.
public final class LongPressRecognizer: Recognizer {
    public struct Parameters: Sendable, Equatable {
        public var fingers = 1
        public var minDuration = Millis(500)
        public var maxMovementMM = 8.0
        public init() {}
    }

    enum State { case idle, waiting, pressing, decided }

    public let kind = GestureKind.longPress
    public let parameters: Parameters
    private var state = State.idle
    private var startTime = EventTime.zero
    private var start = Point.zero
    private var lastCentroid = Point.zero
    private var lastNormalised = Point.zero
    private var maxFingers = 0
    private var live = 0

    public init(_ parameters: Parameters) { self.parameters = parameters }

    public func reset() {
        state = .idle
        maxFingers = 0
        live = 0
    }

    public var deadline: EventTime? { state == .waiting ? startTime + parameters.minDuration : nil }

    public func timeout(at time: EventTime) -> Proposal {
        guard state == .waiting else { return .none }
        if live != parameters.fingers {
            state = .decided
            return .fail("\(live) finger\(live == 1 ? "" : "s") down after \(parameters.minDuration), needs \(parameters.fingers)")
        }
        state = .pressing
        return .begin(Report(detail: .none, fingers: live, location: lastCentroid, locationNormalised: lastNormalised))
    }

    public func handle(_ frame: borrowing TouchFrame) -> Proposal {
        if state == .decided { return .none }
        if frame.anyCancelled {
            let was = state
            state = .decided
            return was == .pressing ? .cancel("touch cancelled") : .fail("touch cancelled")
        }
        live = frame.liveCount
        maxFingers = max(maxFingers, live)
        lastCentroid = frame.centroid
        lastNormalised = frame.centroidNormalised
        switch state {
        case .idle:
            state = .waiting
            startTime = frame.time
            start = frame.centroid
            return .none
        case .waiting:
            if maxFingers > parameters.fingers {
                state = .decided
                return .fail("\(maxFingers) fingers > \(parameters.fingers)")
            }
            if frame.began { start = frame.centroid } // a finger joining is not movement
            if !frame.isLast && frame.touches.contains(where: { $0.phase.isFinal }) {
                state = .decided
                return .fail("a finger lifted after \(frame.time - startTime) < \(parameters.minDuration)")
            }
            let moved = frame.centroid.distance(to: start)
            if !frame.isLast && moved > parameters.maxMovementMM {
                state = .decided
                return .fail("moved \(formatFixed(moved, decimals: 1)) mm > \(formatFixed(parameters.maxMovementMM, decimals: 1)) mm before \(parameters.minDuration)")
            }
            if frame.isLast {
                state = .decided
                return .fail("lifted after \(frame.time - startTime) < \(parameters.minDuration)")
            }
            return .none
        case .pressing:
            let r = Report(detail: .none, fingers: max(live, 1), location: frame.centroid,
                           locationNormalised: frame.centroidNormalised)
            if frame.isLast { state = .decided; return .end(r) }
            return .change(r)
        case .decided:
            return .none
        }
    }
}
