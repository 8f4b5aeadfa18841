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

    public enum Failure: Sendable, Equatable {
        /// A finger moved this far from where it landed.
        case moved(Double, max: Double)
        /// The fingers stayed down past the deadline.
        case heldTooLong(max: Millis)
        /// The fingers lifted, but after this long.
        case held(Millis, max: Millis)
        /// This many taps of the ones needed, and no next one within the window.
        case noNextTap(Int, of: Int, window: Millis)
        /// Tap number `n` landed this far from the one before.
        case nextTapTooFar(Int, mm: Double, slop: Double)
    }

    enum State {
        /// No finger down yet.
        case idle
        /// The fingers of tap number `tap` have been down since `since`; a finger
        /// moved at most `moved` mm from where it landed.
        case touching(tap: Int, since: EventTime, moved: Double)
        /// `taps` taps done, the last where its fingers landed (`at`); the next
        /// must land by `until`.
        case waiting(taps: Int, until: EventTime, at: Point)
        case done
    }

    public let kind = GestureKind.tap
    public let parameters: Parameters
    public var fingers: ClosedRange<Int> { parameters.fingers...parameters.fingers }
    private var state = State.idle
    /// Where each finger of the current tap landed (storage reused).
    private var starts: [(TouchID, Point)] = []
    /// Where the last tap landed, for `explain`.
    private var lastTapLocation = Point.zero

    public init(_ parameters: Parameters) {
        self.parameters = parameters
        starts.reserveCapacity(10)
    }

    public func reset() {
        state = .idle
        starts.removeAll(keepingCapacity: true)
    }

    public var deadline: EventTime? {
        switch state {
        case .touching(_, let since, _): since + parameters.maxDuration
        case .waiting(_, let until, _): until
        case .idle, .done: nil
        }
    }

    public var stateDescription: String {
        switch state {
        case .idle: "idle"
        case .touching(let tap, _, _): "touching(tap \(tap))"
        case .waiting(let taps, _, _): "waiting(\(taps) of \(parameters.taps) taps)"
        case .done: "done"
        }
    }

    public func handle(_ event: RecognizerEvent, _ frame: borrowing TouchFrame) -> Proposal {
        switch (state, event) {
        case (.idle, .frame(let input)):
            guard input.landed else { return .none }
            starts.removeAll(keepingCapacity: true)
            return touching(frame, input, tap: 1, since: frame.time, moved: 0)
        case (.touching(let tap, let since, let moved), .frame(let input)):
            return touching(frame, input, tap: tap, since: since, moved: moved)
        case (.waiting(let taps, _, let at), .frame(let input)):
            guard input.landed else { return .none }
            let d = frame.centroid.distance(to: at)
            if d > parameters.multiTapSlopMM {
                return fail(.nextTapTooFar(taps + 1, mm: d, slop: parameters.multiTapSlopMM))
            }
            starts.removeAll(keepingCapacity: true)
            return touching(frame, input, tap: taps + 1, since: frame.time, moved: 0)
        case (.touching, .timeout):
            return fail(.heldTooLong(max: parameters.maxDuration))
        case (.waiting(let taps, _, _), .timeout):
            return fail(.noNextTap(taps, of: parameters.taps, window: parameters.multiTapWindow))
        case (.idle, .timeout), (.done, _):
            return .none
        }
    }

    private func touching(
        _ frame: borrowing TouchFrame, _ input: TouchInput, tap: Int, since: EventTime,
        moved: Double
    ) -> Proposal {
        var moved = moved
        for t in frame.touches {
            if t.phase == .began { starts.append((t.id, t.position)) }
            if let s = starts.first(where: { $0.0 == t.id }) { moved = max(moved, t.position.distance(to: s.1)) }
        }
        if moved > parameters.maxMovementMM { return fail(.moved(moved, max: parameters.maxMovementMM)) }
        let held = frame.time - since
        if held > parameters.maxDuration { return fail(.held(held, max: parameters.maxDuration)) }
        guard input.isLast else {
            state = .touching(tap: tap, since: since, moved: moved)
            return .none
        }
        // Where the fingers landed: the last lift's frame holds only the last finger.
        var landed = Point.zero
        for s in starts { landed += s.1 }
        lastTapLocation = starts.isEmpty ? frame.centroid : landed / Double(starts.count)
        if tap >= parameters.taps {
            state = .done
            return .recognize(
                Report(
                    detail: .tap(taps: tap), fingers: input.maxFingers, location: lastTapLocation,
                    locationNormalised: normalised(lastTapLocation, in: frame.areaMM)))
        }
        state = .waiting(taps: tap, until: frame.time + parameters.multiTapWindow, at: lastTapLocation)
        return .none
    }

    private func fail(_ f: Failure) -> Proposal {
        state = .done
        return .fail(.tap(f))
    }

    public var evidence: Evidence {
        var e = Evidence()
        e.tapRadius = (lastTapLocation, parameters.maxMovementMM)
        return e
    }
}

extension TapRecognizer.Parameters {
    /// The config keys of a `tap` recognizer (`ParameterKey`).
    public static var keys: [ParameterKey<Self>] {
        [
            .integer("taps", \.taps, 1...10, "taps needed"),
            .integer("fingers", \.fingers, 1...10, "fingers per tap"),
            .number("max_movement_mm", \.maxMovementMM, 0.1...100, "a finger moving further than this is not tapping"),
            .millis("max_duration_ms", \.maxDuration, 10...10_000, "longest a tap may stay down"),
            .millis(
                "multi_tap_window_ms", \.multiTapWindow, 10...5_000, "longest wait from one lift to the next touch"),
            .number("multi_tap_slop_mm", \.multiTapSlopMM, 0.1...200, "furthest the next tap may land from the last"),
        ]
    }
}
