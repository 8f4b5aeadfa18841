/// What a recognizer reports with a successful transition.
public struct Report: Sendable, Equatable {
    public var detail: GestureDetail
    public var fingers: Int
    public var location: Point
    public var locationNormalised: Point
    /// A slider's step: +1 (right or down on the screen as seen) or −1.
    public var step: Int?

    public init(detail: GestureDetail, fingers: Int, location: Point, locationNormalised: Point, step: Int? = nil) {
        self.detail = detail
        self.fingers = fingers
        self.location = location
        self.locationNormalised = locationNormalised
        self.step = step
    }
}

/// What a recognizer would do after an event. Recognizers only propose; the arena
/// decides (require-to-fail, exclusion, prevention) and records the transition.
public enum Proposal: Sendable, Equatable {
    /// Still possible (or, if began, nothing new to say).
    case none
    /// Continuous: possible → began.
    case begin(Report)
    /// Continuous: began → changed.
    case change(Report)
    /// Continuous: began/changed → ended.
    case end(Report)
    /// Discrete: possible → recognized.
    case recognize(Report)
    /// possible → failed, with the reason.
    case fail(Reason)
    /// began/changed → cancelled, with the reason.
    case cancel(Reason)
}

/// What one frame did, derived once per frame by the arena and handed to every
/// recognizer taking part: a finger landed, the fingers moved, one lifted, a touch
/// was cancelled; and how many fingers there are.
public struct TouchInput: Sendable, Equatable, CustomStringConvertible {
    public enum Change: UInt8, Sendable {
        /// A finger landed (and none lifted or was cancelled).
        case down
        /// Fingers moved or stayed; none landed or lifted.
        case move
        /// A finger lifted (another may have landed in the same frame).
        case lift
        /// A touch was cancelled: a palm, a resync, the device going.
        case cancel
    }

    public var change: Change
    /// Fingers on the surface after the frame.
    public var fingers: Int
    /// The most fingers down at once in this touch sequence, this frame included.
    public var maxFingers: Int
    /// A finger landed in this frame (also in a `lift` frame where one lifted as
    /// another landed).
    public var landed: Bool

    /// No finger is left: the sequence is over.
    public var isLast: Bool { fingers == 0 }

    public init(change: Change, fingers: Int, maxFingers: Int, landed: Bool) {
        self.change = change
        self.fingers = fingers
        self.maxFingers = maxFingers
        self.landed = landed
    }

    /// The input of `frame`, given the most fingers down earlier in its sequence.
    public init(_ frame: borrowing TouchFrame, maxFingersBefore: Int) {
        var live = 0, landed = false, lifted = false, cancelled = false
        for t in frame.touches {
            switch t.phase {
            case .began:
                landed = true
                live += 1
            case .moved, .stationary: live += 1
            case .ended: lifted = true
            case .cancelled: cancelled = true
            }
        }
        change = cancelled ? .cancel : lifted ? .lift : landed ? .down : .move
        fingers = live
        maxFingers = max(maxFingersBefore, live)
        self.landed = landed
    }

    public var description: String {
        let name =
            switch change {
            case .down: "down"
            case .move: "move"
            case .lift: "lift"
            case .cancel: "cancel"
            }
        return "\(name)(\(fingers))"
    }
}

/// What a recognizer is told: a frame, or that its deadline passed.
public enum RecognizerEvent: Sendable, Equatable, CustomStringConvertible {
    case frame(TouchInput)
    case timeout(EventTime)

    public var description: String {
        switch self {
        case .frame(let input): input.description
        case .timeout: "timeout"
        }
    }
}

/// A gesture recognizer: one kind, one instance per configured name and device.
///
/// Each is a state machine: an `enum State` whose cases carry their own data, and
/// `handle`, one exhaustive switch on (state, event). The arena derives the event
/// once per frame, applies the rules every recognizer shares (a cancelled touch,
/// too many fingers, too few at the last lift) before `handle` is called, routes
/// every call through one dispatcher that can trace `name: old → event → new
/// (reason)`, and calls `reset` before a new sequence once it has decided.
public protocol Recognizer: AnyObject {
    var kind: GestureKind { get }
    /// The finger counts it can be recognized with. While it is possible, the
    /// arena fails it as soon as more fingers are down, and at the last lift if
    /// fewer ever were.
    var fingers: ClosedRange<Int> { get }
    /// One frame (with the frame itself for positions) or a timeout (with a frame
    /// that has no touches).
    func handle(_ event: RecognizerEvent, _ frame: borrowing TouchFrame) -> Proposal
    /// The event-clock time at which the recognizer wants a timeout, if any.
    /// It changes only with `handle` and `reset`: the arena asks for it after
    /// those and keeps it.
    var deadline: EventTime? { get }
    /// Back to possible, forgetting the last sequence.
    func reset()
    /// Its state in words, for the trace ("touching(tap 1)"). Only asked when tracing.
    var stateDescription: String { get }
    /// What the recognizer looked at and concluded, for `gesturectl explain`.
    var evidence: Evidence { get }
}

extension Recognizer {
    public var deadline: EventTime? { nil }
    public var evidence: Evidence { Evidence() }
}

/// A point in mm as a fraction of the active area (0…1 on each axis).
func normalised(_ p: Point, in area: Point) -> Point {
    Point(x: area.x > 0 ? p.x / area.x : 0, y: area.y > 0 ? p.y / area.y : 0)
}

