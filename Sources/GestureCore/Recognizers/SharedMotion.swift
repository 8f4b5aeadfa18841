/// How the centroid of a touch sequence has moved, as a swipe or a pan follows
/// it frame by frame: its translation (fingers landing and lifting do not count as
/// travel), the length of its path, and its recent velocity. Values only: a copy
/// costs no reference counting and allocates nothing.
struct Motion {
    private(set) var centroid = CentroidTranslation()
    private(set) var velocity = VelocityEstimate()
    /// The length of the translation's path.
    private(set) var path = 0.0
    /// Which state this is in its `SharedMotion`'s numbering; 0 fresh.
    fileprivate var id: UInt64 = 0

    var translation: Point { centroid.translation }

    /// One frame more.
    fileprivate mutating func step(_ frame: borrowing TouchFrame) {
        let last = centroid.translation
        let t = centroid.update(frame)
        path += t.distance(to: last)
        velocity.add(t, at: frame.time)
    }
}

/// What the swipes and pans of one arena share of their work per frame. Every one
/// of them taking part in a touch sequence is reset at its start and then given
/// each of its frames, so their motions are equal: the first to be given a frame
/// works out the step and the others take it, instead of each of the 40 swipes
/// of a lisgd command line working out the same centroid, path and velocity.
/// A motion is taken only if it is the step of the same frame (time) from the
/// same state (an id no other state has; a reset invalidates the step from a
/// fresh one), so one that was not given the same frames works out its own.
final class SharedMotion {
    private var from: UInt64 = .max
    private var time = EventTime.zero
    private var next: Motion = Motion()
    private var ids: UInt64 = 0

    init() {}

    /// `motion` advanced by `frame`, as it would have worked it out itself.
    @inline(__always)
    func advance(_ motion: inout Motion, by frame: borrowing TouchFrame) {
        if from == motion.id && time == frame.time {
            motion = next
            return
        }
        from = motion.id
        time = frame.time
        motion.step(frame)
        ids &+= 1
        motion.id = ids
        next = motion
    }

    /// A recognizer went back to a fresh motion: a step worked out from another
    /// fresh one (an earlier sequence's) no longer holds.
    func reset(_ motion: inout Motion) {
        motion = Motion()
        from = .max
    }
}
