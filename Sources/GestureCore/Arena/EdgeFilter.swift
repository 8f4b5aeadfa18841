/// An edge or corner of the screen as the user sees it (after rotation), or
/// `none`: away from every edge.
public enum Edge: String, Sendable, CaseIterable {
    case left, right, top, bottom
    case topLeft = "top_left", topRight = "top_right", bottomLeft = "bottom_left", bottomRight = "bottom_right"
    case none

    /// The side it lies on horizontally and vertically (a corner has both).
    var sides: (horizontal: Side?, vertical: Side?) {
        switch self {
        case .left: (.low, nil)
        case .right: (.high, nil)
        case .top: (nil, .low)
        case .bottom: (nil, .high)
        case .topLeft: (.low, .low)
        case .topRight: (.high, .low)
        case .bottomLeft: (.low, .high)
        case .bottomRight: (.high, .high)
        case .none: (nil, nil)
        }
    }

    enum Side: Equatable { case low, high }
}

/// Which edge of the screen a sequence belongs to, judged on its first finger.
///
/// - `edge_mm`: how close to the edge the finger must land. A corner is the
///   `edge_mm` square; a landing in a corner counts for both its edges.
/// - `edge_range`: the part of the edge that counts, 0…1 from the top for the
///   left and right edges and from the left for the top and bottom edges.
/// - `edge_at`: `start` judges where the finger landed; `start_or_end` also
///   takes the sequence when the finger is at the edge when the recognizer
///   decides (lisgd's rule: each side, horizontal and vertical, is taken from the
///   start if the start is at one, else from the end).
///
/// A fast swipe's first reported contact is often already some mm in from the
/// edge: the finger was moving when it touched and the panel reports a scan
/// later. So the start is traced back along the finger's first motion by
/// `fastStartLookback` (25 ms, two or three reports at 60–120 Hz), by at most
/// `edge_mm`: a finger landing up to twice `edge_mm` in and moving away from the
/// edge fast enough to have come from it counts as starting there. A finger
/// landing further in than twice `edge_mm` never starts at the edge, however fast.
public struct EdgeFilter: Sendable, Equatable {
    public enum At: String, Sendable, CaseIterable {
        case start
        case startOrEnd = "start_or_end"
    }

    public var edge: Edge
    public var marginMM: Double
    public var range: ClosedRange<Double>?
    public var at: At

    public static let defaultMarginMM = 4.5
    /// How far back the first motion is traced.
    public static let fastStartLookback = Millis(25)
    /// Motion before the first motion is known: this far from the landing, or
    /// this long after it.
    static let firstMotionMM = 1.0
    static let firstMotionWindow = Millis(30)
    /// Nor sooner than this after it: a millimetre of touch-down jitter in the
    /// next report, microseconds later, is no speed.
    static let firstMotionMinimum = Millis(8)

    public init(
        edge: Edge, marginMM: Double = EdgeFilter.defaultMarginMM, range: ClosedRange<Double>? = nil,
        at: At = .start
    ) {
        self.edge = edge
        self.marginMM = marginMM
        self.range = range
        self.at = at
    }

    /// The side a point is at, horizontally and vertically, on an area of `area` mm.
    func sides(of p: Point, in area: Point) -> (horizontal: Edge.Side?, vertical: Edge.Side?) {
        let h: Edge.Side? = p.x <= marginMM ? .low : (p.x >= area.x - marginMM ? .high : nil)
        let v: Edge.Side? = p.y <= marginMM ? .low : (p.y >= area.y - marginMM ? .high : nil)
        return (h, v)
    }

    /// Whether a point lies within twice the margin of the filter's edge: nearer
    /// than that, the fast-start rule may still take it.
    func mayStart(at p: Point, in area: Point) -> Bool {
        let wide = 2 * marginMM
        let (h, v) = edge.sides
        func near(_ side: Edge.Side?, _ c: Double, _ extent: Double) -> Bool {
            switch side {
            case nil: true
            case .low: c <= wide
            case .high: c >= extent - wide
            }
        }
        if edge == .none { return true }
        return near(h, p.x, area.x) && near(v, p.y, area.y) && inRange(p, area)
    }

    func inRange(_ p: Point, _ area: Point) -> Bool {
        guard let range else { return true }
        let (h, v) = edge.sides
        // Along the edge: y for the left and right edges, x for the top and bottom.
        if h != nil && v == nil { return range.contains(area.y > 0 ? p.y / area.y : 0) }
        if v != nil && h == nil { return range.contains(area.x > 0 ? p.x / area.x : 0) }
        return true
    }

