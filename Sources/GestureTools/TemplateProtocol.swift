import FoundationEssentials
import GestureCore

/// How a `shape` recognizer taught by a person does for that person: the
/// user-dependent protocol of the $1 paper (Wobbrock, Wilson & Li, UIST 2007),
/// with rejection added.
///
/// For each subject and each class of stroke, `n` of that subject's strokes of
/// the class are drawn at random as the examples; the subject's other strokes of
/// the class should be recognized (recall) and every stroke of the subject's
/// other classes should not (false accepts). Each draw is repeated `draws` times
/// from a fixed seed. A stroke is judged as the recognizer judges it at lift:
/// long enough (`min_length_mm`), quick enough (`max_duration_ms`), and its
/// closest example within `max_distance` scaled by the examples' spread (by
/// `ShapeMatcher`, the recognizer's own matcher; a test checks that the arena
/// decides the same).
///
/// `max_distance` is also chosen leave-one-subject-out: on the other subjects'
/// draws with `losoExamples` examples, the largest recall whose false accepts
/// stay within the budget (on a tie, the smaller distance), then measured on the
/// subject left out.
public struct TemplateProtocol: Sendable, Codable {
    public struct Row: Sendable, Codable {
        public var subject: String
        public var examples: Int
        public var tally: Tally
    }
    public struct Fold: Sendable, Codable {
        public var heldOut: String
        public var chosenMaxDistance: Double
        public var training: Tally
        public var heldOutTally: Tally
    }

    public var maxDistance: Double
    public var orientation: String
    public var direction: String
    public var draws: Int
    public var seed: UInt64
    public var rows: [Row]
    /// Per class, with `losoExamples` examples, all subjects: which classes are hard.
    public var byClass: [String: Tally]
    public var losoExamples: Int
    public var falseAcceptBudget: Double
    public var folds: [Fold]
    public var losoPooled: Tally
    /// The same choice made on every subject: what the default `max_distance` is set from.
    public var chosenOnAll: Double

    /// One subject's strokes, with every stroke's distance to every other.
    struct Subject {
        var name: String
        var labels: [String]
        /// Whether the recognizer would look at the stroke at all (length, duration).
        var eligible: [Bool]
        /// distance[i][j]: stroke i matched against stroke j as the example.
        var distance: [[Double]]
    }

    /// One draw's outcome: per test stroke, its distance to the closest example
    /// divided by the bound's scale for the examples drawn, to be compared with
    /// `max_distance` (`.infinity` when the recognizer would not match it at all).
    struct Trial {
        var subject: Int
        var label: String
        var positives: [Double]
        var negatives: [Double]
    }

    public static func run(
        items: [CorpusItem], parameters: ShapeRecognizer.Parameters, pxPerMM: Double,
        exampleCounts: [Int] = [1, 3, 5], draws: Int = 10, seed: UInt64 = 1, losoExamples: Int = 3,
        falseAcceptBudget: Double = LeaveOneSubjectOut.defaultFalseAcceptBudget
    ) -> TemplateProtocol {
        let subjects = prepare(items: items, parameters: parameters, pxPerMM: pxPerMM)
        var trialsByCount: [Int: [Trial]] = [:]
        for n in Set(exampleCounts + [losoExamples]) {
            trialsByCount[n] = trials(subjects, examples: n, draws: draws, seed: seed)
        }
        var rows: [Row] = []
        for n in exampleCounts {
            let trials = trialsByCount[n] ?? []
            for (i, s) in subjects.enumerated() {
                let own = trials.filter { $0.subject == i }
                rows.append(Row(subject: s.name, examples: n, tally: tally(own, parameters.maxDistance)))
            }
            rows.append(Row(subject: "all", examples: n, tally: tally(trials, parameters.maxDistance)))
        }
        let loso = trialsByCount[losoExamples] ?? []
        var byClass: [String: Tally] = [:]
        for label in Set(loso.map(\.label)) {
            byClass[label] = tally(loso.filter { $0.label == label }, parameters.maxDistance)
        }
        var folds: [Fold] = []
        var pooled = Tally()
        for (i, s) in subjects.enumerated() where subjects.count > 1 {
            let training = loso.filter { $0.subject != i }
            let held = loso.filter { $0.subject == i }
            let chosen = choose(training, budget: falseAcceptBudget)
            let h = tally(held, chosen)
            folds.append(
                Fold(heldOut: s.name, chosenMaxDistance: chosen, training: tally(training, chosen), heldOutTally: h))
            pooled.positives += h.positives
            pooled.hits += h.hits
            pooled.negatives += h.negatives
            pooled.falseAccepts += h.falseAccepts
        }
        return TemplateProtocol(
            maxDistance: parameters.maxDistance, orientation: parameters.orientation.rawValue,
            direction: parameters.direction.rawValue, draws: draws, seed: seed, rows: rows, byClass: byClass,
            losoExamples: losoExamples, falseAcceptBudget: falseAcceptBudget, folds: folds, losoPooled: pooled,
            chosenOnAll: choose(loso, budget: falseAcceptBudget))
    }

    /// The subjects' strokes in mm, and every pair's distance.
    static func prepare(items: [CorpusItem], parameters: ShapeRecognizer.Parameters, pxPerMM: Double) -> [Subject] {
        var bySubject: [String: [LabelledStroke]] = [:]
        for item in items where !item.mirrored {
            guard case .stroke(let s) = item.input else { continue }
            bySubject[item.subject, default: []].append(s)
        }
        return bySubject.keys.sorted().map { name in
            let strokes = bySubject[name] ?? []
            let mm = strokes.map { s in s.points.map { Point(x: $0.x / pxPerMM, y: $0.y / pxPerMM) } }
            let eligible = zip(strokes, mm).map { s, p in
                var length = 0.0
                for k in p.indices.dropFirst() { length += p[k].distance(to: p[k - 1]) }
                let took = (s.times.last ?? 0) - (s.times.first ?? 0)
                return length >= parameters.minLengthMM && took <= parameters.maxDuration.value
            }
            let distance = ShapeMatcher.distanceTable(mm, options: parameters.matcherOptions).map {
                $0 ?? [Double](repeating: .infinity, count: mm.count)
            }
            return Subject(name: name, labels: strokes.map(\.label), eligible: eligible, distance: distance)
        }
    }

