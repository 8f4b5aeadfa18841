import FoundationEssentials
import GestureCore

/// Leave-one-subject-out: for each subject, pick the circle and checkmark
/// parameters on the other subjects' strokes only, then measure on the one left
/// out. If the held-out figures match the ones tuned on everything, the
/// parameters describe the shape, not these people.
///
/// The choice on the training subjects is mechanical: among a grid of the two
/// parameters that trade recall against false accepts most (circle: `tolerance`
/// × `max_corner_share`; checkmark: `min_arm_ratio` × `min_rise_ratio`), the
/// highest recall whose false accepts stay within a budget (by default half the
/// 0.5 % target, for margin); on a tie,
/// fewer false accepts, then the middle of the tied candidates (the middle of the
/// range that works, for margin on both sides).
public struct LeaveOneSubjectOut: Sendable, Codable {
    public struct Fold: Sendable, Codable {
        public var heldOut: String
        public var chosen: String
        public var training: Tally
        public var heldOutTally: Tally
        /// The held-out subject's own-class strokes the chosen parameters missed,
        /// each with the recognizer's reason ("FILE: REASON").
        public var missed: [String] = []
        /// The held-out subject's other strokes the chosen parameters accepted ("FILE (CLASS)").
        public var falselyAccepted: [String] = []
    }
    public struct Study: Sendable, Codable {
        public var recognizer: String
        public var kind: String
        public var grid: [String]
        public var folds: [Fold]
        /// The held-out tallies added up: every stroke judged by parameters tuned without its subject.
        public var pooled: Tally
    }

    public var studies: [Study]
    /// False accepts allowed on the training subjects when choosing, as a fraction.
    public var falseAcceptBudget: Double

    public static let defaultFalseAcceptBudget = 0.0025

    public static func run(
        items: [CorpusItem], configuration: Configuration, pxPerMM: Double,
        falseAcceptBudget: Double = defaultFalseAcceptBudget
    ) -> LeaveOneSubjectOut {
        let subjects = Set(items.map(\.subject)).sorted()
        var studies: [Study] = []
        for (index, r) in configuration.recognizers.enumerated() {
            let grid: [(String, RecognizerParameters)]
            switch r.parameters {
            case .circle(let base):
                grid = [0.15, 0.2, 0.25].flatMap { tol in
                    [0.45, 0.5, 0.55, 0.6, 0.65].map { share in
                        var p = base
                        p.tolerance = tol
                        p.maxCornerShare = share
                        return (
                            "tolerance \(formatFixed(tol, decimals: 2)), max_corner_share \(formatFixed(share, decimals: 2))",
                            .circle(p)
                        )
                    }
                }
            case .checkmark(let base):
                grid = [1.2, 1.3, 1.4, 1.5, 1.6].flatMap { arm in
                    [1.2, 1.35, 1.5, 1.65, 1.8].map { rise in
                        var p = base
                        p.minArmRatio = arm
                        p.minRiseRatio = rise
                        return (
                            "min_arm_ratio \(formatFixed(arm, decimals: 2)), min_rise_ratio \(formatFixed(rise, decimals: 2))",
                            .checkmark(p)
                        )
                    }
                }
            default:
                continue
            }
            let own = Set(items.map(\.label).filter { Corpus.kind(ofClass: $0) == r.kind })
            guard !own.isEmpty else { continue }
            // accepted[g][i]: did candidate g accept item i.
            var accepted: [[Bool]] = []
            var evaluators: [Evaluator] = []
            for (_, params) in grid {
                var c = configuration
                c.recognizers[index].parameters = params
                let evaluator = Evaluator(configuration: c, pxPerMM: pxPerMM)
                evaluators.append(evaluator)
                accepted.append(items.map { (try? evaluator.outcome(of: $0))?.accepted.contains(r.name) ?? false })
            }
            func tally(_ g: Int, _ keep: (CorpusItem) -> Bool) -> Tally {
                var t = Tally()
                for (i, item) in items.enumerated() where keep(item) {
                    let positive = own.contains(item.label)
                    if item.mirrored && !positive { continue }
                    if positive {
                        t.positives += 1
                        if accepted[g][i] { t.hits += 1 }
                    } else {
                        t.negatives += 1
                        if accepted[g][i] { t.falseAccepts += 1 }
                    }
                }
                return t
            }
            var folds: [Fold] = []
            var pooled = Tally()
            for s in subjects {
                let trainings = grid.indices.map { tally($0) { $0.subject != s } }
                let allowed = grid.indices.filter { trainings[$0].falseAcceptRate <= falseAcceptBudget }
                let pool = allowed.isEmpty ? Array(grid.indices) : allowed
                let bestRecall = pool.map { trainings[$0].recall }.max() ?? 0
                let byRecall = pool.filter { trainings[$0].recall == bestRecall }
                let fewest = byRecall.map { trainings[$0].falseAccepts }.min() ?? 0
                let tied = byRecall.filter { trainings[$0].falseAccepts == fewest }
                let g = tied[tied.count / 2]
                let held = tally(g) { $0.subject == s }
                pooled.positives += held.positives
                pooled.hits += held.hits
                pooled.negatives += held.negatives
                pooled.falseAccepts += held.falseAccepts
                var fold = Fold(heldOut: s, chosen: grid[g].0, training: trainings[g], heldOutTally: held)
                for (i, item) in items.enumerated() where item.subject == s {
                    let positive = own.contains(item.label)
                    if positive && !accepted[g][i] {
                        let reason = (try? evaluators[g].outcome(of: item))?.reasons[r.name]
                        fold.missed.append("\(item.source): \(reason?.description ?? "not recognized")")
                    } else if !positive && !item.mirrored && accepted[g][i] {
                        fold.falselyAccepted.append("\(item.source) (\(item.label))")
                    }
                }
                folds.append(fold)
            }
            studies.append(
                Study(recognizer: r.name, kind: r.kind.rawValue, grid: grid.map(\.0), folds: folds, pooled: pooled))
        }
        return LeaveOneSubjectOut(studies: studies, falseAcceptBudget: falseAcceptBudget)
    }