    /// Judges a sequence on its first finger: where it landed, where its start
    /// traced back along its first motion lies (once that is known), and where
    /// it is now (for `start_or_end`). Each side, horizontal and vertical, is
    /// the landing's if it landed at one, else the traced start's: tracing back
    /// only ever brings a start nearer an edge. The part of the edge that
    /// counts (`edge_range`) is judged where the finger landed, or where it
    /// is now when the end decided.
    func judge(landing: Point, traced: Point?, end: Point, in area: Point) -> EdgeMiss? {
        let l = sides(of: landing, in: area)
        let t = traced.map { sides(of: $0, in: area) }
        var h = l.horizontal ?? t?.horizontal, v = l.vertical ?? t?.vertical
        let startH = h, startV = v
        var judged = landing
        if at == .startOrEnd {
            let e = sides(of: end, in: area)
            if h == nil { h = e.horizontal }
            if v == nil { v = e.vertical }
            let want = edge.sides
            // The point that made the wanted side, for the range.
            if (want.horizontal != nil && startH != want.horizontal)
                || (want.vertical != nil && startV != want.vertical)
            {
                judged = end
            }
        }
        if edge == .none {
            if h != nil || v != nil { return .atAnEdge }
            return nil
        }
        let want = edge.sides
        if (want.horizontal.map { h != $0 } ?? false) || (want.vertical.map { v != $0 } ?? false) {
            var d = distance(landing, edge, area)
            if let traced { d = min(d, distance(traced, edge, area)) }
            return .tooFar(
                edge, distanceMM: d, maxMM: marginMM, endMM: at == .startOrEnd ? distance(end, edge, area) : nil)
        }
        if !inRange(judged, area) { return .outsideRange(edge) }
        return nil
    }

    /// How far a point is from the edge (the farther of a corner's two sides).
    func distance(_ p: Point, _ edge: Edge, _ area: Point) -> Double {
        let (h, v) = edge.sides
        var d = 0.0
        if let h { d = max(d, h == .low ? p.x : area.x - p.x) }
        if let v { d = max(d, v == .low ? p.y : area.y - p.y) }
        return d
    }

    /// The start traced back along the first motion (`from` at `t0` to `to` at
    /// `t1`) by `fastStartLookback`, by at most the margin.
    func tracedBack(from p0: Point, at t0: EventTime, to p1: Point, at t1: EventTime) -> Point {
        let dt = max((t1 - t0).seconds, EdgeFilter.firstMotionMinimum.seconds)
        let v = (p1 - p0) / dt
        var back = v * Self.fastStartLookback.seconds
        let len = back.length
        if len > marginMM { back = back * (marginMM / len) }
        return p0 - back
    }
}

/// Why a sequence was not at the edge a recognizer wants.
public enum EdgeMiss: Sendable, Equatable {
    /// It started this far from the edge (or corner), more than the margin;
    /// with `edge_at = "start_or_end"`, it ended `endMM` from it.
    case tooFar(Edge, distanceMM: Double, maxMM: Double, endMM: Double? = nil)
    /// At the edge, but outside the part of it that counts.
    case outsideRange(Edge)
    /// The recognizer wants no edge, and the sequence was at one.
    case atAnEdge
}

/// The first finger of a sequence, followed for the edge filters: where it
/// landed, its first motion, and where it is now.
struct FirstFinger {
    var id: TouchID?
    var landing = Point.zero
    var landedAt = EventTime.zero
    var current = Point.zero
    /// Where the first motion took it, once it is known.
    var motion: (point: Point, at: EventTime)?

    mutating func start(_ frame: borrowing TouchFrame) {
        id = nil
        motion = nil
        for t in frame.touches where t.phase == .began {
            id = t.id
            landing = t.position
            current = t.position
            landedAt = frame.time
            return
        }
    }

    /// Follows the finger; true when its first motion became known in this frame.
    mutating func update(_ frame: borrowing TouchFrame) -> Bool {
        guard let id else { return false }
        for t in frame.touches where t.id == id {
            current = t.position
            let elapsed = frame.time - landedAt
            if motion == nil && frame.time > landedAt
                && ((elapsed >= EdgeFilter.firstMotionMinimum
                    && t.position.distance(to: landing) >= EdgeFilter.firstMotionMM)
                    || elapsed >= EdgeFilter.firstMotionWindow || t.phase.isFinal)
            {
                motion = (t.position, frame.time)
                return true
            }
        }
        return false
    }

    /// The landing traced back along the first motion, once that is known.
    func traced(for filter: EdgeFilter) -> Point? {
        guard let motion else { return nil }
        return filter.tracedBack(from: landing, at: landedAt, to: motion.point, at: motion.at)
    }

    /// The filter's judgement of the sequence so far.
    func judge(_ filter: EdgeFilter, in area: Point) -> EdgeMiss? {
        filter.judge(landing: landing, traced: traced(for: filter), end: current, in: area)
    }
}
