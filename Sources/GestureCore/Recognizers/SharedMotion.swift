/// How the centroid of a touch sequence has moved, as a swipe or a pan follows
/// it frame by frame: its translation (fingers landing and lifting do not count as
/// travel), the length of its path, and its recent velocity. Values only: a copy
/// costs no reference counting and allocates nothing.
struct Motion {
    private(set) var centroid = CentroidTranslation()
    private(set) var velocity = VelocityEstimate()
    /// The length of the translation's path.
    private(set) var path = 0.0

    var translation: Point { centroid.translation }

    /// One frame more.
    fileprivate mutating func step(_ frame: borrowing TouchFrame) {
        let last = centroid.translation
        let t = centroid.update(frame)
        path += t.distance(to: last)
        velocity.add(t, at: frame.time)
    }
}

/// The motion of a touch sequence, as the swipes and pans holding it read it.
///
/// Alone (a recognizer given frames by hand), the one recognizer holding it
/// resets it and steps it with each frame it is given. In an arena, the arena
/// drives it: it starts it afresh when a sequence starts and steps it once with
/// each frame of the sequence before any member is given the frame, and the
/// recognizers only read it. Every swipe and pan taking part in a sequence is
/// reset at its start and given every frame of it until it has decided, so the
/// motion the arena steps is the one each would have worked out itself, and the
/// forty swipes of a lisgd command line share one (`Configuration.makeArena`
/// gives all the swipes and pans of an arena one). Several recognizers hold
/// one only when an arena drives it.
final class SharedMotion {
    /// The sequence's motion up to the latest frame.
    private(set) var current = Motion() { didSet { headingKnown = false } }
    /// `heading` for `current`, while `headingKnown`.
    private var headingCache = Heading(endSpeed: 0, degrees: 0)
    private var headingKnown = false
    /// An arena starts and steps it: the recognizers holding it only read it.
    private(set) var driven = false

    init() {}

    /// A recognizer went back to possible: a fresh motion, unless an arena
    /// starts it.
    func reset() {
        if !driven { current = Motion() }
    }

    /// A recognizer was given `frame`: one step, unless an arena steps it.
    @inline(__always)
    func advance(by frame: borrowing TouchFrame) {
        if !driven { current.step(frame) }
    }

    /// How fast the motion ended and which way it went, as a swipe deciding at
    /// the lift reads them.
    struct Heading {
        /// The speed over the last moments (`VelocityEstimate`), mm/s.
        var endSpeed: Double
        /// The translation's direction: degrees clockwise from right, 0 up to 360.
        var degrees: Double
    }

    /// The motion's heading up to the latest frame: worked out by the first
    /// swipe that asks on a frame, and read by the others deciding on it (the
    /// thirty-odd one-finger swipes of a lisgd command line at every lift).
    var heading: Heading {
        if headingKnown { return headingCache }
        let t = current.translation
        var angle = degrees(atan2(t.y, t.x))
        if angle < 0 { angle += 360 }
        headingCache = Heading(endSpeed: current.velocity.mmPerSecond.length, degrees: angle)
        headingKnown = true
        return headingCache
    }

    // MARK: - The arena's

    /// From now on the arena starts and steps it.
    func drive() { driven = true }

    /// A sequence starts.
    func restart() { current = Motion() }

    /// A frame of the sequence, before any member is given it.
    func step(_ frame: borrowing TouchFrame) { current.step(frame) }
}

/// A recognizer that follows the motion of its sequence (`SharedMotion`).
protocol FollowsMotion: AnyObject {
    var motion: SharedMotion { get }
    /// While its motion is driven by an arena, only the first frame it is given
    /// and the last of the sequence (no finger left) can change what it decides;
    /// in between, a frame in which no touch is cancelled only moves the
    /// motion, fingers landing and lifting included, so the arena need not give
    /// it those. The shared rules (`Arena.sharedRule`) fail it on them only for
    /// more fingers down than it takes, which is new only in a frame where more
    /// are down than ever before in the sequence: the arena gives it that one.
    var decidesOnlyAtEnds: Bool { get }
}
