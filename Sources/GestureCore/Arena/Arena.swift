/// How one recognizer relates to the others, as declared in config.
public struct Relations: Sendable, Equatable {
    /// Indices (into the arena's members) that must fail before this one may begin
    /// or be recognized.
    public var requiresFailureOf: [Int] = []
    /// Indices it may be recognized together with (symmetric: either side suffices).
    public var simultaneousWith: [Int] = []
    /// When false, this one beginning does not force others to fail.
    public var canPrevent = true
    /// When false, others beginning do not force this one to fail.
    public var canBePrevented = true
    public init(
        requiresFailureOf: [Int] = [], simultaneousWith: [Int] = [], canPrevent: Bool = true,
        canBePrevented: Bool = true
    ) {
        self.requiresFailureOf = requiresFailureOf
        self.simultaneousWith = simultaneousWith
        self.canPrevent = canPrevent
        self.canBePrevented = canBePrevented
    }
}

/// What the consuming recognizers make of a touch sequence (`Arena.consumeOutlook`).
public enum ConsumeOutlook: Sendable, Equatable {
    /// None of them can take it: the apps get it.
    case none
    /// One of them may still take it: hold it back.
    case pending
    /// This one took it: the apps must not see it.
    case taken(by: String)
}

/// Which touch sequences a recognizer takes part in.
public struct RecognizerFilter: Sendable, Equatable {
    /// Device names (substring match); empty means every device.
    public var devices: [String] = []
    /// Normalised region the sequence must start in; nil means anywhere.
    public var region: Box?
    /// The edge or corner the sequence must belong to; nil means anywhere.
    public var edge: EdgeFilter?
    /// The runtime profiles it belongs to: it takes part only while one of them is active.
    public var profiles: [String] = [Profiles.defaultName]
    public init(devices: [String] = [], region: Box? = nil, edge: EdgeFilter? = nil) {
        self.devices = devices
        self.region = region
        self.edge = edge
    }

    func accepts(device: String, start: Point) -> Bool {
        takes(device: device) && takes(start: start)
    }

    /// It names no device, or one whose name is part of `device`'s.
    func takes(device: String) -> Bool {
        devices.isEmpty || devices.contains { device.includes($0) }
    }

    /// It has no region, or one holding the sequence's `start`.
    func takes(start: Point) -> Bool {
        region?.contains(start) ?? true
    }
}

/// Where an arena says how it decides: the trace of the recognizers it is asked
/// to follow (`name: old → event → new (reason)`) and bugs (a recognizer proposing
/// what its state forbids), as libinput logs its own. Without one, an arena
/// builds no text at all and only counts bugs.
public final class ArenaLog {
    /// Recognizer names to trace; `all` in it traces every one.
    public let traced: Set<String>
    private let write: (ArenaLogEntry) -> Void

    public init(tracing traced: Set<String>, write: @escaping (ArenaLogEntry) -> Void) {
        self.traced = traced
        self.write = write
    }

    public func traces(_ name: String) -> Bool { traced.contains("all") || traced.contains(name) }

    func callAsFunction(_ entry: ArenaLogEntry) { write(entry) }
}

/// One line of an arena's log.
public struct ArenaLogEntry: Sendable, CustomStringConvertible {
    public enum Kind: Sendable { case trace, bug }
    public var kind: Kind
    public var time: EventTime
    public var device: String
    /// `name: old → event → new (reason)`, or what a bug was.
    public var text: String

    public var description: String { "\(time) \(device): \(text)" }
}

/// Owns the recognizers of one device, feeds them frames and time, and applies
/// the rules of DESIGN.md "The arena": exclusion, require-to-fail, simultaneity,
/// prevention. Pure: frames and times in, events out.
///
/// Every event a recognizer gets goes through `dispatch`, which applies the rules
/// all recognizers share and traces the transition.
public final class Arena {
    /// One recognizer in the arena and what the arena knows of it. A class: the
    /// per-frame path reads and writes its fields in place, never copying the
    /// whole member (arrays, name and recognizer) out of the array.
    public final class Member {
        public let name: String
        public let recognizer: any Recognizer
        public let filter: RecognizerFilter
        public internal(set) var relations: Relations
        var simultaneous: [Bool] = []
        var requiredBy: [Int] = []
        /// What the arena has decided about it (the require-to-fail ledger).
        var ledger = Ledger()
        /// The finger counts its recognizer takes (asked once: they never change).
        let fingers: ClosedRange<Int>
        /// Its kind and the edge its events carry, asked once for the same reason.
        let kind: GestureKind
        let edgeName: Edge?
        /// Its recognizer follows a motion the arena steps and decides nothing
        /// on the frames between the first and the last in which no touch is
        /// cancelled (`FollowsMotion.decidesOnlyAtEnds`): it is not given
        /// those, but for one that leaves it with more fingers than it takes.
        let skipsMoves: Bool
        /// Its recognizer's deadline, as it was after its last `handle` or
        /// `reset` (the only calls that change it): read for every frame,
        /// asked of the recognizer only when it may have changed.
        var deadline: EventTime?
        /// Its transitions go to the log.
        var traced = false
        /// Its filter lists the arena's profile: it may take part in the next sequence.
        var inProfile = true
        /// Its filter takes the arena's device (which never changes), and the
        /// edge it wants judged where the first finger lands (`edge_at = "start"`):
        /// what a sequence's start asks of it, worked out once.
        let onDevice: Bool
        let startEdge: EdgeFilter?

