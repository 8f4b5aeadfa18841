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

    public enum Failure: Sendable, Equatable {
        /// When the time was up, this many fingers were down instead of `needed`.
        case wrongFingers(Int, needed: Int, after: Millis)
        /// One of several fingers lifted early.
        case fingerLifted(after: Millis, min: Millis)
        case moved(Double, max: Double, before: Millis)
        /// Every finger lifted early.
        case lifted(after: Millis, min: Millis)
    }

    enum State {
        case idle
        /// Fingers down since `since`, centred at `start` when the last one landed;
        /// `where`/`fingers` as of the latest frame, for the report at the deadline.
        case waiting(since: EventTime, start: Point, at: Point, atNormalised: Point, fingers: Int)
        case pressing
        case done
    }

    public let kind = GestureKind.longPress
    public let parameters: Parameters
    /// Fewer fingers lifting early or missing at the deadline fail it with its
    /// own reasons; the arena only stops more than `fingers`.
    public var fingers: ClosedRange<Int> { 1...max(1, parameters.fingers) }
    private var state = State.idle

    public init(_ parameters: Parameters) { self.parameters = parameters }

    public func reset() { state = .idle }

    public var deadline: EventTime? {
        if case .waiting(let since, _, _, _, _) = state { since + parameters.minDuration } else { nil }
    }

    public var stateDescription: String {
        switch state {
        case .idle: "idle"
        case .waiting(_, _, _, _, let fingers): "waiting(\(fingers) finger\(fingers == 1 ? "" : "s"))"
        case .pressing: "pressing"
        case .done: "done"
        }
    }

    public func handle(_ event: RecognizerEvent, _ frame: borrowing TouchFrame) -> Proposal {
        switch (state, event) {
        case (.idle, .frame(let input)):
            state = .waiting(
                since: frame.time, start: frame.centroid, at: frame.centroid,
                atNormalised: frame.centroidNormalised, fingers: input.fingers)
            return .none
        case (.waiting(let since, var start, _, _, _), .frame(let input)):
            if input.landed { start = frame.centroid }  // a finger joining is not movement
            let held = frame.time - since
            if input.isLast { return fail(.lifted(after: held, min: parameters.minDuration)) }
            if input.change == .lift { return fail(.fingerLifted(after: held, min: parameters.minDuration)) }
            let moved = frame.centroid.distance(to: start)
            if moved > parameters.maxMovementMM {
                return fail(.moved(moved, max: parameters.maxMovementMM, before: parameters.minDuration))
            }
            state = .waiting(
                since: since, start: start, at: frame.centroid, atNormalised: frame.centroidNormalised,
                fingers: input.fingers)
            return .none
        case (.waiting(_, _, let at, let atNormalised, let live), .timeout):
            if live != parameters.fingers {
                return fail(.wrongFingers(live, needed: parameters.fingers, after: parameters.minDuration))
            }
            state = .pressing
            return .begin(Report(detail: .none, fingers: live, location: at, locationNormalised: atNormalised))
        case (.pressing, .frame(let input)):
            let r = Report(
                detail: .none, fingers: input.maxFingers, location: frame.centroid,
                locationNormalised: frame.centroidNormalised)
            if input.isLast {
                state = .done
                return .end(r)
            }
            return .change(r)
        case (.idle, .timeout), (.pressing, .timeout), (.done, _):
            return .none
        }
    }

    private func fail(_ f: Failure) -> Proposal {
        state = .done
        return .fail(.longPress(f))
    }
}

extension LongPressRecognizer.Parameters {
    /// The config keys of a `long_press` recognizer (`ParameterKey`).
    public static var keys: [ParameterKey<Self>] {
        [
            .integer("fingers", \.fingers, 1...10, "fingers held"),
            .millis("min_duration_ms", \.minDuration, 50...10_000, "how long they must be held"),
            .number("max_movement_mm", \.maxMovementMM, 0.1...100, "moving more before the time is up fails it"),
        ]
    }
}
