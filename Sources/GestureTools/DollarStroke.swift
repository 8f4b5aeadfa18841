import FoundationEssentials
import GestureCore

/// One labelled single-finger stroke as drawn: points in pixels, times in ms.
///
/// The $1 Unistroke logs (Wobbrock, Wilson & Li, UIST 2007) store one stroke per
/// XML file: `<Gesture Name="circle01" Subject="1" Speed="fast" …>` with
/// `<Point X="119" Y="132" T="1163649" />` children, y growing downward. The
/// synthetic tickle strokes in Tests/fixtures/tickle use the same format.
public struct LabelledStroke: Sendable {
    /// The class drawn: the file name without its number (`circle`, `check`, `delete_mark`…).
    public var label: String
    /// `s01`…, from the path (or the file's `Subject` attribute), else `-`.
    public var subject: String
    /// `fast`, `medium`, `slow`, from the path (or the `Speed` attribute), else `-`.
    public var speed: String
    /// Where it came from, for messages.
    public var source: String
    /// Pixels, y down.
    public var points: [Point]
    /// Milliseconds, as logged (an arbitrary origin).
    public var times: [Double]

    public init(label: String, subject: String, speed: String, source: String, points: [Point], times: [Double]) {
        self.label = label
        self.subject = subject
        self.speed = speed
        self.source = source
        self.points = points
        self.times = times
    }

    /// The same stroke mirrored left-right (x → -x about its bounding box), so a
    /// counter-clockwise circle becomes a clockwise one.
    public var mirrored: LabelledStroke {
        var m = self
        let maxX = points.reduce(-Double.infinity) { max($0, $1.x) }
        let minX = points.reduce(Double.infinity) { min($0, $1.x) }
        m.points = points.map { Point(x: maxX + minX - $0.x, y: $0.y) }
        return m
    }
}

public enum DollarXML {
    public struct ParseError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The class of a stroke from its file name: `delete_mark07.xml` → `delete_mark`.
    public static func label(fromFileName name: String) -> String {
        var base = Substring(name)
        if let dot = base.lastIndex(of: ".") { base = base[..<dot] }
        while let last = base.last, last.isNumber { base = base.dropLast() }
        return String(base)
    }

    public static func load(path: String) throws -> LabelledStroke {
        let text: String
        do { text = try readTextFile(path) } catch { throw ParseError(description: error.description) }
        return try parse(text, path: path)
    }

    /// Parses one stroke file. Path components `sNN` and `fast|medium|slow` give the
    /// subject and speed (the layout of the $1 logs); the `Subject` and `Speed`
    /// attributes stand in when the path has none.
    public static func parse(_ text: String, path: String) throws -> LabelledStroke {
        var points: [Point] = []
        var times: [Double] = []
        var gestureAttributes: [String: String] = [:]
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            let tag = rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: close)...]
            if tag.hasPrefix("Point") {
                let a = attributes(tag)
                guard let x = a["X"].flatMap(Double.init), let y = a["Y"].flatMap(Double.init) else {
                    throw ParseError(description: "\(path): a <Point> without numeric X and Y: <\(tag)>")
                }
                guard abs(x) <= maxPixels, abs(y) <= maxPixels else {
                    throw ParseError(
                        description:
                            "\(path): a <Point> off any screen (X and Y are pixels within ±\(Int(maxPixels))): <\(tag)>"
                    )
                }
                var t = times.last.map { $0 + 10 } ?? 0
                if let given = a["T"] {
                    guard let ms = Double(given), abs(ms) <= maxMilliseconds else {
                        throw ParseError(
                            description:
                                "\(path): a <Point> whose T is not a time in ms within ±\(Int(maxMilliseconds)): <\(tag)>"
                        )
                    }
                    t = ms
                }
                points.append(Point(x: x, y: y))
                times.append(t)
            } else if tag.hasPrefix("Gesture") {
                gestureAttributes = attributes(tag)
            }
        }
        guard points.count >= 2 else {
            throw ParseError(description: "\(path): \(points.count) <Point> elements; a stroke needs at least 2")
        }
        let components = path.split(separator: "/").map(String.init)
        let file = components.last ?? path
        var subject = components.dropLast().last {
            $0.count >= 2 && $0.first == "s" && $0.dropFirst().allSatisfy(\.isNumber)
        }
        if subject == nil, let s = gestureAttributes["Subject"], !s.isEmpty {
            subject = Int(s).map { $0 < 10 ? "s0\($0)" : "s\($0)" } ?? s
        }
        let speeds = ["fast", "medium", "slow"]
        var speed = components.dropLast().last { speeds.contains($0) }
        if speed == nil, let s = gestureAttributes["Speed"], speeds.contains(s) { speed = s }
        return LabelledStroke(
            label: label(fromFileName: file), subject: subject ?? "-", speed: speed ?? "-",
            source: path, points: points, times: times)
    }

    /// A point's coordinates, in pixels, at most (no screen is 100,000 pixels
    /// across); NaN and infinities are out of range too.
    static let maxPixels = 100_000.0
    /// A point's time, in ms, at most (about 30 years).
    static let maxMilliseconds = 1e12

    /// `Name="v" X="1"` → ["Name": "v", "X": "1"].
    static func attributes(_ tag: Substring) -> [String: String] {
        var out: [String: String] = [:]
        var s = tag
        while let eq = s.firstIndex(of: "=") {
            let key = s[..<eq].split(separator: " ").last.map(String.init) ?? ""
            var after = s[s.index(after: eq)...].drop(while: { $0 == " " })
            guard let quote = after.first, quote == "\"" || quote == "'" else { break }
            after = after.dropFirst()
            guard let end = after.firstIndex(of: quote) else { break }
            out[key] = String(after[..<end])
            s = after[after.index(after: end)...]
        }
        return out
    }
}