        init(name: String, recognizer: any Recognizer, filter: RecognizerFilter, relations: Relations, device: String) {
            self.name = name
            self.recognizer = recognizer
            self.filter = filter
            self.relations = relations
            onDevice = filter.takes(device: device)
            startEdge = filter.edge.flatMap { $0.at == .start ? $0 : nil }
            fingers = recognizer.fingers
            kind = recognizer.kind
            edgeName = filter.edge.flatMap { $0.edge == .none ? nil : $0.edge }
            skipsMoves = (recognizer as? FollowsMotion)?.decidesOnlyAtEnds ?? false
            deadline = recognizer.deadline
        }
    }

    public private(set) var members: [Member] = []
    /// The same members, read without reference counting by the loops that run
    /// for every frame (`members` keeps them alive; none is ever removed).
    private var roster: [Unmanaged<Member>] = []
    /// The indices of the members given every frame: all but those that skip
    /// moves (`Member.skipsMoves`). Like `roster` and `motions`, worked out by
    /// `membersChanged`.
    private var movers: [Int] = []
    /// The motions the members' recognizers follow, each once: started with
    /// every sequence and stepped with each frame before any member is given it.
    private var motions: [SharedMotion] = []
    /// Frames and timeouts given to members (the shared rules or their recognizers).
    private(set) var dispatched = 0
    public let device: String
    private var sequence: UInt64 = 0
    private var sequenceLive = false
    /// The most fingers down at once in the current sequence.
    private var sequenceMaxFingers = 0
    private var lastLocation = Point.zero
    private var lastNormalised = Point.zero
    private var lastFingers = 0
    /// What timeouts are handed with: a frame without touches.
    private var quiet: TouchFrame
    /// Some member has an edge filter: only then is the first finger followed.
    private var hasEdgeFilters = false
    private var firstFinger = FirstFinger()
    private var area = Point.zero
    /// Where traces and bugs go; nil: nowhere, at no cost.
    public var log: ArenaLog? {
        didSet { for i in members.indices { members[i].traced = log?.traces(members[i].name) ?? false } }
    }
    /// The active runtime profile: only members whose filter lists it take part
    /// in a new sequence; nil (paused): none does. Like the region, this is
    /// decided when a sequence starts, so a gesture in flight finishes as it began
    /// and a member sitting out costs nothing per frame.
    public var profile: String? = Profiles.defaultName {
        didSet { for m in members { m.inProfile = takesPart(m.filter) } }
    }
    private func takesPart(_ filter: RecognizerFilter) -> Bool {
        guard let profile else { return false }
        return filter.profiles.contains(profile)
    }
    /// `nextDeadline` as last computed, while `deadlineKnown`: nothing a
    /// recognizer's deadline or a member's status depends on has happened since
    /// (every such change goes through `dispatch`, `advance`, `startSequence`,
    /// `cancelAll`, the end of a sequence or `membersChanged`, which clear it; a member given a
    /// frame that proposes nothing and keeps its deadline changes neither).
    /// Read at the start of every frame, and in the middle of a stroke, where
    /// the swipes skip moves and the rest propose nothing, it holds from frame
    /// to frame.
    private var deadlineCache: EventTime?
    private var deadlineKnown = false
    /// Times `nextDeadline` looked through the members rather than answer from its cache.
    public private(set) var deadlineScans = 0
    /// Whether a member that fails says so with a `failed` event. Every member
    /// that does not take a stroke fails (forty of Sxmo's swipes a stroke): a
    /// reader that acts on no failure (gesture-run as `lisgd`, whose bindings run
    /// only on recognized, began and changed) is spared making them. The
    /// decisions, the trace and every other event are the same either way.
    public var emitsFailures = true
    /// Impossible (state, proposal) pairs seen: recognizer bugs.
    public private(set) var bugs = 0
    /// The dispatcher traced the outcome of a shared rule already.
    private var outcomeTraced = false

    public init(device: String) {
        self.device = device
        quiet = TouchFrame(time: .zero, device: device, touches: [], areaMM: .zero)
    }