    static func trials(_ subjects: [Subject], examples n: Int, draws: Int, seed: UInt64) -> [Trial] {
        var out: [Trial] = []
        for (si, s) in subjects.enumerated() {
            for label in Set(s.labels).sorted() {
                let own = s.labels.indices.filter { s.labels[$0] == label }
                guard own.count > n else { continue }
                var rng = SplitMix64(seed: seed &+ UInt64(si) &* 1_000_003 &+ UInt64(n) &* 7919 &+ stableHash(label))
                for _ in 0..<draws {
                    var pool = own
                    var chosen: [Int] = []
                    for _ in 0..<n { chosen.append(pool.remove(at: Int(rng.next() % UInt64(pool.count)))) }
                    // The spread of the examples drawn, as the matcher finds it when taught them.
                    let nearest = chosen.map { j in
                        chosen.filter { $0 != j }.map { s.distance[j][$0] }.min() ?? .infinity
                    }
                    let scale = ShapeMatcher.boundScale(spread: ShapeMatcher.spread(nearest: n >= 2 ? nearest : []))
                    func closest(_ i: Int) -> Double {
                        guard s.eligible[i] else { return .infinity }
                        var best = Double.infinity
                        for j in chosen { best = min(best, s.distance[i][j]) }
                        return best / scale
                    }
                    let negatives = s.labels.indices.filter { s.labels[$0] != label }
                    out.append(
                        Trial(
                            subject: si, label: label, positives: pool.map(closest), negatives: negatives.map(closest)))
                }
            }
        }
        return out
    }

    /// FNV-1a of the label: the same draw for a class on every run and machine.
    static func stableHash(_ s: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in s.utf8 {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        return h
    }

    static func tally(_ trials: [Trial], _ maxDistance: Double) -> Tally {
        var t = Tally()
        for trial in trials {
            t.positives += trial.positives.count
            t.hits += trial.positives.filter { $0 <= maxDistance }.count
            t.negatives += trial.negatives.count
            t.falseAccepts += trial.negatives.filter { $0 <= maxDistance }.count
        }
        return t
    }

    /// The `max_distance` on a grid of 0.01 up to 2 with the highest recall whose
    /// false accepts stay within `budget`; on a tie, the smallest.
    static func choose(_ trials: [Trial], budget: Double) -> Double {
        var best = 0.0, bestRecall = -1.0
        var d = 0.01
        while d <= 2.0 {
            let t = tally(trials, d)
            if t.falseAcceptRate <= budget && t.recall > bestRecall {
                best = d
                bestRecall = t.recall
            }
            d = (d * 100 + 1).rounded() / 100
        }
        return best
    }

    public func text() -> String {
        var out =
            "template protocol: per subject and class, N of the subject's strokes as examples, "
            + "the rest of the class as positives, the subject's other classes as negatives; "
            + "\(draws) draws (seed \(seed)); orientation \(orientation), direction \(direction), "
            + "max_distance \(formatFixed(maxDistance, decimals: 2))\n"
        for n in Set(rows.map(\.examples)).sorted() {
            out += "\n\(n) example\(n == 1 ? "" : "s"):\n"
            out += "  subject           recall          false accepts\n"
            for r in rows where r.examples == n {
                out += "  " + pad(r.subject, 8) + Self.cells(r.tally) + "\n"
            }
        }
        out += "\nby class, \(losoExamples) examples:\n"
        for label in byClass.keys.sorted() {
            out += "  " + pad(label, 18) + Self.cells(byClass[label]!) + "\n"
        }
        if !folds.isEmpty {
            out +=
                "\nleave one subject out, \(losoExamples) examples: max_distance chosen on the others "
                + "(highest recall with false accepts ≤ \(formatFixed(falseAcceptBudget * 100, decimals: 2)) %), "
                + "measured on the one left out\n"
            out += "  held out  chosen    recall          false accepts\n"
            for f in folds {
                out +=
                    "  " + pad(f.heldOut, 8) + "  " + formatFixed(f.chosenMaxDistance, decimals: 2) + "  "
                    + Self.cells(f.heldOutTally) + "\n"
            }
            out += "  pooled          " + Self.cells(losoPooled) + "\n"
            out += "  chosen the same way on every subject: max_distance \(formatFixed(chosenOnAll, decimals: 2))\n"
        }
        return out
    }

    static func cells(_ t: Tally) -> String {
        let r = "\(t.hits)/\(t.positives)"
        let f = "\(t.falseAccepts)/\(t.negatives)"
        return pad(r, 11, left: true) + pad(formatFixed(t.recall * 100, decimals: 1) + "%", 8, left: true)
            + pad(f, 14, left: true) + pad(formatFixed(t.falseAcceptRate * 100, decimals: 2) + "%", 8, left: true)
    }

    public func json() throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return String(decoding: try e.encode(self), as: UTF8.self)
    }
}

private func pad(_ s: String, _ width: Int, left: Bool = false) -> String {
    let n = max(0, width - s.count)
    return left ? String(repeating: " ", count: n) + s : s + String(repeating: " ", count: n)
}