/// Turns a stroke into the touch frames a one-finger touchscreen would give: one
/// `began` frame at the first point, `moved` frames for the others, and an `ended`
/// frame at the last point, each at the stroke's own time. Pixels become mm at
/// `pxPerMM`; the stroke is placed on a panel big enough to hold it.
public enum StrokeFrames {
    public static let defaultPxPerMM = 4.5
    public static let deviceName = "stroke"

    public static func frames(
        of stroke: LabelledStroke, pxPerMM: Double = defaultPxPerMM,
        touchID: UInt64 = 1
    ) -> [TouchFrame] {
        precondition(pxPerMM > 0)
        let mm = stroke.points.map { Point(x: $0.x / pxPerMM, y: $0.y / pxPerMM) }
        guard let first = mm.first, let t0 = stroke.times.first else { return [] }
        // A panel from the origin to 10 mm past the stroke, shifted so no point is negative.
        var box = Box(bounding: mm) ?? Box(center: first, halfSide: 1)
        let shift = Point(x: box.minX < 0 ? -box.minX : 0, y: box.minY < 0 ? -box.minY : 0)
        box = Box(minX: 0, minY: 0, maxX: box.maxX + shift.x + 10, maxY: box.maxY + shift.y + 10)
        let area = Point(x: box.maxX, y: box.maxY)
        let id = TouchID(raw: touchID)
        // Event time: the stroke's ms from its first point, 1 s into the clock;
        // never going backwards.
        var lastTime = EventTime.milliseconds(1000)
        var frames: [TouchFrame] = []
        frames.reserveCapacity(mm.count + 1)
        let start = mm[0] + shift
        for (i, p0) in mm.enumerated() {
            let p = p0 + shift
            var time = EventTime.milliseconds(1000 + stroke.times[i] - t0)
            if time < lastTime { time = lastTime }
            lastTime = time
            let touch = Touch(
                id: id, slot: 0, trackingID: Int32(truncatingIfNeeded: touchID), phase: i == 0 ? .began : .moved,
                position: p, normalised: Point(x: p.x / area.x, y: p.y / area.y),
                startTime: EventTime.milliseconds(1000), startPosition: start)
            frames.append(TouchFrame(time: time, device: deviceName, touches: [touch], areaMM: area))
        }
        var lift = frames[frames.count - 1]
        lift.touches[0].phase = .ended
        frames.append(lift)
        return frames
    }
}