    /// Adds a recognizer. Relations refer to members by index in adding order.
    public func add(
        name: String, recognizer: any Recognizer, filter: RecognizerFilter = RecognizerFilter(),
        relations: Relations = Relations()
    ) {
        let m = Member(name: name, recognizer: recognizer, filter: filter, relations: relations, device: device)
        m.traced = log?.traces(name) ?? false
        m.inProfile = takesPart(filter)
        members.append(m)
        membersChanged()
    }

    /// The members changed (one was added; none is ever removed): everything
    /// the arena derives from the list is worked out again from it, here and
    /// nowhere else — the roster, the movers, the motions it steps, whether
    /// any filter has an edge, the relations — and the earliest deadline it
    /// kept is forgotten. (Each member's own deadline is its recognizer's,
    /// kept by the member.)
    private func membersChanged() {
        roster = members.map { Unmanaged.passUnretained($0) }
        movers = members.indices.filter { !members[$0].skipsMoves }
        motions = []
        for m in members {
            if let motion = (m.recognizer as? FollowsMotion)?.motion, !motions.contains(where: { $0 === motion }) {
                motion.drive()
                motions.append(motion)
            }
        }
        hasEdgeFilters = members.contains { $0.filter.edge != nil }
        deadlineKnown = false
        let n = members.count
        for i in 0..<n {
            members[i].simultaneous = Array(repeating: false, count: n)
            members[i].requiredBy = []
        }
        for i in 0..<n {
            for j in members[i].relations.simultaneousWith where j < n && j != i {
                members[i].simultaneous[j] = true
                members[j].simultaneous[i] = true
            }
            for j in members[i].relations.requiresFailureOf where j < n {
                members[j].requiredBy.append(i)
            }
        }
    }

    public func member(named name: String) -> Member? { members.first { $0.name == name } }

    /// The members whose touches the apps must not see (`consume`), by index.
    public var consumers: [Int] = []

    /// What the consuming members make of the current touch sequence, after the
    /// last frame or timeout: one of them took it, one of them could still take
    /// it with the fingers down now (`fingers`), or none can.
    public func consumeOutlook(fingers: Int) -> ConsumeOutlook {
        var pending = false
        for i in consumers where i < members.count {
            let m = members[i]
            guard m.ledger.sequence == sequence else { continue }
            switch m.ledger.status {
            case .active:
                return .taken(by: m.name)
            case .done(let state):
                // Recognized, ended or cancelled after it began: it took the sequence.
                if state != .failed { return .taken(by: m.name) }
            case .possible, .held:
                // A recognizer of more fingers than are down could take the
                // sequence only once more land: until then its touches go on.
                if fingers >= m.fingers.lowerBound || m.ledger.tag == .held { pending = true }
            case .idle:
                continue
            }
        }
        return pending ? .pending : .none
    }

    /// Whether a consuming member could take the sequence that `frame` begins,
    /// asked before the arena is given the frame (an exclusive device sends
    /// the frame to its twin first when none could). Judged as a sequence's
    /// start judges it: the member's filter (device, region, edge band), the
    /// profile and the fingers it takes (`fingers` are down), and a decision it
    /// is still making or holds from an earlier sequence (a multi-tap). False
    /// only then: after the frame, `consumeOutlook` says `none`, unless a
    /// recognizer takes a sequence with fewer fingers than it takes. A frame
    /// that begins no sequence is not judged: true.
    public func mayConsume(_ frame: borrowing TouchFrame, fingers: Int) -> Bool {
        guard !consumers.isEmpty else { return false }
        guard !sequenceLive && frame.began else { return true }
        var landing: Point?
        for i in consumers where i < members.count {
            let m = members[i]
            switch m.ledger.tag {
            case .possible, .held, .active: return true
            case .idle, .done: break
            }
            if !m.ledger.pending.isEmpty { return true }
            guard m.inProfile, fingers >= m.fingers.lowerBound,
                m.filter.accepts(device: device, start: frame.centroidNormalised)
            else { continue }
            if let edge = m.filter.edge, edge.at == .start {
                // The first finger that landed, as `FirstFinger.start` takes it.
                if landing == nil { landing = frame.touches.first { $0.phase == .began }?.position ?? .zero }
                if !edge.mayStart(at: landing!, in: frame.areaMM) { continue }
            }
            return true
        }
        return false
    }

    /// The earliest time at which some recognizer needs `advance(to:)`.
    public var nextDeadline: EventTime? {
        if deadlineKnown { return deadlineCache }
        deadlineScans &+= 1
        var best: EventTime?
        for i in roster.indices {
            if let d = deadline(of: i), best == nil || d < best! { best = d }
        }
        deadlineCache = best
        deadlineKnown = true
        return best
    }