/// Geometry a recognizer used to decide, for drawing and explaining.
public struct Evidence: Sendable {
    public var circle: (center: Point, radius: Double)?
    /// A circle that fitted worse than its tolerance, measured as an oval: its
    /// aspect, its distance from its ellipse, its distance from the circle, and
    /// the ellipse. Whether it was taken as one is the decision's.
    public var oval: (aspect: Double, error: Double, asCircle: Double, ellipse: [Point])?
    public var innerBox: Box?
    public var strokeBox: Box?
    public var vertex: Point?
    public var reversals: [Point] = []
    public var tapRadius: (center: Point, radius: Double)?
    /// Where a hook at the start or end of the stroke was cut off.
    public var hookCuts: [Point] = []
    /// The sharpest-turning samples of the stroke (circle: a polygon's cluster at its corners).
    public var corners: [Point] = []
    /// Straight chords the decision measured (checkmark: start → vertex → end).
    public var chords: [Point] = []
    public var notes: [String] = []
    public init() {}
}

/// The touch path of one finger, kept across the frames of a sequence with its
/// storage reused between sequences.
public struct Stroke: Sendable {
    public private(set) var points: [Point] = []
    public private(set) var times: [EventTime] = []
    public init() {
        points.reserveCapacity(512)
        times.reserveCapacity(512)
    }
    public mutating func append(_ p: Point, at t: EventTime) {
        if let last = points.last, last == p { return }
        points.append(p)
        times.append(t)
    }
    public mutating func removeAll() {
        points.removeAll(keepingCapacity: true)
        times.removeAll(keepingCapacity: true)
    }
    public var count: Int { points.count }
    public var isEmpty: Bool { points.isEmpty }
    public var first: Point? { points.first }
    public var last: Point? { points.last }
    public var pathLength: Double {
        var len = 0.0
        var i = 1
        while i < points.count {
            len += points[i].distance(to: points[i - 1])
            i += 1
        }
        return len
    }
    public var duration: Millis {
        guard let a = times.first, let b = times.last else { return Millis(0) }
        return b - a
    }
}

/// Follows one finger through a sequence: the first touch that lands, until it
/// lifts. Shared by the single-finger shape recognizers.
struct SingleFingerTracker {
    var touch: TouchID?
    var stroke = Stroke()
    var lastNormalised = Point.zero
    var areaMM = Point(x: 1, y: 1)

    /// What a frame did to the finger followed.
    enum Step { case moved, lifted, absent }

    mutating func reset() {
        touch = nil
        stroke.removeAll()
    }

    mutating func feed(_ frame: borrowing TouchFrame) -> Step {
        areaMM = frame.areaMM
        var step = Step.absent
        for t in frame.touches {
            if touch == nil && t.phase == .began { touch = t.id }
            guard t.id == touch else { continue }
            stroke.append(t.position, at: frame.time)
            lastNormalised = t.normalised
            step = t.phase.isFinal ? .lifted : .moved
        }
        return step
    }

    /// What a one-finger shape decided at lift makes of a frame.
    enum Outcome { case pending, lifted, failed(Reason) }

    /// The frame handling every one-finger shape shares (the arena has already
    /// failed it for a second finger or a cancelled touch): a stroke longer than
    /// `maxDuration` fails it at once; the lift hands the stroke over for the decision.
    mutating func follow(_ frame: borrowing TouchFrame, maxDuration: Millis) -> Outcome {
        if feed(frame) == .lifted { return .lifted }
        if stroke.duration > maxDuration { return .failed(.strokeTookTooLong(stroke.duration, max: maxDuration)) }
        return .pending
    }

    func report(_ detail: GestureDetail, at p: Point? = nil) -> Report {
        guard let p else {
            return Report(
                detail: detail, fingers: 1, location: stroke.last ?? .zero, locationNormalised: lastNormalised)
        }
        return Report(detail: detail, fingers: 1, location: p, locationNormalised: normalised(p, in: areaMM))
    }
}

/// The state machine of a one-finger shape decided at lift (circle, checkmark):
/// it follows its finger while the shape is drawn, fails a stroke that takes
/// longer than the shape may, and hands the stroke to `decide` at the lift.
final class ShapeDrawing: CustomStringConvertible {
    enum State {
        /// Following the finger; the stroke is in `tracker`.
        case drawing
        case done
    }

    private(set) var state = State.drawing
    private(set) var tracker = SingleFingerTracker()

    func reset() {
        state = .drawing
        tracker.reset()
    }

    func handle(
        _ event: RecognizerEvent, _ frame: borrowing TouchFrame, maxDuration: Millis,
        decide: () -> Proposal
    ) -> Proposal {
        switch (state, event) {
        case (.drawing, .frame):
            switch tracker.follow(frame, maxDuration: maxDuration) {
            case .pending: return .none
            case .failed(let why):
                state = .done
                return .fail(why)
            case .lifted:
                state = .done
                return decide()
            }
        case (.drawing, .timeout), (.done, _):
            return .none
        }
    }

    var description: String {
        switch state {
        case .drawing: "drawing"
        case .done: "done"
        }
    }
}

/// The translation of the centroid of the fingers down, carried across changes of
/// the set of fingers: a finger landing or lifting (or one lifting while another
/// lands, in one frame) moves the centroid without anything having moved.
struct CentroidTranslation {
    private(set) var translation = Point.zero
    private var carried = Point.zero
    private var origin = Point.zero
    private var started = false

    mutating func reset() {
        translation = .zero
        carried = .zero
        started = false
    }

    @discardableResult
    mutating func update(_ frame: borrowing TouchFrame) -> Point {
        let live = frame.liveCount
        guard live > 0 else { return translation }
        let centroid = frame.centroid
        if !started {
            started = true
            origin = centroid
        } else if frame.touches.contains(where: { $0.phase == .began || $0.phase.isFinal }) {
            carried = translation
            origin = centroid
        }
        translation = carried + (centroid - origin)
        return translation
    }
}
