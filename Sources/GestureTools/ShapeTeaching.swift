import GestureCore

/// Teaching a `shape` recognizer: strokes taken from touch frames (a recording,
/// or the touchscreen), how consistently they were drawn, which recognizers of a
/// configuration would take them, and the config table that teaches them.
public enum ShapeTeaching {
    /// One stroke: a single finger from touch-down to lift, points in mm.
    public struct Stroke: Sendable {
        public var points: [Point]
        /// The frames it was read from (one finger down to its lift).
        public var frames: [TouchFrame]
        public var durationMs: Double {
            guard let a = frames.first, let b = frames.last else { return 0 }
            return Double(b.time.microseconds - a.time.microseconds) / 1000
        }
        public var lengthMM: Double {
            zip(points, points.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) }
        }
    }

    /// Why a touch was not taken as an example.
    public enum Skip: Sendable, Equatable, CustomStringConvertible {
        /// Another finger was down at some time during it.
        case moreThanOneFinger
        case cancelled
        /// Fewer distinct points than an example needs (one: a tap).
        case tooFewPoints(Int)
        /// Still down when the recording ended: never lifted.
        case notLifted
        /// Shorter than the shortest stroke a shape recognizer matches, mm.
        case tooShort(Double)

        /// The fewest points an example has (the config refuses fewer).
        public static let minPoints = ShapeRecognizer.Parameters.pointsPerExample.lowerBound
        /// The shortest example, mm: `min_length_mm`'s default, the shortest stroke
        /// the recognizer matches (a tap that slid, or a finger's jitter, is shorter).
        public static let minLengthMM = ShapeRecognizer.Parameters().minLengthMM

        /// What it was, without its numbers: for counting skips alike.
        public var what: String {
            switch self {
            case .moreThanOneFinger: "more than one finger"
            case .cancelled: "cancelled"
            case .tooFewPoints(1): "a tap"
            case .tooFewPoints: "too few points"
            case .tooShort: "too short"
            case .notLifted: "still down at the end"
            }
        }

        public var description: String {
            switch self {
            case .moreThanOneFinger: "more than one finger"
            case .cancelled: "cancelled"
            case .tooFewPoints(1): "a tap (one point); an example needs \(Skip.minPoints) points"
            case .tooFewPoints(let n): "too few points: \(n); an example needs \(Skip.minPoints)"
            case .tooShort(let mm):
                "too short: \(ShapeTeaching.tenth(mm)) mm; an example needs \(ShapeTeaching.tenth(Skip.minLengthMM)) mm (min_length_mm)"
            case .notLifted: "still down when the recording ended: an example is a stroke that lifts"
            }
        }
    }

    /// Collects one-finger strokes from frames as they come: a touch that began
    /// alone and ended (lifted) with no other finger down at any time, with
    /// enough points and long enough to be an example as the table writes it. A
    /// touch that was not is skipped, and why is kept in `skips`.
    public struct StrokeReader: Sendable {
        public private(set) var strokes: [Stroke] = []
        public private(set) var skips: [Skip] = []
        public var skipped: Int { skips.count }
        private var current: [TouchFrame] = []
        private var points: [Point] = []
        private var spoiled: Skip?

        public init() {}

        /// The frames ended: a touch still down is skipped, never lifted.
        public mutating func finish() {
            guard !current.isEmpty else { return }
            skips.append(.notLifted)
            current = []
            points = []
        }

        /// Takes one frame; returns the stroke it finished, if any.
        public mutating func take(_ frame: TouchFrame) -> Stroke? {
            let live = frame.touches.filter { $0.phase != .ended && $0.phase != .cancelled }
            if current.isEmpty {
                guard frame.began else { return nil }
                spoiled = nil
                points = []
            }
            current.append(frame)
            if spoiled == nil {
                if frame.touches.count > 1 {
                    spoiled = .moreThanOneFinger
                } else if frame.anyCancelled {
                    spoiled = .cancelled
                }
            }
            if let t = frame.touches.first, spoiled == nil, points.last != t.position { points.append(t.position) }
            guard live.isEmpty else { return nil }
            defer {
                current = []
                points = []
            }
            if let spoiled {
                skips.append(spoiled)
                return nil
            }
            let written = ShapeTeaching.asWritten(ShapeTeaching.thinned(points))
            let distinct = zip(written, written.dropFirst()).filter { $0.0 != $0.1 }.count + 1
            if distinct < Skip.minPoints {
                skips.append(.tooFewPoints(distinct))
                return nil
            }
            let s = Stroke(points: points, frames: current)
            if s.lengthMM < Skip.minLengthMM {
                skips.append(.tooShort(s.lengthMM))
                return nil
            }
            strokes.append(s)
            return s
        }
    }

    /// The strokes of a run of frames (a whole recording).
    public static func strokes(in frames: [TouchFrame]) -> (strokes: [Stroke], skipped: Int) {
        let r = reader(of: frames)
        return (r.strokes, r.skipped)
    }

    /// The reader that took a run of frames: its strokes, and the touches it skipped and why.
    public static func reader(of frames: [TouchFrame]) -> StrokeReader {
        var r = StrokeReader()
        for f in frames { _ = r.take(f) }
        r.finish()
        return r
    }

    /// Skips counted alike, in the order first seen: "a tap ×2; more than one finger".
    public static func summary(of skips: [Skip]) -> String {
        var order: [String] = []
        var counts: [String: Int] = [:]
        for s in skips {
            if counts[s.what] == nil { order.append(s.what) }
            counts[s.what, default: 0] += 1
        }
        return order.map { counts[$0]! > 1 ? "\($0) ×\(counts[$0]!)" : $0 }.joined(separator: "; ")
    }

    /// What the recognizers of `configuration` decide about one stroke on its
    /// own: the names of those that recognized it (began counts for continuous
    /// ones, such as a pan), in the order they decided.
    public static func takers(of stroke: Stroke, in configuration: Configuration) -> [String] {
        guard let first = stroke.frames.first, let last = stroke.frames.last else { return [] }
        let arena = configuration.makeArena(device: first.device)
        var events: [GestureEvent] = []
        for f in stroke.frames { arena.handle(f, into: &events) }
        // Past every timer a recognizer could still be waiting on.
        arena.advance(to: last.time + Millis(10_000), into: &events)
        var names: [String] = []
        for e in events where e.state == .recognized || e.state == .began {
            if !names.contains(e.name) { names.append(e.name) }
        }
        return names
    }

    /// The largest bound a taught table gives its examples: the bound of
    /// examples as far apart as examples still called consistent (each within
    /// the default `max_distance` of another), 0.51 × (0.3 + 0.51) / 0.45 ≈ 0.92.
    /// Beyond it a stroke's closest example can be another shape altogether: a
    /// swipe is within 0.9 of a zigzag's example.
    public static var boundCap: Double {
        let d = ShapeRecognizer.Parameters().maxDistance
        return d * ShapeMatcher.boundScale(spread: d)
    }

    /// The rejection threshold written for examples this far apart (`spread`, as
    /// `ShapeMatcher.spread`): the recognizer's default, because the recognizer
    /// already scales it by the spread (`ShapeMatcher.bound`), unless that scaled
    /// bound would pass `boundCap` (examples drawn inconsistently, taught with
    /// --force): then lower, so that their bound is the cap.
    public static func suggestedMaxDistance(spread: Double) -> Double {
        let d = ShapeRecognizer.Parameters().maxDistance
        let scale = ShapeMatcher.boundScale(spread: spread)
        guard scale.isFinite, d * scale > boundCap else { return d }
        // Rounded down to the hundredth the table writes.
        return (boundCap / scale * 100).rounded(.down) / 100
    }

    /// An example as the table writes it: moved to start at 0,0, each coordinate
    /// rounded to 0.1 mm. What the tool says of the examples (their consistency,
    /// their bound) is said of these, the points the recognizer will read.
    public static func asWritten(_ points: [Point]) -> [Point] {
        let o = points.first ?? Point(x: 0, y: 0)
        return points.map { Point(x: rounded($0.x - o.x, scale: 10), y: rounded($0.y - o.y, scale: 10)) }
    }

    /// The `[recognizer.NAME]` table that teaches `examples` (points rounded to
    /// 0.1 mm, each stroke moved to start at 0,0), with the options given.
    public static func section(
        name: String, examples: [[Point]], options: ShapeMatcher.Options, maxDistance: Double,
        requiresFailureOf: [String] = [], simultaneousWith: [String] = [], comment: [String] = []
    ) -> String {
        var lines: [String] = []
        for c in comment { lines.append("# \(c)") }
        lines.append("[recognizer.\(tomlKey(name))]")
        lines.append("kind = \"shape\"")
        lines.append("examples = [")
        for e in examples {
            let pts = asWritten(e).map { "[\(tenth($0.x)), \(tenth($0.y))]" }
            lines.append("    [" + pts.joined(separator: ", ") + "],")
        }
        lines.append("]")
        lines.append("orientation = \"\(options.orientation.rawValue)\"")
        lines.append("direction = \"\(options.direction.rawValue)\"")
        if options.orientation == .fixed {
            lines.append("max_rotation_deg = \(tenth(options.maxRotationDegrees))")
        }
        lines.append("max_distance = \(hundredth(maxDistance))")
        func list(_ names: [String]) -> String { "[" + names.map(tomlString).joined(separator: ", ") + "]" }
        if !requiresFailureOf.isEmpty { lines.append("requires_failure_of = \(list(requiresFailureOf))") }
        if !simultaneousWith.isEmpty { lines.append("simultaneous_with = \(list(simultaneousWith))") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A config's text with `table` after it, a blank line between.
    public static func appending(_ table: String, to config: String) -> String {
        config + (config.hasSuffix("\n") || config.isEmpty ? "" : "\n") + "\n" + table
    }

    /// At most `limit` points per example, so that a config stays readable:
    /// the ends, then again and again the point farthest from the line kept so
    /// far (Ramer–Douglas–Peucker, taken greedily to a count), so that a tip or
    /// a corner stays where it was drawn. Points picked evenly by index cut the
    /// tips of a star and doubled a stroke's distance from itself (0.006 →
    /// 0.013 on average over 52 $1 strokes, up to 0.04); this way, 0.007.
    public static func thinned(_ points: [Point], limit: Int = 48) -> [Point] {
        guard points.count > limit, limit >= 2 else { return points }
        var kept = [Bool](repeating: false, count: points.count)
        kept[0] = true
        kept[points.count - 1] = true
        for _ in 2..<limit {
            // The point farthest from the line kept; on a line already kept
            // exactly (a straight stroke), the middle of its longest run of
            // points left out, so that a straight example keeps its points.
            var farthest = (distance: 0.0, index: -1)
            var widest = (points: 0, index: -1)
            var from = 0
            for to in 1..<points.count where kept[to] {
                if to > from + 1 {
                    for i in (from + 1)..<to {
                        let d = distance(from: points[i], toSegment: points[from], points[to])
                        if d > farthest.distance { farthest = (d, i) }
                    }
                    if to - from > widest.points { widest = (to - from, (from + to) / 2) }
                }
                from = to
            }
            let next = farthest.index >= 0 ? farthest.index : widest.index
            guard next >= 0 else { break }
            kept[next] = true
        }
        return points.indices.filter { kept[$0] }.map { points[$0] }
    }

    /// Where a taught shape goes among the recognizers of `configuration`: it
    /// waits for the shapes already there (circle, checkmark, tickle, shapes
    /// taught before) to fail, so they keep deciding as they did, and may be
    /// recognized while a pan or a long press runs, as those shapes may.
    public static func relations(in configuration: Configuration) -> (
        requiresFailureOf: [String], simultaneousWith: [String]
    ) {
        let shapes: Set<GestureKind> = [.circle, .checkmark, .tickle, .shape]
        let continuous: Set<GestureKind> = [.pan, .longPress]
        return (
            configuration.recognizers.filter { shapes.contains($0.kind) }.map(\.name),
            configuration.recognizers.filter { continuous.contains($0.kind) }.map(\.name)
        )
    }

    /// A TOML key: bare when it can be, else a quoted string.
    public static func tomlKey(_ name: String) -> String {
        let bare =
            !name.isEmpty
            && name.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-")
            }
        return bare ? name : tomlString(name)
    }

    /// A TOML basic string.
    public static func tomlString(_ name: String) -> String {
        var out = "\""
        for u in name.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where u.value < 0x20 || u.value == 0x7F:
                let hex = String(u.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    public static func tenth(_ v: Double) -> String { fixed(v, scale: 10) }
    public static func hundredth(_ v: Double) -> String { fixed(v, scale: 100) }

    private static func rounded(_ v: Double, scale: Double) -> Double { (v * scale).rounded() / scale }

    private static func fixed(_ v: Double, scale: Double) -> String {
        let r = rounded(v, scale: scale)
        let s = r == 0 ? "0.0" : String(r)
        return s.contains(".") || s.contains("e") ? s : s + ".0"
    }
}
