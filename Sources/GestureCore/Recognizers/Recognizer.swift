/// What a recognizer reports with a successful transition.
public struct Report: Sendable, Equatable {
    public var detail: GestureDetail
    public var fingers: Int
    public var location: Point
    public var locationNormalised: Point

    public init(detail: GestureDetail, fingers: Int, location: Point, locationNormalised: Point) {
        self.detail = detail; self.fingers = fingers; self.location = location
        self.locationNormalised = locationNormalised
    }
}

/// What a recognizer would do after an input. Recognizers only propose; the arena
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
    /// possible → failed, with the reason in words and numbers.
    case fail(String)
    /// began/changed → cancelled, with the reason.
    case cancel(String)
}

/// A gesture recognizer: one kind, one instance per configured name and device.
///
/// The arena calls `handle` with every frame of each touch sequence the recognizer
/// takes part in, `timeout` when its `deadline` passes, and `reset` before a new
/// sequence once it has decided. Implementations keep their own `enum State` and
/// say why they fail.
public protocol Recognizer: AnyObject {
    var kind: GestureKind { get }
    func handle(_ frame: borrowing TouchFrame) -> Proposal
    /// The event-clock time at which the recognizer wants `timeout`, if any.
    var deadline: EventTime? { get }
    func timeout(at time: EventTime) -> Proposal
    /// Back to possible, forgetting the last sequence.
    func reset()
    /// What the recognizer looked at and concluded, for `gesturectl explain`.
    var evidence: Evidence { get }
}

extension Recognizer {
    public var deadline: EventTime? { nil }
    public func timeout(at time: EventTime) -> Proposal { .none }
    public var evidence: Evidence { Evidence() }
}

/// Geometry a recognizer used to decide, for drawing and explaining.
public struct Evidence: Sendable {
    public var circle: (center: Point, radius: Double)?
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
        points.append(p); times.append(t)
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
        while i < points.count { len += points[i].distance(to: points[i - 1]); i += 1 }
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
    var maxFingers = 0
    var stroke = Stroke()
    var lastNormalised = Point.zero
    var areaMM = Point(x: 1, y: 1)

    enum Step { case moved, lifted, cancelled, nothing }

    mutating func reset() { touch = nil; maxFingers = 0; stroke.removeAll() }

    mutating func feed(_ frame: borrowing TouchFrame) -> Step {
        areaMM = frame.areaMM
        var live = 0
        for t in frame.touches where !t.phase.isFinal { live += 1 }
        maxFingers = max(maxFingers, live)
        var step = Step.nothing
        for t in frame.touches {
            if touch == nil && t.phase == .began { touch = t.id }
            guard t.id == touch else { continue }
            stroke.append(t.position, at: frame.time)
            lastNormalised = t.normalised
            switch t.phase {
            case .ended: step = .lifted
            case .cancelled: step = .cancelled
            default: step = .moved
            }
        }
        return step
    }

    /// What a one-finger shape decided at lift makes of a frame.
    enum Outcome { case pending, lifted, failed(String) }

    /// The frame handling every one-finger shape shares: a second finger, a
    /// cancelled touch or a stroke longer than `maxDuration` fail it at once;
    /// the lift hands the stroke over for the decision.
    mutating func follow(_ frame: borrowing TouchFrame, shape: String, maxDuration: Millis) -> Outcome {
        let step = feed(frame)
        if maxFingers > 1 { return .failed("\(maxFingers) fingers; \(shape) is drawn with one") }
        switch step {
        case .cancelled: return .failed("touch cancelled")
        case .lifted: return .lifted
        case .moved, .nothing:
            if stroke.duration > maxDuration { return .failed("took \(stroke.duration) > \(maxDuration)") }
            return .pending
        }
    }

    func report(_ detail: GestureDetail, at p: Point? = nil) -> Report {
        guard let p else {
            return Report(detail: detail, fingers: 1, location: stroke.last ?? .zero, locationNormalised: lastNormalised)
        }
        let n = Point(x: areaMM.x > 0 ? p.x / areaMM.x : 0, y: areaMM.y > 0 ? p.y / areaMM.y : 0)
        return Report(detail: detail, fingers: 1, location: p, locationNormalised: n)
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

    mutating func reset() { translation = .zero; carried = .zero; started = false }

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
