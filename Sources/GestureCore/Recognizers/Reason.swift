/// Why a recognizer failed or a gesture was cancelled: a recognizer's own finding
/// with its numbers, a rule every recognizer shares, the arena's decision, or the
/// end of the device. Code matches on the cases; the words come from one place,
/// `text(numbers:)` in ReasonText.swift.
public enum Reason: Sendable, Equatable {
    // Rules the arena applies to every recognizer.
    /// A touch of the sequence was cancelled (a palm, a resync, the device going).
    case touchCancelled
    /// The kernel marked a touch of the sequence a palm (MT_TOOL_PALM).
    case palm
    /// The screen's pen came into proximity, or left it too recently: its touches
    /// are taken for the hand holding the pen (touch arbitration).
    case penInProximity
    /// More fingers landed than `kind` takes, or fewer than it needs had landed at
    /// the last lift.
    case fingers(Int, allowed: ClosedRange<Int>, kind: GestureKind)

    // Each kind's own findings.
    case tap(TapRecognizer.Failure)
    case pan(PanRecognizer.Failure)
    case swipe(SwipeRecognizer.Failure)
    case longPress(LongPressRecognizer.Failure)
    case twoFinger(TwoFingerTransformRecognizer.Failure)
    /// A one-finger shape (circle, checkmark, tickle, shape) took longer than it may.
    case strokeTookTooLong(Millis, max: Millis)
    case circle(CircleRecognizer.Failure)
    case checkmark(CheckmarkRecognizer.Failure)
    case tickle(TickleRecognizer.Failure)
    case shape(ShapeRecognizer.Failure)

    /// The sequence was not at the edge the recognizer's filter wants.
    case edge(EdgeMiss)

    /// The arena decided, not the recognizer's own look at the touches.
    case arena(ArenaDecision)
    /// Everything in flight ended at once.
    case teardown(Teardown)

    /// True when the arena decided (exclusion, prevention, require-to-fail, the
    /// touches lifting too early) or the device ended, so the recognizer's own
    /// evidence is not what decided.
    public var isArenaDecision: Bool {
        switch self {
        case .arena, .teardown: true
        case .touchCancelled, .palm, .penInProximity, .fingers, .tap, .pan, .swipe, .longPress, .twoFinger,
            .strokeTookTooLong, .circle, .checkmark, .tickle, .shape, .edge:
            false
        }
    }

    /// The recognizer that won, for a decision of the arena that names one.
    public var decidedBy: String? {
        guard case .arena(let d) = self else { return nil }
        switch d {
        case .excluded(let by, _), .prevented(let by), .requirementSucceeded(let by, _): return by
        case .liftedBeforeComplete, .touchesEndedWhileActive, .touchesGoneWhenReleased, .timerDidNotAdvance: return nil
        }
    }
}

extension Reason {
    /// The reason the gestures of a cancelled touch end with.
    public init(cancelled cause: TouchCancelCause) {
        switch cause {
        case .lost: self = .touchCancelled
        case .palm: self = .palm
        case .penInProximity: self = .penInProximity
        }
    }
}

/// The arena's own reasons.
public enum ArenaDecision: Sendable, Equatable {
    /// Another recognizer deciding about the same touches began (or was
    /// recognized, when `began` is false) first.
    case excluded(by: String, began: Bool)
    /// A gesture that had already begun keeps this one from beginning.
    case prevented(by: String)
    /// This one requires `name` to fail, and `name` began (or was recognized).
    case requirementSucceeded(String, began: Bool)
    /// The last finger lifted while the recognizer was still undecided and had no
    /// timer left to decide by.
    case liftedBeforeComplete
    /// A continuous gesture still active when its touches were gone.
    case touchesEndedWhileActive
    /// A continuous gesture released from its hold after its touches were gone.
    case touchesGoneWhenReleased
    /// A recognizer asked for a timer it did not move on when it fired (a bug).
    case timerDidNotAdvance(EventTime)
}

/// Why every gesture in flight on a device ended at once.
public enum Teardown: Sendable, Equatable {
    case deviceRemoved
    case configReloaded
    case daemonStopping
    /// The recording being replayed ended with fingers still down.
    case endOfRecording
    /// Said by the caller in its own words.
    case other(String)
}
