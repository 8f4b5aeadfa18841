extension Arena {
    /// What the arena has decided about one member, across touch sequences: its
    /// require-to-fail ledger.
    ///
    /// The words, used the same way everywhere in the arena:
    /// - a **sequence** is one touch sequence, first finger down to last finger up,
    ///   numbered from 1 by the arena;
    /// - a **decision** is what the member's recognizer concludes about one or
    ///   more sequences (a multi-tap's decision spans several): its **status**;
    /// - a decision is **held** while it waits for the member's requirements
    ///   (`requires_failure_of`) to fail;
    /// - a held decision about an earlier sequence, kept while the recognizer
    ///   has moved on to the next one, is **pending**;
    /// - a member **stands aside** from a sequence once its decisions about it
    ///   have failed or it sat it out; those requiring it may then go ahead.
    ///
    /// Invariants (`violation(now:)` states them as checks; the arena asserts
    /// them after every frame, timeout and teardown in debug builds):
    /// 1. `tag` is `status` without its data;
    /// 2. `decisionStart ≤ sequence ≤ now` and `failedThrough ≤ now`, where `now`
    ///    is the arena's latest sequence;
    /// 3. an idle or failed member stands aside from its sequence
    ///    (`failedThrough ≥ sequence`);
    /// 4. pending decisions are in increasing sequence order, all before the
    ///    current decision (`< decisionStart`).
    /// The arena adds the two that need the other members (`Arena.ledgerViolation`):
    /// 5. only a member with requirements holds or keeps pending decisions;
    /// 6. a held member waits for at least one requirement that has not stood
    ///    aside from its sequence (else it would have been released).
    struct Ledger {
        /// Where the member stands in its current decision. Setting it keeps `tag`
        /// in step from the value set: the status that was is not read (a held
        /// status carries its report, and copying it out to read its tag costs).
        var status: Status {
            get { current }
            set {
                tag = newValue.tag
                current = newValue
            }
        }
        private var current: Status = .idle
        /// `status` without its data: what the per-frame path looks at, cheap to read.
        private(set) var tag = Status.Tag.idle
        /// Possible or held: its decision about its sequence is still to come.
        var undecided: Bool { tag == .possible || tag == .held }
        /// The latest sequence it takes part in.
        var sequence: UInt64 = 0
        /// The first sequence its current decision is about.
        var decisionStart: UInt64 = 0
        /// The sequences its current decision took part in, bit k for
        /// `decisionStart + k` (a multi-tap goes on across sequences its filter
        /// did not take: those are not its).
        var decisionTookPart: UInt64 = 0
        /// It stands aside from every sequence up to this one.
        var failedThrough: UInt64 = 0
        /// Held decisions about earlier sequences, oldest first.
        var pending: [Pending] = []

        /// Whether it no longer stands in the way of sequence `s`: its decisions
        /// about it failed, or it sat it out.
        func standsAside(from s: UInt64) -> Bool {
            failedThrough >= s || (tag == .idle && sequence >= s)
        }

        /// Whether its current decision took part in sequence `s`.
        func decisionTookPart(in s: UInt64) -> Bool {
            s >= decisionStart && s - decisionStart < 64 && (decisionTookPart >> (s - decisionStart)) & 1 == 1
        }

        /// Its current decision failed at sequence `now`. Failed for every
        /// sequence up to `now`: a multi-tap still deciding about an earlier
        /// sequence sat out those since (its filter or profile did not take
        /// them), so it stands in the way of none of them.
        mutating func fail(at now: UInt64) {
            status = .done(.failed)
            failedThrough = now
        }

        /// What became of a member when a sequence started.
        enum Start {
            /// Still deciding across sequences (a multi-tap inside its window):
            /// its recognizer keeps its state.
            case goesOn
            /// A fresh decision; `kept` is the sequence of the held decision
            /// that became pending, if there was one.
            case fresh(kept: UInt64?)
        }

        /// Sequence `s` starts; `takesPart`: the member's filter and profile accept it.
        mutating func start(_ s: UInt64, takesPart: Bool) -> Start {
            var kept: UInt64?
            // By the tag: most members are idle or done at a start, and their
            // status need not be copied out to be told so.
            switch tag {
            case .possible:
                if takesPart {
                    sequence = s
                    if s - decisionStart < 64 { decisionTookPart |= 1 << (s - decisionStart) }
                }
                return .goesOn
            case .held:
                // Its decision about the last sequence waits on; the recognizer
                // itself is free to watch this one.
                if case .held(let h) = current { pending.append(Pending(held: h, sequence: sequence)) }
                kept = sequence
            case .idle, .done, .active:
                break
            }
            decisionStart = s
            decisionTookPart = takesPart ? 1 : 0
            sequence = s
            if takesPart {
                status = .possible
            } else {
                status = .idle
                failedThrough = s
            }
            return .fresh(kept: kept)
        }

        /// Everything is torn down at sequence `now`: it decides nothing and
        /// stands aside from every sequence so far.
        mutating func clear(at now: UInt64) {
            pending.removeAll()
            status = .idle
            failedThrough = now
        }

        /// The first of its own invariants (1–4 above) that does not hold, or nil.
        func violation(now: UInt64) -> String? {
            if tag != status.tag { return "tag \(tag) does not match status \(status)" }
            if decisionStart > sequence {
                return "decision starts at sequence \(decisionStart), after its sequence \(sequence)"
            }
            if sequence > now { return "sequence \(sequence) is after the arena's \(now)" }
            if failedThrough > now { return "failed through sequence \(failedThrough), after the arena's \(now)" }
            if (tag == .idle || status == .done(.failed)) && failedThrough < sequence {
                return "\(status) but failed only through sequence \(failedThrough) of \(sequence)"
            }
            var previous: UInt64 = 0
            for p in pending {
                if p.sequence <= previous { return "pending decisions out of order at sequence \(p.sequence)" }
                if p.sequence >= decisionStart {
                    return "pending decision for sequence \(p.sequence), not before its decision at \(decisionStart)"
                }
                previous = p.sequence
            }
            return nil
        }
    }

    enum Status: Equatable, CustomStringConvertible {
        /// Not taking part in the current sequence.
        case idle
        case possible
        /// Wants to begin or be recognized; waits for its requirements to fail.
        case held(Held)
        /// A continuous gesture that began.
        case active
        case done(GestureState)

        /// A status without its data.
        enum Tag: UInt8 { case idle, possible, held, active, done }

        var tag: Tag {
            switch self {
            case .idle: .idle
            case .possible: .possible
            case .held: .held
            case .active: .active
            case .done: .done
            }
        }

        var description: String {
            switch self {
            case .idle: "idle"
            case .possible: "possible"
            case .held: "held"
            case .active: "active"
            case .done(let s): s.rawValue
            }
        }
    }

    /// A held decision about an earlier sequence.
    struct Pending: Equatable {
        var held: Held
        var sequence: UInt64
    }

    struct Held: Equatable {
        var report: Report
        /// True for a discrete recognition; false for a continuous begin.
        var discrete: Bool
        /// A continuous gesture that also ended while held.
        var ended: Report?
    }
}