    /// The folds' tables; with `details`, under each held-out subject the strokes
    /// its chosen parameters missed (with the reason) and falsely accepted.
    public func text(details: Bool = false) -> String {
        var out =
            "Leave one subject out: parameters chosen on the other subjects (highest recall with false accepts ≤ \(formatFixed(falseAcceptBudget * 100, decimals: 2))% there), measured on the one left out\n"
        for s in studies {
            out += "\n\(s.recognizer) (\(s.kind)), \(s.grid.count) candidates\n"
            out +=
                "  " + AccuracyReport.pad("held out", 10) + AccuracyReport.pad("chosen on the others", 48)
                + AccuracyReport.pad("recall", 18, right: true) + AccuracyReport.pad("false accepts", 18, right: true)
                + "\n"
            for f in s.folds {
                let t = f.heldOutTally
                out +=
                    "  " + AccuracyReport.pad(f.heldOut, 10) + AccuracyReport.pad(f.chosen, 48)
                    + AccuracyReport.pad(
                        "\(t.hits)/\(t.positives) \(AccuracyReport.percent(t.recall))", 18, right: true)
                    + AccuracyReport.pad(
                        "\(t.falseAccepts)/\(t.negatives) \(AccuracyReport.percent(t.falseAcceptRate))", 18, right: true
                    ) + "\n"
                if details {
                    for m in f.missed { out += "    missed: \(m)\n" }
                    for a in f.falselyAccepted { out += "    false accept: \(a)\n" }
                }
            }
            let p = s.pooled
            out +=
                "  " + AccuracyReport.pad("pooled", 58)
                + AccuracyReport.pad("\(p.hits)/\(p.positives) \(AccuracyReport.percent(p.recall))", 18, right: true)
                + AccuracyReport.pad(
                    "\(p.falseAccepts)/\(p.negatives) \(AccuracyReport.percent(p.falseAcceptRate))", 18, right: true)
                + "\n"
        }
        return out
    }

    public func json() throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        e.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "null")
        return String(decoding: try e.encode(self), as: UTF8.self)
    }
}
