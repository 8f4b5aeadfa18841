import FoundationEssentials
import GestureCore
import GestureDaemon

/// What the arena did with one corpus item.
public struct Outcome: Sendable {
    /// Names of the recognizers that were recognized (or, continuous, began).
    public var accepted: Set<String> = []
    /// Each recognizer's failure or cancellation reason, by name (the first one).
    public var reasons: [String: Reason] = [:]
    public init() {}
}

/// Runs labelled inputs through the real arena built from a configuration.
public struct Evaluator: Sendable {
    public var configuration: Configuration
    public var pxPerMM: Double

    public init(configuration: Configuration, pxPerMM: Double = StrokeFrames.defaultPxPerMM) {
        self.configuration = configuration
        self.pxPerMM = pxPerMM
    }

    /// The gesture events of one item, in event time, with every timer run out.
    public func events(of item: CorpusItem) throws -> [GestureEvent] {
        switch item.input {
        case .recording(let path):
            return try Replay.run(recording: path, descPath: nil, configuration: configuration)
        case .stroke(let stroke):
            return events(of: StrokeFrames.frames(of: stroke, pxPerMM: pxPerMM))
        }
    }

    public func events(of frames: [TouchFrame]) -> [GestureEvent] {
        let arena = configuration.makeArena(device: StrokeFrames.deviceName)
        var events: [GestureEvent] = []
        for f in frames { arena.handle(f, into: &events) }
        if let last = frames.last { arena.advance(to: last.time + Millis(60_000), into: &events) }
        return events
    }

    public func outcome(of item: CorpusItem) throws -> Outcome {
        var o = Outcome()
        for e in try events(of: item) {
            switch e.state {
            case .recognized, .began: o.accepted.insert(e.name)
            case .failed, .cancelled: if o.reasons[e.name] == nil, let cause = e.cause { o.reasons[e.name] = cause }
            default: break
            }
        }
        return o
    }

    public func outcomes(of items: [CorpusItem]) throws -> [Outcome] {
        try items.map { try outcome(of: $0) }
    }
}

/// Recall on a recognizer's own class and false accepts on every other class.
public struct Tally: Sendable, Codable, Equatable {
    public var positives = 0
    public var hits = 0
    public var negatives = 0
    public var falseAccepts = 0
    public init() {}
    public var recall: Double { positives == 0 ? .nan : Double(hits) / Double(positives) }
    public var falseAcceptRate: Double { negatives == 0 ? .nan : Double(falseAccepts) / Double(negatives) }

    enum CodingKeys: String, CodingKey { case positives, hits, negatives, falseAccepts, recall, falseAcceptRate }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        positives = try c.decode(Int.self, forKey: .positives)
        hits = try c.decode(Int.self, forKey: .hits)
        negatives = try c.decode(Int.self, forKey: .negatives)
        falseAccepts = try c.decode(Int.self, forKey: .falseAccepts)
    }

    /// The counts, and the rates worked out from them (null where there is nothing to count).
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(positives, forKey: .positives)
        try c.encode(hits, forKey: .hits)
        try c.encode(negatives, forKey: .negatives)
        try c.encode(falseAccepts, forKey: .falseAccepts)
        if recall.isNaN { try c.encodeNil(forKey: .recall) } else { try c.encode(recall, forKey: .recall) }
        if falseAcceptRate.isNaN {
            try c.encodeNil(forKey: .falseAcceptRate)
        } else {
            try c.encode(falseAcceptRate, forKey: .falseAcceptRate)
        }
    }
}

/// The accuracy of one configured recognizer over a corpus.
public struct RecognizerAccuracy: Sendable, Codable {
    public var name: String
    public var kind: String
    /// The class its recall is measured on, if the corpus has one for its kind.
    public var ownClass: String?
    public var overall = Tally()
    public var bySpeed: [String: Tally] = [:]
    public var bySubject: [String: Tally] = [:]
    /// Own-class strokes as drawn and mirrored (circles only).
    public var byVariant: [String: Tally] = [:]
    public var falseAcceptsByClass: [String: Int] = [:]
    /// Why own-class items were missed: reason (numbers dropped) → count.
    public var missReasons: [String: Int] = [:]
    public var missed: [String] = []
    public var falselyAccepted: [String] = []
}

public struct AccuracyReport: Sendable, Codable {
    public var items: Int
    public var itemsByClass: [String: Int]
    public var mirroredCircles: Int
    public var recognizers: [RecognizerAccuracy]