    /// Member `i`'s recognizer's deadline, if it is one the arena fires: the
    /// member is possible or active.
    @inline(__always)
    private func deadline(of i: Int) -> EventTime? {
        roster[i]._withUnsafeGuaranteedRef { m in
            m.ledger.tag == .possible || m.ledger.tag == .active ? m.deadline : nil
        }
    }

    /// Fires every deadline up to `time`, in deadline order.
    public func advance(to time: EventTime, into events: inout [GestureEvent]) {
        guard let first = nextDeadline, first <= time else { return }
        deadlineKnown = false
        while true {
            var pick: (index: Int, at: EventTime)?
            for i in roster.indices {
                if let d = deadline(of: i), d <= time, pick == nil || d < pick!.at { pick = (i, d) }
            }
            guard let (i, at) = pick else {
                assert(ledgerViolation() == nil, ledgerViolation() ?? "")
                return
            }
            quiet.time = at
            dispatch(i, .timeout(at), quiet, into: &events)
            if members[i].ledger.tag == .possible || members[i].ledger.tag == .active,
                let d = members[i].deadline, d <= at
            {
                // A recognizer that does not move its deadline would spin here.
                bug("\(members[i].name): its timer at \(at) did not advance", at: at)
                fail(i, .arena(.timerDidNotAdvance(at)), at: at, into: &events)
            }
        }
    }

    /// Delivers one frame to every recognizer taking part in its sequence.
    public func handle(_ frame: borrowing TouchFrame, into events: inout [GestureEvent]) {
        advance(to: frame.time, into: &events)
        let starts = !sequenceLive && frame.began
        if starts { startSequence(frame) }
        if hasEdgeFilters && firstFinger.update(frame) {
            deadlineKnown = false
            judgeStarts(at: frame.time, into: &events)
        }
        let input = TouchInput(frame, maxFingersBefore: sequenceMaxFingers)
        // Neither the sequence's first frame nor its last, and no touch
        // cancelled: those that skip moves only follow the motion on it, fingers
        // landing and lifting included (`FollowsMotion.decidesOnlyAtEnds`). The
        // shared rules fail them on it only for more fingers than they take,
        // which is new only when the most fingers down grows: then those given
        // it are the others and the ones it leaves with too many fingers.
        let between = !starts && !input.isLast && input.change != .cancel
        let grew = input.maxFingers > sequenceMaxFingers
        sequenceMaxFingers = input.maxFingers
        for m in motions { m.step(frame) }
        lastLocation = frame.centroid
        lastNormalised = frame.centroidNormalised
        lastFingers = max(input.fingers, frame.touches.count == 0 ? 0 : 1)
        quiet.areaMM = frame.areaMM
        if between && !grew {
            for i in movers where takesPart(i) { dispatch(i, .frame(input), frame, into: &events) }
        } else if between {
            for i in roster.indices where takesPart(i) && !skips(i, withFingers: input.maxFingers) {
                dispatch(i, .frame(input), frame, into: &events)
            }
        } else {
            for i in roster.indices where takesPart(i) { dispatch(i, .frame(input), frame, into: &events) }
        }
        if input.isLast && sequenceLive {
            deadlineKnown = false
            sequenceLive = false
            // Most decided on this frame: only those still taking part are looked at.
            for i in roster.indices where takesPart(i) {
                if members[i].ledger.tag == .active {
                    // A continuous gesture must end when its touches are gone.
                    members[i].ledger.status = .done(.cancelled)
                    emit(
                        i, .cancelled, at: frame.time, report: nil, reason: .arena(.touchesEndedWhileActive),
                        into: &events)
                } else if members[i].ledger.tag == .possible && members[i].deadline == nil {
                    fail(i, .arena(.liftedBeforeComplete), at: frame.time, into: &events)
                }
            }
        } else if input.fingers > 0 {
            sequenceLive = true
        }
        assert(ledgerViolation() == nil, ledgerViolation() ?? "")
    }

    /// Member `i` skips moves and takes `fingers` fingers: a frame between the
    /// first and the last of its sequence changes nothing it decides.
    @inline(__always)
    private func skips(_ i: Int, withFingers fingers: Int) -> Bool {
        roster[i]._withUnsafeGuaranteedRef { $0.skipsMoves && fingers <= $0.fingers.upperBound }
    }

    /// Member `i` takes part in the current sequence and has not decided it.
    @inline(__always)
    private func takesPart(_ i: Int) -> Bool {
        let sequence = sequence
        return roster[i]._withUnsafeGuaranteedRef { m in
            m.ledger.sequence == sequence
                && (m.ledger.tag == .possible || m.ledger.tag == .active || m.ledger.tag == .held)
        }
    }

