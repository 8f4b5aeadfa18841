/// One config key of a recognizer kind, written once next to the kind's
/// `Parameters`: its name in the file, its type and range, the field it sets
/// (whose initial value is the default), what it means, and the key that bounds
/// it from above. The config loader reads a kind's keys from its table, the
/// bounds check pairs them from it, and `gesturectl check --keys` and the
/// README's table of parameters are made from it.
///
/// A table is a computed `static var`: it is built when a config is read or
/// documented, never while gestures are recognized.
public struct ParameterKey<P> {
    public enum Value {
        case integer(WritableKeyPath<P, Int>, ClosedRange<Int>)
        case number(WritableKeyPath<P, Double>, ClosedRange<Double>)
        case millis(WritableKeyPath<P, Millis>, ClosedRange<Double>)
        /// One of a few words.
        case choice([String], get: (P) -> String, set: (inout P, String) -> Void)
        /// A string or a list of some of a few words; `item` names one in messages.
        case choices([String], item: String, get: (P) -> [String], set: (inout P, [String]) -> Void)
        /// A list of strokes, each a list of [x, y] points in mm: `count` strokes
        /// of `points` points each. Required: there is no default stroke.
        case strokes(WritableKeyPath<P, [[Point]]>, count: ClosedRange<Int>, points: ClosedRange<Int>)
    }

    /// A rule about the key's value once it is read: it may adjust the
    /// parameters, and returns the key it is about and what is wrong, if
    /// anything. `written` says whether the file sets a key.
    public typealias Check = (_ p: inout P, _ written: (String) -> Bool) -> (key: String, problem: String)?

    public let key: String
    public let value: Value
    /// One line: what it means (its unit is in its name).
    public let documentation: String
    /// The key this one is the lower bound of (`min_fingers` names `max_fingers`):
    /// when the value is above that key's, nothing could be recognized.
    public let atMost: String?
    /// Applied after the key is read from a file that writes it, even out of range.
    public let check: Check?

    public static func integer(
        _ key: String, _ path: WritableKeyPath<P, Int>, _ range: ClosedRange<Int>, _ documentation: String,
        atMost: String? = nil
    ) -> Self {
        Self(key: key, value: .integer(path, range), documentation: documentation, atMost: atMost, check: nil)
    }

    public static func number(
        _ key: String, _ path: WritableKeyPath<P, Double>, _ range: ClosedRange<Double>,
        _ documentation: String, atMost: String? = nil
    ) -> Self {
        Self(key: key, value: .number(path, range), documentation: documentation, atMost: atMost, check: nil)
    }

    public static func millis(
        _ key: String, _ path: WritableKeyPath<P, Millis>, _ range: ClosedRange<Double>,
        _ documentation: String, check: Check? = nil
    ) -> Self {
        Self(key: key, value: .millis(path, range), documentation: documentation, atMost: nil, check: check)
    }

    public static func choice<E: RawRepresentable & CaseIterable>(
        _ key: String, _ path: WritableKeyPath<P, E>, _ documentation: String, check: Check? = nil
    ) -> Self where E.RawValue == String {
        Self(
            key: key,
            value: .choice(
                E.allCases.map(\.rawValue), get: { $0[keyPath: path].rawValue },
                set: { p, word in if let v = E(rawValue: word) { p[keyPath: path] = v } }),
            documentation: documentation, atMost: nil, check: check)
    }

    public static func choices<E: RawRepresentable & CaseIterable & Hashable>(
        _ key: String, _ path: WritableKeyPath<P, Set<E>>, item: String, _ documentation: String, check: Check? = nil
    ) -> Self where E.RawValue == String {
        let words = E.allCases.map(\.rawValue)
        return Self(
            key: key,
            value: .choices(
                words, item: item,
                get: { p in words.filter { E(rawValue: $0).map(p[keyPath: path].contains) ?? false } },
                set: { p, list in p[keyPath: path] = Set(list.compactMap(E.init(rawValue:))) }),
            documentation: documentation, atMost: nil, check: check)
    }

    public static func strokes(
        _ key: String, _ path: WritableKeyPath<P, [[Point]]>, count: ClosedRange<Int>, points: ClosedRange<Int>,
        _ documentation: String
    ) -> Self {
        Self(
            key: key, value: .strokes(path, count: count, points: points), documentation: documentation,
            atMost: nil, check: nil)
    }

    /// The value as a number, for the bounds check; nil for words.
    public func number(in p: P) -> Double? {
        switch value {
        case .integer(let path, _): Double(p[keyPath: path])
        case .number(let path, _): p[keyPath: path]
        case .millis(let path, _): p[keyPath: path].value
        case .choice, .choices, .strokes: nil
        }
    }

    /// The key as the reference table shows it, with its value in `defaults`.
    public func reference(defaults: P) -> ParameterReference {
        let type: String, range: String, shown: String
        switch value {
        case .integer(let path, let r):
            type = "integer"
            range = "\(r.lowerBound)–\(r.upperBound)"
            shown = "\(defaults[keyPath: path])"
        case .number(let path, let r):
            type = "number"
            range = "\(formatBound(r.lowerBound))–\(formatBound(r.upperBound))"
            shown = formatBound(defaults[keyPath: path])
        case .millis(let path, let r):
            type = "number"
            range = "\(formatBound(r.lowerBound))–\(formatBound(r.upperBound))"
            shown = formatBound(defaults[keyPath: path].value)
        case .choice(let words, let get, _):
            type = "string"
            range = words.map { "`\($0)`" }.joined(separator: ", ")
            shown = "`\(get(defaults))`"
        case .choices(let words, _, let get, _):
            type = "list of strings"
            range = words.map { "`\($0)`" }.joined(separator: ", ")
            shown = get(defaults).map { "`\($0)`" }.joined(separator: ", ")
        case .strokes(_, let count, let points):
            type = "list of strokes"
            range =
                "\(count.lowerBound)–\(count.upperBound) strokes of \(points.lowerBound)–\(points.upperBound) points"
            shown = "(required)"
        }
        return ParameterReference(
            key: key, type: type, range: range, defaultValue: shown, atMost: atMost,
            documentation: documentation)
    }
}