    /// Tallies the outcomes of `items` for every discrete recognizer of `configuration`
    /// (continuous ones, pan, begin on nearly any stroke and are not scored).
    public init(items: [CorpusItem], outcomes: [Outcome], configuration: Configuration) {
        self.items = items.count
        var byClass: [String: Int] = [:]
        for i in items where !i.mirrored { byClass[i.label, default: 0] += 1 }
        itemsByClass = byClass
        mirroredCircles = items.filter(\.mirrored).count
        recognizers = []
        for r in configuration.recognizers where !r.kind.isContinuous {
            var acc = RecognizerAccuracy(name: r.name, kind: r.kind.rawValue)
            // A taught shape owns the class of its own name (a `triangle` shape,
            // the corpus's triangles); a built-in kind, the classes of its kind.
            let own =
                r.kind == .shape
                ? Set(byClass.keys.filter { $0 == r.name })
                : Set(byClass.keys.filter { Corpus.kind(ofClass: $0) == r.kind })
            acc.ownClass = own.sorted().first
            for (item, o) in zip(items, outcomes) {
                let positive = own.contains(item.label)
                if item.mirrored && !positive { continue }
                let accepted = o.accepted.contains(r.name)
                func count(_ t: inout Tally) {
                    if positive {
                        t.positives += 1
                        if accepted { t.hits += 1 }
                    } else {
                        t.negatives += 1
                        if accepted { t.falseAccepts += 1 }
                    }
                }
                count(&acc.overall)
                count(&acc.bySpeed[item.speed, default: Tally()])
                count(&acc.bySubject[item.subject, default: Tally()])
                if positive { count(&acc.byVariant[item.mirrored ? "mirrored" : "as drawn", default: Tally()]) }
                if positive && !accepted {
                    let reason = o.reasons[r.name]
                    acc.missed.append("\(item.source): \(reason?.description ?? "not recognized")")
                    acc.missReasons[reason?.text(numbers: .masked) ?? "not recognized", default: 0] += 1
                }
                if !positive && accepted {
                    acc.falseAcceptsByClass[item.label, default: 0] += 1
                    acc.falselyAccepted.append("\(item.source) (\(item.label))")
                }
            }
            recognizers.append(acc)
        }
    }

    public func recognizer(_ name: String) -> RecognizerAccuracy? { recognizers.first { $0.name == name } }

    // MARK: - Text

    /// Tables for people: per recognizer, recall and false accepts overall, per
    /// speed and per subject; false accepts by class; why positives were missed.
    public func text(details: Bool = false) -> String {
        var out = "\(items) inputs"
        let classes = itemsByClass.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        out += " (\(classes))"
        if mirroredCircles > 0 {
            out +=
                "; plus \(mirroredCircles) circles mirrored left-right, counted for circle recall only (clockwise and counter-clockwise both count)"
        }
        out += "\n"
        for r in recognizers {
            if r.ownClass == nil && r.overall.falseAccepts == 0 {
                out += "\n\(r.name) (\(r.kind)): no class of its own here; false accepts 0/\(r.overall.negatives)\n"
                continue
            }
            out += "\n\(r.name) (\(r.kind))"
            if let own = r.ownClass {
                let whose = r.kind == GestureKind.shape.rawValue ? " (a taught shape: the class of its name)" : ""
                out += ": recall on \(own)\(whose), false accepts on every other class\n"
            } else if r.kind == GestureKind.shape.rawValue {
                out += ": a taught shape, no class named \(r.name) in this corpus; false accepts on every class\n"
            } else {
                out += ": no class of its own in this corpus; false accepts on every class\n"
            }
            out += row("", "recall", "false accepts", header: true)
            out += row("overall", r.overall)
            for s in ["fast", "medium", "slow", "-"] where r.bySpeed[s] != nil {
                out += row(s == "-" ? "no speed" : s, r.bySpeed[s]!)
            }
            for s in r.bySubject.keys.sorted() { out += row(s, r.bySubject[s]!) }
            if r.byVariant.count > 1 {
                for v in r.byVariant.keys.sorted() { out += row(v, r.byVariant[v]!) }
            }
            if !r.falseAcceptsByClass.isEmpty {
                out +=
                    "  false accepts by class: "
                    + r.falseAcceptsByClass.sorted { $0.key < $1.key }
                    .map { "\($0.key) \($0.value)" }.joined(separator: ", ") + "\n"
            }
            if !r.missReasons.isEmpty {
                out +=
                    "  missed because: "
                    + r.missReasons.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
                    .map { "\($0.key) ×\($0.value)" }.joined(separator: "; ") + "\n"
            }
            if details {
                for m in r.missed { out += "  missed: \(m)\n" }
                for f in r.falselyAccepted { out += "  false accept: \(f)\n" }
            }
        }
        return out
    }

    private func row(_ name: String, _ t: Tally) -> String {
        let recall = t.positives == 0 ? "—" : "\(t.hits)/\(t.positives)  \(Self.percent(t.recall))"
        let fa = t.negatives == 0 ? "—" : "\(t.falseAccepts)/\(t.negatives)  \(Self.percent(t.falseAcceptRate))"
        return row(name, recall, fa, header: false)
    }

    private func row(_ a: String, _ b: String, _ c: String, header: Bool) -> String {
        "  " + Self.pad(a, 12) + Self.pad(b, 20, right: true) + "   " + Self.pad(c, 20, right: true) + "\n"
    }

    public static func percent(_ v: Double) -> String { v.isNaN ? "—" : formatFixed(v * 100, decimals: 1) + "%" }
    public static func pad(_ s: String, _ n: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, n - s.count))
        return right ? fill + s : s + fill
    }

    public func json() throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        e.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "null")
        return String(decoding: try e.encode(self), as: UTF8.self)
    }
}