    /// Cancels everything in flight (device removed, config reloaded, daemon stopping).
    public func cancelAll(at time: EventTime, because teardown: Teardown, into events: inout [GestureEvent]) {
        let reason = Reason.teardown(teardown)
        deadlineKnown = false
        for i in members.indices {
            switch members[i].ledger.status {
            case .active:
                members[i].ledger.status = .done(.cancelled)
                emit(i, .cancelled, at: time, report: nil, reason: reason, into: &events)
            case .possible, .held:
                members[i].ledger.status = .done(.failed)
                emit(i, .failed, at: time, report: nil, reason: reason, into: &events)
            case .idle, .done:
                break
            }
            for _ in members[i].ledger.pending {
                emit(i, .failed, at: time, report: nil, reason: reason, into: &events)
            }
            members[i].recognizer.reset()
            members[i].deadline = members[i].recognizer.deadline
            members[i].ledger.clear(at: sequence)
        }
        sequenceLive = false
        assert(ledgerViolation() == nil, ledgerViolation() ?? "")
    }

    // MARK: - The dispatcher

    /// Every event a recognizer gets comes through here: the rules every
    /// recognizer shares are applied first (a cancelled touch; more fingers than
    /// it takes, or fewer than it needs at the last lift, while it is possible),
    /// then the recognizer's own machine; the arena applies what it proposes.
    private func dispatch(
        _ i: Int, _ event: RecognizerEvent, _ frame: borrowing TouchFrame,
        into events: inout [GestureEvent]
    ) {
        roster[i]._withUnsafeGuaranteedRef { dispatch($0, i, event, frame, into: &events) }
    }

    private func dispatch(
        _ m: Member, _ i: Int, _ event: RecognizerEvent, _ frame: borrowing TouchFrame,
        into events: inout [GestureEvent]
    ) {
        let r = m.recognizer
        let traced = m.traced
        let before = traced ? r.stateDescription : ""
        var shared = false
        let p: Proposal
        dispatched &+= 1
        if case .frame(let input) = event, let rule = sharedRule(m, input, frame) {
            p = rule
            shared = true
        } else {
            let had = m.deadline
            p = r.handle(event, frame)
            m.deadline = r.deadline
            if m.deadline != had { deadlineKnown = false }
        }
        if case .none = p {
            // Nothing to apply: the member's status, and so the earliest deadline, stay.
            if !traced { return }
        } else {
            deadlineKnown = false
        }
        if traced {
            if shared {
                // The rule decided, not the recognizer: the line says what became of it.
                let outcome = members[i].ledger.tag == .active ? "cancelled" : "failed"
                trace("\(members[i].name): \(before) → \(event) → \(outcome)\(Self.summary(p))", at: frame.time)
                outcomeTraced = true
            } else {
                let after = r.stateDescription
                if before != after || !Self.isQuiet(p) {
                    trace("\(members[i].name): \(before) → \(event) → \(after)\(Self.summary(p))", at: frame.time)
                }
            }
        }
        apply(p, to: i, at: frame.time, into: &events)
        if traced { outcomeTraced = false }
    }

    private func sharedRule(_ m: Member, _ input: TouchInput, _ frame: borrowing TouchFrame) -> Proposal? {
        let tag = m.ledger.tag
        if input.change == .cancel {
            let reason = Reason(cancelled: frame.cancelCause ?? .lost)
            return tag == .active ? .cancel(reason) : .fail(reason)
        }
        guard tag == .possible else { return nil }
        let allowed = m.fingers
        if input.maxFingers > allowed.upperBound || (input.isLast && input.maxFingers < allowed.lowerBound) {
            return .fail(.fingers(input.maxFingers, allowed: allowed, kind: m.kind))
        }
        return nil
    }

    private static func isQuiet(_ p: Proposal) -> Bool {
        switch p {
        case .none, .change: true
        case .begin, .end, .recognize, .fail, .cancel: false
        }
    }

    private static func summary(_ p: Proposal) -> String {
        switch p {
        case .none, .change: ""
        case .begin: ": proposes to begin"
        case .end: ": proposes to end"
        case .recognize: ": proposes to be recognized"
        case .fail(let r), .cancel(let r): " (\(r))"
        }
    }

    // MARK: - Rules