/// One row of the parameter reference: a key as people read about it.
public struct ParameterReference: Sendable, Equatable {
    public var key: String
    public var type: String
    public var range: String
    public var defaultValue: String
    public var atMost: String?
    public var documentation: String
}

/// Something that works through a kind's table with its parameters: the config
/// loader reads them, the bounds check pairs them, the reference describes them.
public protocol ParameterTableVisitor {
    mutating func visit<P>(_ keys: [ParameterKey<P>], _ parameters: inout P)
}

extension RecognizerParameters {
    /// Hands the kind's table and its parameters to `visitor`: the one place
    /// where a kind is paired with its table.
    public mutating func visitTable(_ visitor: inout some ParameterTableVisitor) {
        switch self {
        case .tap(var p):
            visitor.visit(TapRecognizer.Parameters.keys, &p)
            self = .tap(p)
        case .pan(var p):
            visitor.visit(PanRecognizer.Parameters.keys, &p)
            self = .pan(p)
        case .circle(var p):
            visitor.visit(CircleRecognizer.Parameters.keys, &p)
            self = .circle(p)
        case .checkmark(var p):
            visitor.visit(CheckmarkRecognizer.Parameters.keys, &p)
            self = .checkmark(p)
        case .tickle(var p):
            visitor.visit(TickleRecognizer.Parameters.keys, &p)
            self = .tickle(p)
        case .swipe(var p):
            visitor.visit(SwipeRecognizer.Parameters.keys, &p)
            self = .swipe(p)
        case .longPress(var p):
            visitor.visit(LongPressRecognizer.Parameters.keys, &p)
            self = .longPress(p)
        case .pinch(var p):
            visitor.visit(TwoFingerTransformRecognizer.Parameters.pinchKeys, &p)
            self = .pinch(p)
        case .rotate(var p):
            visitor.visit(TwoFingerTransformRecognizer.Parameters.rotateKeys, &p)
            self = .rotate(p)
        case .shape(var p):
            visitor.visit(ShapeRecognizer.Parameters.keys, &p)
            self = .shape(p)
        }
    }

    /// The kind's keys with their defaults, in the order the loader reads them.
    public static func reference(for kind: GestureKind) -> [ParameterReference] {
        struct Describe: ParameterTableVisitor {
            var rows: [ParameterReference] = []
            mutating func visit<P>(_ keys: [ParameterKey<P>], _ parameters: inout P) {
                rows = keys.map { $0.reference(defaults: parameters) }
            }
        }
        var d = Describe()
        var p = defaults(for: kind)
        p.visitTable(&d)
        return d.rows
    }

    /// Every kind's keys as a Markdown table per kind: the README's reference,
    /// and what `gesturectl check --keys` prints.
    /// The keys every recognizer takes, besides its kind's: key, type, default, meaning.
    public static let commonKeys: [(key: String, type: String, defaultValue: String, meaning: String)] = [
        (
            "requires_failure_of", "list of names", "[]",
            "hold this one back until all of these have failed; if one of them succeeds, this one fails"
        ),
        ("simultaneous_with", "list of names", "[]", "may be recognized together with these (either side saying so)"),
        ("can_prevent", "boolean", "true", "false: its success does not make others fail"),
        ("can_be_prevented", "boolean", "true", "false: others' success does not make it fail"),
        ("devices", "list of strings", "every device", "only on devices whose name contains one of these"),
        (
            "region", "[x0, y0, x1, y1]", "the whole screen",
            "only for touches that start inside this part of the screen (0…1 from the top-left)"
        ),
        (
            "edge", "string", "none given",
            "only from this edge or corner as seen: left, right, top, bottom, top_left, top_right, bottom_left, bottom_right, or none (away from every edge)"
        ),
        (
            "edge_mm", "number, 0.1…100", formatBound(EdgeFilter.defaultMarginMM),
            "how near the edge the first finger must land"
        ),
        ("edge_range", "[from, to], 0…1", "[0, 1]", "the part of the edge that counts"),
        ("edge_at", "string", "\"start\"", "or \"start_or_end\": also when the finger ends at the edge"),
        ("profiles", "list of strings", "[\"\(Profiles.defaultName)\"]", "the runtime profiles it takes part in"),
        ("consume", "boolean", "false", "true: on an exclusive [[device]], the apps never see the touches it takes"),
    ]

    public static func referenceMarkdown() -> String {
        var out = "Every kind:\n\n| key | type | default | meaning |\n|---|---|---|---|\n"
        for k in commonKeys { out += "| `\(k.key)` | \(k.type) | \(k.defaultValue) | \(k.meaning) |\n" }
        out += "\n"
        for kind in GestureKind.allCases {
            out += "`\(kind.rawValue)`:\n\n| key | type | range | default | meaning |\n|---|---|---|---|---|\n"
            for row in reference(for: kind) {
                let meaning = row.atMost.map { "\(row.documentation) (not above `\($0)`)" } ?? row.documentation
                let cell = meaning.split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|")
                out += "| `\(row.key)` | \(row.type) | \(row.range) | \(row.defaultValue) | \(cell) |\n"
            }
            out += "\n"
        }
        return out
    }
}

/// A bound or a value for a message: as an integer when it is one.
public func formatBound(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
}