    private func startSequence(_ frame: borrowing TouchFrame) {
        deadlineKnown = false
        sequence &+= 1
        sequenceLive = true
        sequenceMaxFingers = 0
        let start = frame.centroidNormalised
        area = frame.areaMM
        if hasEdgeFilters { firstFinger.start(frame) }
        for m in motions { m.restart() }
        let sequence = sequence, landing = firstFinger.landing, area = area, time = frame.time
        for i in roster.indices {
            // Each member read in place through the roster (no reference counting).
            roster[i]._withUnsafeGuaranteedRef { m in
                var accepts = m.inProfile && m.onDevice && m.filter.takes(start: start)
                if accepts, let edge = m.startEdge {
                    // Landed too far in to have started at the edge, however fast.
                    accepts = edge.mayStart(at: landing, in: area)
                }
                guard case .fresh(let kept) = m.ledger.start(sequence, takesPart: accepts) else { return }
                if let kept, m.traced { trace("\(m.name): held decision kept for sequence \(kept)", at: time) }
                m.recognizer.reset()
                m.deadline = m.recognizer.deadline
            }
        }
    }

    /// Applies what a recognizer proposes, in its status. A proposal its status
    /// forbids (a change before a begin, anything after it decided) is a bug in
    /// that recognizer: logged and dropped.
    private func apply(_ p: Proposal, to i: Int, at time: EventTime, into events: inout [GestureEvent]) {
        switch p {
        case .none:
            return
        case .fail(let reason):
            switch members[i].ledger.tag {
            case .possible, .held: fail(i, reason, at: time, into: &events)
            case .active, .idle, .done: forbidden(p, i, at: time)
            }
        case .cancel(let reason):
            switch members[i].ledger.tag {
            case .possible, .held:
                fail(i, reason, at: time, into: &events)
            case .active:
                members[i].ledger.status = .done(.cancelled)
                emit(i, .cancelled, at: time, report: nil, reason: reason, into: &events)
            case .idle, .done:
                forbidden(p, i, at: time)
            }
        case .begin(let r), .recognize(let r):
            let discrete: Bool = if case .recognize = p { true } else { false }
            switch members[i].ledger.status {
            case .possible: transition(i, Held(report: r, discrete: discrete), at: time, into: &events)
            case .held(var h):
                h.report = r
                members[i].ledger.status = .held(h)
            case .active, .idle, .done: forbidden(p, i, at: time)
            }
        case .change(let r):
            switch members[i].ledger.status {
            case .active: emit(i, .changed, at: time, report: r, reason: nil, into: &events)
            case .held(var h):
                h.report = r
                members[i].ledger.status = .held(h)
            case .possible, .idle, .done: forbidden(p, i, at: time)
            }
        case .end(let r):
            switch members[i].ledger.status {
            case .active:
                members[i].ledger.status = .done(.ended)
                emit(i, .ended, at: time, report: r, reason: nil, into: &events)
            case .held(var h):
                h.ended = r
                members[i].ledger.status = .held(h)
            case .possible, .idle, .done: forbidden(p, i, at: time)
            }
        }
    }

    /// A proposal the member's status forbids: a bug in its recognizer.
    private func forbidden(_ p: Proposal, _ i: Int, at time: EventTime) {
        bug(
            "\(members[i].name) (\(members[i].recognizer.kind.rawValue)) proposed \(Self.name(p)) while \(members[i].ledger.status); dropped",
            at: time)
    }

    private static func name(_ p: Proposal) -> String {
        switch p {
        case .none: "nothing"
        case .begin: "begin"
        case .change: "change"
        case .end: "end"
        case .recognize: "recognize"
        case .fail(let r): "fail (\(r))"
        case .cancel(let r): "cancel (\(r))"
        }
    }

    /// R wants to begin or be recognized: hold it for its requirements, refuse it
    /// if a gesture that began already prevents it, else commit it.
    private func transition(_ i: Int, _ h: Held, at time: EventTime, into events: inout [GestureEvent]) {
        if let miss = edgeMiss(i) {
            fail(i, .edge(miss), at: time, into: &events)
            return
        }
        for j in members[i].relations.requiresFailureOf where !standsAside(j, from: members[i].ledger.sequence) {
            members[i].ledger.status = .held(h)
            trace("\(members[i].name): possible → held (waits for \(members[j].name) to fail)", of: i, at: time)
            return
        }
        let s = members[i].ledger.sequence
        for j in roster.indices where j != i && isActive(j, in: s) && preventing(j, i) {
            fail(i, .arena(.prevented(by: members[j].name)), at: time, into: &events)
            return
        }
        // Released while the one that was recognized excludes it: a failure
        // that a recognition set off freed it.
        for j in roster.indices where j != i && isRecognized(j, in: s) && preventing(j, i) {
            fail(i, .arena(.excluded(by: members[j].name, began: false)), at: time, into: &events)
            return
        }
        commit(i, h, at: time, into: &events)
    }

    /// Member `j` was recognized (a discrete gesture) in sequence `s`.
    @inline(__always)
    private func isRecognized(_ j: Int, in s: UInt64) -> Bool {
        roster[j]._withUnsafeGuaranteedRef {
            $0.ledger.tag == .done && $0.ledger.sequence == s && $0.ledger.status == .done(.recognized)
        }
    }

    /// Member `j` began a continuous gesture in sequence `s` and has not ended it.
    @inline(__always)
    private func isActive(_ j: Int, in s: UInt64) -> Bool {
        roster[j]._withUnsafeGuaranteedRef { $0.ledger.tag == .active && $0.ledger.sequence == s }
    }

    /// Member `j` is still deciding (possible or held) about sequence `s`.
    @inline(__always)
    private func isUndecided(_ j: Int, in s: UInt64) -> Bool {
        roster[j]._withUnsafeGuaranteedRef { m in m.ledger.undecided && m.ledger.sequence == s }
    }

    private func preventing(_ a: Int, _ b: Int) -> Bool {
        roster[a]._withUnsafeGuaranteedRef { ma in
            roster[b]._withUnsafeGuaranteedRef { mb in
                !ma.simultaneous[b] && ma.relations.canPrevent && mb.relations.canBePrevented
            }
        }
    }

    private func commit(_ i: Int, _ h: Held, at time: EventTime, into events: inout [GestureEvent]) {
        if h.discrete {
            members[i].ledger.status = .done(.recognized)
            emit(i, .recognized, at: time, report: h.report, reason: nil, into: &events)
        } else {
            members[i].ledger.status = .active
            emit(i, .began, at: time, report: h.report, reason: nil, into: &events)
            if let end = h.ended {
                members[i].ledger.status = .done(.ended)
                emit(i, .ended, at: time, report: end, reason: nil, into: &events)
            }
        }
        let name = members[i].name
        let began = !h.discrete
        let s = members[i].ledger.sequence
        let from = members[i].ledger.decisionStart
        let excluded = Reason.arena(.excluded(by: name, began: began))
        // A decision that took in earlier sequences (a triple tap's first two
        // taps) excludes what others hold about them, and only about those it
        // took part in (not a tap elsewhere that its region left out). First,
        // so that a requirement failing below cannot release those.
        if from < s {
            for j in roster.indices where j != i && preventing(i, j) && !members[i].requiredBy.contains(j) {
                dropPending(of: j, because: excluded, at: time, into: &events) {
                    members[i].ledger.decisionTookPart(in: $0)
                }
            }
        }
        // Those that required this one to fail cannot happen now.
        for j in members[i].requiredBy {
            if members[j].ledger.undecided {
                fail(j, .arena(.requirementSucceeded(name, began: began)), at: time, into: &events)
            }
            dropPending(
                of: j, because: .arena(.requirementSucceeded(name, began: began)), at: time, into: &events
            ) { $0 >= from }
        }
        // Exclusion: the others still deciding about the same sequence. (One
        // that a failure above released is excluded as it is released:
        // `transition`.)
        for j in roster.indices where j != i && isUndecided(j, in: s) && preventing(i, j) {
            fail(j, excluded, at: time, into: &events)
        }
    }

    private func fail(_ i: Int, _ reason: Reason, at time: EventTime, into events: inout [GestureEvent]) {
        members[i].ledger.fail(at: sequence)
        emit(i, .failed, at: time, report: nil, reason: reason, into: &events)
        // Release those held only for this one, now or for an earlier sequence.
        for k in members[i].requiredBy {
            if case .held(let h) = members[k].ledger.status,
                members[k].relations.requiresFailureOf.allSatisfy({ standsAside($0, from: members[k].ledger.sequence) })
            {
                trace("\(members[k].name): held → released (\(members[i].name) failed)", of: k, at: time)
                members[k].ledger.status = .possible
                transition(k, h, at: time, into: &events)
            }
            releasePending(of: k, at: time, into: &events)
        }
    }

    /// Why member `i`'s sequence is not at the edge it wants, if it is not.
    private func edgeMiss(_ i: Int) -> EdgeMiss? {
        guard let edge = members[i].filter.edge, firstFinger.id != nil else { return nil }
        return firstFinger.judge(edge, in: area)
    }

    /// The first finger's first motion is known: those that want to start at an
    /// edge and did not fail now, freeing those that wait for them.
    private func judgeStarts(at time: EventTime, into events: inout [GestureEvent]) {
        for i in roster.indices {
            let miss: EdgeMiss? = roster[i]._withUnsafeGuaranteedRef { m in
                guard m.ledger.tag == .possible && m.ledger.sequence == sequence, let edge = m.startEdge else {
                    return nil
                }
                return firstFinger.judge(edge, in: area)
            }
            if let miss { fail(i, .edge(miss), at: time, into: &events) }
        }
    }

    /// Whether member `j` no longer stands in the way of sequence `s`.
    private func standsAside(_ j: Int, from s: UInt64) -> Bool {
        members[j].ledger.standsAside(from: s)
    }

    // MARK: - Invariants

    /// Times the ledgers were checked (debug builds: `assert` evaluates the check).
    private(set) var ledgerChecks = 0

    /// The first ledger invariant that does not hold, or nil (`Ledger` lists
    /// them). Asserted after every frame, timeout and teardown, so the tests run
    /// it; release builds do not evaluate it.
    func ledgerViolation() -> String? {
        ledgerChecks += 1
        for m in members {
            if let v = m.ledger.violation(now: sequence) { return "\(device): \(m.name): \(v)" }
            let requirements = m.relations.requiresFailureOf
            if requirements.isEmpty && (m.ledger.tag == .held || !m.ledger.pending.isEmpty) {
                return "\(device): \(m.name): holds a decision without requirements"
            }
            if m.ledger.tag == .held
                && requirements.allSatisfy({ members[$0].ledger.standsAside(from: m.ledger.sequence) })
            {
                return
                    "\(device): \(m.name): held for sequence \(m.ledger.sequence) though every requirement stands aside"
            }
        }
        return nil
    }

    /// Emits the held decisions of `k` about earlier sequences whose requirements
    /// have all failed for them. Exclusion does not apply: those sequences are over.
    private func releasePending(of k: Int, at time: EventTime, into events: inout [GestureEvent]) {
        var n = 0
        while n < members[k].ledger.pending.count {
            let p = members[k].ledger.pending[n]
            guard members[k].relations.requiresFailureOf.allSatisfy({ standsAside($0, from: p.sequence) }) else {
                n += 1
                continue
            }
            members[k].ledger.pending.remove(at: n)
            trace("\(members[k].name): held decision for sequence \(p.sequence) released", of: k, at: time)
            if p.held.discrete {
                emit(k, .recognized, at: time, report: p.held.report, reason: nil, into: &events)
            } else {
                emit(k, .began, at: time, report: p.held.report, reason: nil, into: &events)
                emit(
                    k, p.held.ended == nil ? .cancelled : .ended, at: time, report: p.held.ended,
                    reason: p.held.ended == nil ? .arena(.touchesGoneWhenReleased) : nil, into: &events)
            }
            let name = members[k].name
            for j in members[k].requiredBy {
                dropPending(
                    of: j, because: .arena(.requirementSucceeded(name, began: false)), at: time, into: &events
                ) { $0 <= p.sequence }
            }
        }
    }

    /// Fails the held decisions of `j` about the sequences `covered` takes.
    private func dropPending(
        of j: Int, because reason: Reason, at time: EventTime, into events: inout [GestureEvent],
        covered: (UInt64) -> Bool
    ) {
        guard !members[j].ledger.pending.isEmpty else { return }
        var n = 0
        while n < members[j].ledger.pending.count {
            if covered(members[j].ledger.pending[n].sequence) {
                members[j].ledger.pending.remove(at: n)
                emit(j, .failed, at: time, report: nil, reason: reason, into: &events)
            } else {
                n += 1
            }
        }
    }

    private func emit(
        _ i: Int, _ state: GestureState, at time: EventTime, report: Report?, reason: Reason?,
        into events: inout [GestureEvent]
    ) {
        let m = members[i]
        // Every frame of a pan is a change: the trace keeps to transitions.
        if m.traced && !outcomeTraced && state != .changed {
            trace("\(m.name): \(state.rawValue)\(reason.map { " (\($0))" } ?? "")", at: time)
        }
        if state == .failed && !emitsFailures { return }
        events.append(
            GestureEvent(
                name: m.name, kind: m.kind, state: state, time: time, device: device,
                fingers: report?.fingers ?? lastFingers, location: report?.location ?? lastLocation,
                locationNormalised: report?.locationNormalised ?? lastNormalised,
                detail: report?.detail ?? .none, reason: reason, edge: m.edgeName, step: report?.step))
    }

    // MARK: - Log

    private func trace(_ text: @autoclosure () -> String, of i: Int, at time: EventTime) {
        if members[i].traced { trace(text(), at: time) }
    }

    private func trace(_ text: String, at time: EventTime) {
        log?(ArenaLogEntry(kind: .trace, time: time, device: device, text: text))
    }

    /// Recognizer bugs logged per arena; past this they are only counted, so a
    /// bug that repeats on every frame cannot flood the journal.
    static let bugsLogged = 20

    private func bug(_ text: @autoclosure () -> String, at time: EventTime) {
        bugs += 1
        guard bugs <= Self.bugsLogged, let log else { return }
        let more = bugs == Self.bugsLogged ? " (further recognizer bugs on this device are counted, not logged)" : ""
        log(ArenaLogEntry(kind: .bug, time: time, device: device, text: text() + more))
    }
}
