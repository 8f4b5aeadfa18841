import FoundationEssentials
import GestureCore
import GestureDaemon
import Glibc
import LinuxSystem

/// What the arena decided about an input and what each recognizer looked at,
/// ready to be drawn.
public struct Explanation: Sendable {
    public struct Decision: Sendable {
        public var name: String
        public var kind: GestureKind
        public var state: GestureState
        public var time: EventTime
        /// The touch sequence (1, 2, …) it decided about.
        public var sequence: Int
        public var reason: Reason?
        public var detail: GestureDetail
        /// What the recognizer measured, when the decision was its own (not the
        /// arena's: excluded, prevented, waiting for another).
        public var evidence: Evidence?
    }

    public var title: String
    /// One path per touch, in mm, in the order the touches began.
    public var paths: [[Point]]
    /// The paths (indices) of touches cancelled rather than lifted: by the pen
    /// coming, a palm, the device going.
    public var cancelled: Set<Int> = []
    public var decisions: [Decision]
    /// Size of the device's active area, mm.
    public var areaMM: Point
    /// For each decision of a `shape` recognizer that matched a stroke: the
    /// closest example, placed over the stroke as the matcher compared them.
    public var closestExamples: [ClosestExample] = []
    /// Touches set aside as they landed (the pen in proximity, a palm): no
    /// path and no decision, only a line each.
    public var setAside: [SetAsideTouch] = []

    /// A taught example drawn over the stroke it was matched with.
    public struct ClosestExample: Sendable {
        public var name: String
        /// Index of the example in the recognizer's `examples`, from 0 (as events carry it).
        public var example: Int
        public var distance: Double
        /// The recognizer's `max_distance` scaled by its examples' spread.
        public var maxDistance: Double
        /// The example's points moved, scaled and turned onto the stroke, mm.
        public var points: [Point]
    }

    /// Runs frames through the arena of `configuration`, keeping each touch's path
    /// and, for every decision, the deciding recognizer's evidence.
    public init(title: String, frames: [TouchFrame], configuration: Configuration) {
        self.title = title
        let arena = configuration.makeArena(device: frames.first?.device ?? "device")
        var pathIndex: [TouchID: Int] = [:]
        var paths: [[Point]] = []
        var pathSequence: [Int] = []
        var cancelled: Set<Int> = []
        var decisions: [Decision] = []
        var events: [GestureEvent] = []
        var sequence = 0
        var live = 0
        func collect(_ from: Int) {
            for e in events[from...] {
                switch e.state {
                case .recognized, .failed, .cancelled, .ended: break
                default: continue
                }
                let decidedByArena = e.cause?.isArenaDecision ?? false
                let evidence = decidedByArena ? nil : arena.member(named: e.name)?.recognizer.evidence
                decisions.append(
                    Decision(
                        name: e.name, kind: e.kind, state: e.state, time: e.time, sequence: max(sequence, 1),
                        reason: e.cause, detail: e.detail, evidence: evidence))
            }
        }
        for f in frames {
            if live == 0 && f.began { sequence += 1 }
            for t in f.touches {
                if let i = pathIndex[t.id] {
                    if paths[i].last != t.position { paths[i].append(t.position) }
                } else {
                    pathIndex[t.id] = paths.count
                    paths.append([t.position])
                    pathSequence.append(sequence)
                }
                if t.phase == .cancelled, let i = pathIndex[t.id] { cancelled.insert(i) }
            }
            live = f.liveCount
            let before = events.count
            arena.handle(f, into: &events)
            collect(before)
        }
        if let last = frames.last {
            let before = events.count
            arena.advance(to: last.time + Millis(60_000), into: &events)
            collect(before)
        }
        self.paths = paths
        self.cancelled = cancelled
        self.decisions = decisions
        areaMM = frames.first?.areaMM ?? Point(x: 100, y: 100)
        for d in decisions where d.kind == .shape {
            guard let i = pathSequence.firstIndex(of: d.sequence),
                let placed = Explanation.closestExample(of: d, stroke: paths[i], configuration: configuration)
            else { continue }
            closestExamples.append(placed)
        }
    }

    /// The example a `shape` decision was measured against, placed over the
    /// stroke: same centroid, scaled to the stroke's path length, turned by the
    /// rotation the matcher found (of the two senses, the one that lies closer).
    static func closestExample(of d: Decision, stroke: [Point], configuration: Configuration) -> ClosestExample? {
        // Matched on the points the recognizer kept of the stroke: the distance
        // it decided on.
        guard let r = configuration.recognizers.first(where: { $0.name == d.name }),
            case .shape(let p) = r.parameters,
            case let matcher = ShapeMatcher(examples: p.examples, options: p.matcherOptions),
            let m = matcher.closest(ShapeStrokePoints(stroke).points),
            p.examples.indices.contains(m.example)
        else { return nil }
        let example = p.examples[m.example]
        func length(_ ps: [Point]) -> Double { zip(ps, ps.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) } }
        func centroid(_ ps: [Point]) -> Point {
            let sum = ps.reduce(Point(x: 0, y: 0)) { $0 + $1 }
            return Point(x: sum.x / Double(ps.count), y: sum.y / Double(ps.count))
        }
        let le = length(example), ls = length(stroke)
        guard le > 0, ls > 0 else { return nil }
        let k = ls / le, ce = centroid(example), cs = centroid(stroke)
        func placed(turn degrees: Double) -> [Point] {
            let a = degrees * .pi / 180, c = cos(a), s = sin(a)
            return example.map {
                let x = ($0.x - ce.x) * k, y = ($0.y - ce.y) * k
                return Point(x: cs.x + x * c - y * s, y: cs.y + x * s + y * c)
            }
        }
        func gap(_ ps: [Point]) -> Double {
            ps.reduce(0) { sum, q in sum + (stroke.map { $0.distance(to: q) }.min() ?? 0) }
        }
        let one = placed(turn: m.rotationDegrees), other = placed(turn: -m.rotationDegrees)
        return ClosestExample(
            name: d.name, example: m.example, distance: m.distance,
            maxDistance: matcher.bound(maxDistance: p.maxDistance),
            points: gap(one) <= gap(other) ? one : other)
    }

    /// A $1-style stroke file or an evemu recording, as touch frames; `pen`, a
    /// recording of the screen's pen node, fed beside it by timestamp (touch
    /// arbitration, as `gesturectl replay --pen`).
    public static func frames(
        of path: String, configuration: Configuration,
        pxPerMM: Double = StrokeFrames.defaultPxPerMM, pen: String? = nil
    ) throws -> [TouchFrame] {
        try input(of: path, configuration: configuration, pxPerMM: pxPerMM, pen: pen).frames
    }

    /// The same, with the touches set aside as they landed (the pen in
    /// proximity, a palm), which no frame carries. `desc`: the device's
    /// description when the recording has none.
    public static func input(
        of path: String, configuration: Configuration,
        pxPerMM: Double = StrokeFrames.defaultPxPerMM, pen: String? = nil, desc: String? = nil
    ) throws -> (frames: [TouchFrame], setAside: [SetAsideTouch]) {
        if path.hasSuffix(".xml") {
            if let pen {
                throw Replay.Failure(
                    "\(path) is a stroke file, drawn without a pen; --pen \(pen) goes with an evemu recording of the touchscreen"
                )
            }
            return (StrokeFrames.frames(of: try DollarXML.load(path: path), pxPerMM: pxPerMM), [])
        }
        var (device, events) = try Replay.load(recording: path, descPath: desc)
        if device.isTypeA { (device, events) = try TypeAConversion.convert(device: device, events: events) }
        guard let geometry = configuration.geometry(for: device) else {
            throw Replay.Failure("\(path): the device '\(device.name)' has no X/Y axes; it is not a touchscreen")
        }
        var decoder = SlotDecoder(device: device, geometry: geometry)
        var frames: [TouchFrame] = []
        var setAside: [SetAsideTouch] = []
        func noteSetAside() {
            guard decoder.setAsideCount > setAside.count, let last = decoder.lastSetAside else { return }
            // Touches set aside together land in one frame: the last one's time and cause.
            while setAside.count < decoder.setAsideCount { setAside.append(last) }
        }
        let penEvents = try pen.map { try Replay.penEvents(recording: $0) } ?? []
        var proximity = PenProximity()
        var arbitration = TouchArbitration(release: configuration.penRelease)
        var nextPen = 0
        for e in events {
            while nextPen < penEvents.count && penEvents[nextPen].time <= e.time {
                if arbitration.feedPen(penEvents[nextPen], pen: &proximity, decoder: &decoder) {
                    frames.append(decoder.lastFrame)
                }
                nextPen += 1
            }
            arbitration.releaseIfDue(at: e.time, decoder: &decoder)
            if decoder.feed(e) { frames.append(decoder.lastFrame) }
            noteSetAside()
        }
        return (frames, setAside)
    }
}

// MARK: - SVG

extension Explanation {
    /// Colours per kind, readable on white and told apart by most colour-blind eyes.
    static func colour(_ kind: GestureKind) -> String {
        switch kind {
        case .circle: "#1f6fb4"
        case .checkmark: "#d95f02"
        case .tickle: "#7b3294"
        case .shape: "#e6ab02"
        case .tap: "#1b9e77"
        case .swipe: "#a6761d"
        case .longPress: "#e7298a"
        case .pinch, .rotate: "#666666"
        case .pan: "#777777"
        }
    }

    /// Everything drawn, in mm, for the view box.
    fileprivate var bounds: Box {
        var b: Box?
        func add(_ p: Point) {
            if b == nil { b = Box(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y) } else { b!.include(p) }
        }
        for path in paths { for p in path { add(p) } }
        for c in closestExamples { for p in c.points { add(p) } }
        for d in decisions where d.state == .recognized {
            guard let e = d.evidence else { continue }
            if let c = e.circle {
                add(Point(x: c.center.x - c.radius, y: c.center.y - c.radius))
                add(Point(x: c.center.x + c.radius, y: c.center.y + c.radius))
            }
            if let t = e.tapRadius, d.kind == .tap, d.state == .recognized {
                add(Point(x: t.center.x - t.radius, y: t.center.y - t.radius))
                add(Point(x: t.center.x + t.radius, y: t.center.y + t.radius))
            }
        }
        return b ?? Box(minX: 0, minY: 0, maxX: 10, maxY: 10)
    }

    /// One self-contained SVG: the touches' paths in mm with a 10 mm grid and a
    /// scale bar, each recognizer's evidence in its colour, a legend, and one line
    /// per decision with its reason.
    public func svg() -> String {
        let canvas = SVGCanvas(self)
        var s = canvas.header(title: title, paths: paths, decisions: decisions, setAside: setAside)
        s += canvas.grid()
        s += canvas.evidence(of: decisions)
        s += canvas.closestExamples(closestExamples)
        s += canvas.touches(paths, cancelled: cancelled)
        s += canvas.scaleBar()
        s += canvas.legend()
        s += canvas.decisionLines(decisions, setAside: setAside)
        s += "</svg>\n"
        return s
    }
}

/// Where the picture's parts go: the drawing's box in mm and its scale, the
/// legend beside it, the decisions' lines under it; each part in SVG.
private struct SVGCanvas {
    /// A taught shape's closest example when it is too far to match.
    static let farExample = "#8c8c8c"
    var b: Box
    /// Pixels per mm.
    var scale: Double
    let pad = 20.0
    var drawW: Double, drawH: Double
    let legendW = 250.0
    let lineH = 18.0
    var textTop: Double
    var legendH: Double
    var width: Double, height: Double
    /// The drawing's top left, in px.
    var ox: Double, oy: Double

    init(_ e: Explanation) {
        b = e.bounds
        let marginMM = 4.0
        b = Box(minX: b.minX - marginMM, minY: b.minY - marginMM, maxX: b.maxX + marginMM, maxY: b.maxY + marginMM)
        let longest = max(b.width, b.height, 1)
        scale = min(20, max(2, 560 / longest))  // px per mm
        drawW = b.width * scale
        drawH = b.height * scale
        let lines = e.decisions.count + e.setAside.count
        textTop = pad + 34 + drawH + 62
        let longestLine =
            (e.decisions.map { Explanation.line($0, numbered: true).count }
            + e.setAside.map { Explanation.line($0).count }).max() ?? 0
        width = max(pad + drawW + pad + legendW + pad, pad + Double(max(longestLine, e.title.count + 4)) * 7.6 + pad)
        legendH = 17 * lineH + 20
        // Decisions that would run under the legend start below it.
        if Double(longestLine) * 7.6 > drawW + pad { textTop = max(textTop, pad + 34 + legendH + 40) }
        height = max(textTop + Double(lines) * lineH + pad, pad + 34 + legendH + pad)
        ox = pad
        oy = pad + 34
    }

    func x(_ v: Double) -> String { formatFixed(ox + (v - b.minX) * scale, decimals: 1) }
    func y(_ v: Double) -> String { formatFixed(oy + (v - b.minY) * scale, decimals: 1) }
    func len(_ v: Double) -> String { formatFixed(v * scale, decimals: 1) }
    func pts(_ ps: [Point]) -> String { ps.map { x($0.x) + "," + y($0.y) }.joined(separator: " ") }

    /// The grid's spacing: 10 mm, or a power of ten times it, so that the
    /// drawing has at most 100 lines each way.
    var gridMM: Double {
        var step = 10.0
        let longest = max(b.width, b.height)
        while longest.isFinite && longest / step > 100 { step *= 10 }
        return step
    }

    /// How many grid lines `every` apart from `from` up to `to`.
    static func lines(from: Double, to: Double, every step: Double) -> Int {
        let n = ((to - from) / step).rounded(.down) + 1
        return n.isFinite && n > 0 ? Int(min(n, 1000)) : 0
    }

    /// The opening tag, the white page, the title and what was drawn.
    func header(
        title: String, paths: [[Point]], decisions: [Explanation.Decision], setAside: [SetAsideTouch]
    ) -> String {
        var s = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(formatFixed(width, decimals: 0))" height="\(formatFixed(height, decimals: 0))" \
            viewBox="0 0 \(formatFixed(width, decimals: 0)) \(formatFixed(height, decimals: 0))" font-family="DejaVu Sans, Verdana, sans-serif" font-size="13">

            """
        s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        s +=
            "<text x=\"\(pad)\" y=\"\(pad + 14)\" font-size=\"15\" font-weight=\"bold\">\(Explanation.escape(title))</text>\n"
        let aside = setAside.isEmpty ? "" : " (and \(setAside.count) set aside as they landed)"
        s +=
            "<text x=\"\(pad)\" y=\"\(pad + 30)\" fill=\"#555\">grid: \(formatFixed(gridMM, decimals: 0)) mm; \(paths.count) touch\(paths.count == 1 ? "" : "es")\(aside), \(Set(decisions.map(\.sequence)).count) sequence(s)</text>\n"
        return s
    }

    /// Grid every `gridMM`, and the drawing's frame.
    func grid() -> String {
        var s = "<g class=\"grid\" stroke=\"#e4e4e4\" stroke-width=\"1\">\n"
        let fromX = (b.minX / gridMM).rounded(.up), fromY = (b.minY / gridMM).rounded(.up)
        for i in 0..<SVGCanvas.lines(from: fromX * gridMM, to: b.maxX, every: gridMM) {
            let g = (fromX + Double(i)) * gridMM
            s += "<line x1=\"\(x(g))\" y1=\"\(y(b.minY))\" x2=\"\(x(g))\" y2=\"\(y(b.maxY))\"/>\n"
        }
        for i in 0..<SVGCanvas.lines(from: fromY * gridMM, to: b.maxY, every: gridMM) {
            let g = (fromY + Double(i)) * gridMM
            s += "<line x1=\"\(x(b.minX))\" y1=\"\(y(g))\" x2=\"\(x(b.maxX))\" y2=\"\(y(g))\"/>\n"
        }
        s += "</g>\n"
        s +=
            "<rect x=\"\(x(b.minX))\" y=\"\(y(b.minY))\" width=\"\(len(b.width))\" height=\"\(len(b.height))\" fill=\"none\" stroke=\"#bbb\"/>\n"
        return s
    }

    /// Evidence under the paths, so the paths stay visible; clipped to the drawing
    /// (a failed fit can be far bigger than the stroke).
    func evidence(of decisions: [Explanation.Decision]) -> String {
        var s =
            "<clipPath id=\"drawing\"><rect x=\"\(x(b.minX))\" y=\"\(y(b.minY))\" width=\"\(len(b.width))\" height=\"\(len(b.height))\"/></clipPath>\n"
        s += "<g clip-path=\"url(#drawing)\">\n"
        for d in decisions {
            guard let e = d.evidence else { continue }
            s += evidence(e, of: d)
        }
        s += "</g>\n"
        return s
    }

    /// What one recognizer measured, in its kind's colour.
    func evidence(_ e: Evidence, of d: Explanation.Decision) -> String {
        let c = Explanation.colour(d.kind)
        let cls = d.name.filter { $0 != "\"" }
        var s =
            "<g class=\"evidence\" data-recognizer=\"\(Explanation.escape(cls))\" data-kind=\"\(d.kind.rawValue)\">\n"
        if let box = e.strokeBox, d.kind == .circle || d.kind == .checkmark {
            s +=
                "<rect class=\"stroke-box\" x=\"\(x(box.minX))\" y=\"\(y(box.minY))\" width=\"\(len(box.width))\" height=\"\(len(box.height))\" fill=\"none\" stroke=\"\(c)\" stroke-width=\"1\" stroke-dasharray=\"2,3\"/>\n"
        }
        if let circle = e.circle {
            s +=
                "<circle class=\"fitted-circle\" cx=\"\(x(circle.center.x))\" cy=\"\(y(circle.center.y))\" r=\"\(len(circle.radius))\" data-radius-mm=\"\(formatFixed(circle.radius, decimals: 2))\" fill=\"none\" stroke=\"\(c)\" stroke-width=\"2.5\" stroke-dasharray=\"8,4\" opacity=\"0.85\"/>\n"
            let arm = 2.0
            s +=
                "<path class=\"centre\" d=\"M\(x(circle.center.x - arm)),\(y(circle.center.y)) H\(x(circle.center.x + arm)) M\(x(circle.center.x)),\(y(circle.center.y - arm)) V\(y(circle.center.y + arm))\" stroke=\"\(c)\" stroke-width=\"2\"/>\n"
        }
        if let oval = e.oval, oval.ellipse.count > 2 {
            // The circle measured as an oval: its ellipse, dotted.
            let d = oval.ellipse.enumerated().map { i, p in "\(i == 0 ? "M" : "L")\(x(p.x)),\(y(p.y))" }.joined(
                separator: " ")
            s +=
                "<path class=\"fitted-ellipse\" d=\"\(d) Z\" data-aspect=\"\(formatFixed(oval.aspect, decimals: 3))\" data-error=\"\(formatFixed(oval.error, decimals: 3))\" fill=\"none\" stroke=\"\(c)\" stroke-width=\"2\" stroke-dasharray=\"2,3\" opacity=\"0.85\"/>\n"
        }
        if let inner = e.innerBox {
            s +=
                "<rect class=\"inner-box\" x=\"\(x(inner.minX))\" y=\"\(y(inner.minY))\" width=\"\(len(inner.width))\" height=\"\(len(inner.height))\" fill=\"\(c)\" fill-opacity=\"0.10\" stroke=\"\(c)\" stroke-width=\"1.5\"/>\n"
        }
        for p in e.corners {
            s +=
                "<circle class=\"sharp-turn\" cx=\"\(x(p.x))\" cy=\"\(y(p.y))\" r=\"4.5\" fill=\"\(c)\" fill-opacity=\"0.5\"/>\n"
        }
        if e.chords.count >= 2 {
            s +=
                "<polyline class=\"chords\" points=\"\(pts(e.chords))\" fill=\"none\" stroke=\"\(c)\" stroke-width=\"2\" stroke-dasharray=\"6,3\"/>\n"
        }
        if let v = e.vertex {
            let r = 6.0
            s +=
                "<path class=\"vertex\" d=\"M\(x(v.x)),\(formatFixed(oy + (v.y - b.minY) * scale - r, decimals: 1)) l\(r),\(r) l-\(r),\(r) l-\(r),-\(r) z\" fill=\"\(c)\" stroke=\"white\"/>\n"
        }
        for (i, p) in e.reversals.enumerated() {
            s += "<circle class=\"reversal\" cx=\"\(x(p.x))\" cy=\"\(y(p.y))\" r=\"7\" fill=\"\(c)\"/>\n"
            s +=
                "<text x=\"\(x(p.x))\" y=\"\(formatFixed(oy + (p.y - b.minY) * scale + 4, decimals: 1))\" text-anchor=\"middle\" font-size=\"11\" fill=\"white\" font-weight=\"bold\">\(i + 1)</text>\n"
        }
        if let t = e.tapRadius, d.kind == .tap, d.state == .recognized {
            s +=
                "<circle class=\"tap-radius\" cx=\"\(x(t.center.x))\" cy=\"\(y(t.center.y))\" r=\"\(len(t.radius))\" data-radius-mm=\"\(formatFixed(t.radius, decimals: 2))\" fill=\"\(c)\" fill-opacity=\"0.08\" stroke=\"\(c)\" stroke-width=\"1.5\" stroke-dasharray=\"4,3\"/>\n"
        }
        for p in e.hookCuts {
            let r = 5.0
            let cx = oy + (p.y - b.minY) * scale, px = ox + (p.x - b.minX) * scale
            s +=
                "<path class=\"hook-cut\" d=\"M\(formatFixed(px - r, decimals: 1)),\(formatFixed(cx - r, decimals: 1)) l\(2 * r),\(2 * r) M\(formatFixed(px + r, decimals: 1)),\(formatFixed(cx - r, decimals: 1)) l-\(2 * r),\(2 * r)\" stroke=\"\(c)\" stroke-width=\"2.5\"/>\n"
        }
        s += "</g>\n"
        return s
    }

    /// Each taught example over the stroke it was matched with, and the distance.
    func closestExamples(_ list: [Explanation.ClosestExample]) -> String {
        var s = ""
        for e in list {
            guard let first = e.points.first else { continue }
            let within = e.distance <= e.maxDistance
            // Close enough in the shape's colour; too far in grey, so that a
            // shape that did not match does not cover the one that did.
            let c = within ? Explanation.colour(.shape) : SVGCanvas.farExample
            s +=
                "<g class=\"closest-example\" data-recognizer=\"\(Explanation.escape(e.name))\" data-example=\"\(e.example)\" data-distance=\"\(formatFixed(e.distance, decimals: 3))\" data-max-distance=\"\(formatFixed(e.maxDistance, decimals: 3))\">\n"
            s +=
                "<polyline points=\"\(pts(e.points))\" fill=\"none\" stroke=\"\(c)\" stroke-width=\"\(within ? 3 : 2)\" stroke-dasharray=\"7,4\" opacity=\"0.9\"/>\n"
            let label =
                "\(e.name): example \(e.example), \(formatFixed(e.distance, decimals: 2)) \(within ? "≤" : ">") \(formatFixed(e.maxDistance, decimals: 2))"
            s +=
                "<text x=\"\(x(first.x))\" y=\"\(formatFixed(oy + (first.y - b.minY) * scale - 8, decimals: 1))\" font-size=\"12\" fill=\"\(c)\" font-weight=\"bold\" stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\">\(Explanation.escape(label))</text>\n"
            s += "</g>\n"
        }
        return s
    }

    /// Touch paths on top: each from a green start to a red end.
    func touches(_ paths: [[Point]], cancelled: Set<Int>) -> String {
        var s = ""
        for (i, path) in paths.enumerated() {
            guard let first = path.first, let last = path.last else { continue }
            s += "<g class=\"touch\" data-touch=\"\(i + 1)\">\n"
            if path.count > 1 {
                s +=
                    "<polyline class=\"touch-path\" points=\"\(pts(path))\" fill=\"none\" stroke=\"#222\" stroke-width=\"2\" stroke-linejoin=\"round\" stroke-linecap=\"round\"/>\n"
            }
            s +=
                "<circle class=\"touch-start\" cx=\"\(x(first.x))\" cy=\"\(y(first.y))\" r=\"5\" fill=\"#2ca02c\" stroke=\"white\"/>\n"
            let ex = ox + (last.x - b.minX) * scale, ey = oy + (last.y - b.minY) * scale
            if cancelled.contains(i) {
                s +=
                    "<path class=\"touch-cancelled\" d=\"M\(formatFixed(ex - 5, decimals: 1)),\(formatFixed(ey - 5, decimals: 1)) l10,10 m0,-10 l-10,10\" stroke=\"#d62728\" stroke-width=\"3\"/>\n"
            } else {
                s +=
                    "<rect class=\"touch-end\" x=\"\(formatFixed(ex - 4, decimals: 1))\" y=\"\(formatFixed(ey - 4, decimals: 1))\" width=\"8\" height=\"8\" fill=\"#d62728\" stroke=\"white\"/>\n"
            }
            s += "</g>\n"
        }
        return s
    }

    /// Scale bar: 10 mm (or 5 mm on a small drawing), under the drawing.
    func scaleBar() -> String {
        let barMM = b.width >= 25 ? 10.0 : 5.0
        let by = oy + drawH + 18
        var s =
            "<g class=\"scale-bar\"><line x1=\"\(ox)\" y1=\"\(by)\" x2=\"\(formatFixed(ox + barMM * scale, decimals: 1))\" y2=\"\(by)\" stroke=\"black\" stroke-width=\"3\"/>"
        s +=
            "<line x1=\"\(ox)\" y1=\"\(by - 5)\" x2=\"\(ox)\" y2=\"\(by + 5)\" stroke=\"black\" stroke-width=\"2\"/><line x1=\"\(formatFixed(ox + barMM * scale, decimals: 1))\" y1=\"\(by - 5)\" x2=\"\(formatFixed(ox + barMM * scale, decimals: 1))\" y2=\"\(by + 5)\" stroke=\"black\" stroke-width=\"2\"/>"
        s +=
            "<text x=\"\(formatFixed(ox + barMM * scale + 8, decimals: 1))\" y=\"\(by + 5)\">\(formatFixed(barMM, decimals: 0)) mm</text></g>\n"
        return s
    }

    /// The legend, beside the drawing: one row per mark.
    func legend() -> String {
        let lx = pad + drawW + pad, ly = oy
        var s =
            "<g class=\"legend\">\n<rect x=\"\(lx)\" y=\"\(ly)\" width=\"\(legendW)\" height=\"\(formatFixed(legendH, decimals: 0))\" fill=\"#fafafa\" stroke=\"#ccc\"/>\n"
        var row = 0
        func legend(_ symbol: String, _ label: String) {
            let cy = ly + 20 + Double(row) * lineH
            s +=
                "<g transform=\"translate(\(formatFixed(lx + 12, decimals: 1)),\(formatFixed(cy, decimals: 1)))\">\(symbol)</g>"
            s +=
                "<text x=\"\(formatFixed(lx + 46, decimals: 1))\" y=\"\(formatFixed(cy + 4, decimals: 1))\">\(label)</text>\n"
            row += 1
        }
        legend("<line x1=\"0\" y1=\"0\" x2=\"24\" y2=\"0\" stroke=\"#222\" stroke-width=\"2\"/>", "touch path")
        legend("<circle cx=\"12\" cy=\"0\" r=\"5\" fill=\"#2ca02c\"/>", "finger down")
        legend("<rect x=\"8\" y=\"-4\" width=\"8\" height=\"8\" fill=\"#d62728\"/>", "finger up")
        legend(
            "<path d=\"M7,-5 l10,10 m0,-10 l-10,10\" stroke=\"#d62728\" stroke-width=\"3\"/>",
            "touch cancelled (pen, palm)")
        let cc = Explanation.colour(.circle)
        legend(
            "<line x1=\"0\" y1=\"0\" x2=\"24\" y2=\"0\" stroke=\"\(cc)\" stroke-width=\"2.5\" stroke-dasharray=\"8,4\"/>",
            "circle: fitted circle, + centre")
        legend(
            "<line x1=\"0\" y1=\"0\" x2=\"24\" y2=\"0\" stroke=\"\(cc)\" stroke-width=\"2\" stroke-dasharray=\"2,3\"/>",
            "circle: ellipse, as an oval")
        legend(
            "<rect x=\"4\" y=\"-6\" width=\"16\" height=\"12\" fill=\"\(cc)\" fill-opacity=\"0.1\" stroke=\"\(cc)\"/>",
            "circle: inner box (keep out)")
        legend(
            "<circle cx=\"12\" cy=\"0\" r=\"4.5\" fill=\"\(cc)\" fill-opacity=\"0.5\"/>",
            "sharpest turns (circle, checkmark)")
        legend(
            "<rect x=\"2\" y=\"-6\" width=\"20\" height=\"12\" fill=\"none\" stroke=\"#555\" stroke-dasharray=\"2,3\"/>",
            "stroke bounding box")
        legend("<path d=\"M7,-5 l10,10 M17,-5 l-10,10\" stroke=\"#555\" stroke-width=\"2.5\"/>", "hook cut off here")
        let ck = Explanation.colour(.checkmark)
        legend("<path d=\"M12,-6 l6,6 l-6,6 l-6,-6 z\" fill=\"\(ck)\"/>", "checkmark: vertex")
        legend(
            "<polyline points=\"0,-5 8,5 24,-7\" fill=\"none\" stroke=\"\(ck)\" stroke-width=\"2\" stroke-dasharray=\"6,3\"/>",
            "checkmark: arms measured")
        legend(
            "<circle cx=\"12\" cy=\"0\" r=\"7\" fill=\"\(Explanation.colour(.tickle))\"/><text x=\"12\" y=\"4\" text-anchor=\"middle\" font-size=\"10\" fill=\"white\">1</text>",
            "tickle: reversals, in order")
        legend(
            "<circle cx=\"12\" cy=\"0\" r=\"7\" fill=\"\(Explanation.colour(.tap))\" fill-opacity=\"0.1\" stroke=\"\(Explanation.colour(.tap))\" stroke-dasharray=\"4,3\"/>",
            "tap: allowed movement")
        legend(
            "<line x1=\"0\" y1=\"0\" x2=\"24\" y2=\"0\" stroke=\"\(Explanation.colour(.shape))\" stroke-width=\"3\" stroke-dasharray=\"7,4\"/>",
            "shape: closest example")
        legend(
            "<line x1=\"0\" y1=\"0\" x2=\"24\" y2=\"0\" stroke=\"\(SVGCanvas.farExample)\" stroke-width=\"2\" stroke-dasharray=\"7,4\"/>",
            "shape: example too far")
        s +=
            "<text x=\"\(formatFixed(lx + 12, decimals: 1))\" y=\"\(formatFixed(ly + 20 + Double(row) * lineH + 4, decimals: 1))\" fill=\"#555\">✓ recognized  ✗ failed  — cancelled</text>\n"
        s += "</g>\n"
        return s
    }

    /// Decisions, one line each, under the drawing.
    func decisionLines(_ decisions: [Explanation.Decision], setAside: [SetAsideTouch]) -> String {
        var s = "<g class=\"decisions\">\n"
        s += "<text x=\"\(pad)\" y=\"\(formatFixed(textTop - 6, decimals: 1))\" font-weight=\"bold\">Decisions</text>\n"
        for (i, d) in decisions.enumerated() {
            let ty = textTop + 14 + Double(i) * lineH
            let text = Explanation.line(d, numbered: decisions.contains { $0.sequence != d.sequence })
            let weight = d.state == .recognized || d.state == .ended ? " font-weight=\"bold\"" : ""
            s +=
                "<text class=\"decision\" data-recognizer=\"\(Explanation.escape(d.name))\" data-state=\"\(d.state.rawValue)\" x=\"\(pad)\" y=\"\(formatFixed(ty, decimals: 1))\" fill=\"\(Explanation.colour(d.kind))\"\(weight)>\(Explanation.escape(text))</text>\n"
        }
        for (i, t) in setAside.enumerated() {
            let ty = textTop + 14 + Double(decisions.count + i) * lineH
            s +=
                "<text class=\"set-aside\" x=\"\(pad)\" y=\"\(formatFixed(ty, decimals: 1))\" fill=\"#555\">\(Explanation.escape(Explanation.line(t)))</text>\n"
        }
        s += "</g>\n"
        return s
    }
}

extension Explanation {

    /// A touch set aside as it landed, in words.
    public static func line(_ t: SetAsideTouch) -> String {
        "– \(t.touches()) at \(formatFixed(t.time.seconds, decimals: 3)) s \(t.outcome)"
    }

    /// One decision in words: mark, name, kind, state, and the reason or what it reported.
    static func line(_ d: Decision, numbered: Bool) -> String {
        let mark: String
        switch d.state {
        case .recognized, .ended: mark = "✓"
        case .failed: mark = "✗"
        default: mark = "—"
        }
        var text = "\(mark) \(d.name) (\(d.kind.rawValue)): \(d.state.rawValue)"
        if let r = d.reason { text += " — \(r)" } else if let note = summary(d) { text += " — \(note)" }
        return numbered ? "[\(d.sequence)] " + text : text
    }

    /// What a recognized gesture reported, in words.
    public static func summary(_ d: Decision) -> String? {
        switch d.detail {
        case .circle(let c, let r, let err, let cw, let swept):
            // Taken as an oval: its fit error is the distance from its ellipse.
            let oval =
                d.evidence?.oval.map {
                    "; an oval: aspect \(formatFixed($0.aspect, decimals: 2)), \(formatFixed($0.error, decimals: 3)) from its ellipse (as a circle \(formatFixed($0.asCircle, decimals: 3)))"
                } ?? ""
            return
                "centre \(c), radius \(formatFixed(r, decimals: 1)) mm, fit error \(formatFixed(err, decimals: 3)), swept \(formatFixed(swept, decimals: 0))° \(cw ? "clockwise" : "counter-clockwise")\(oval)"
        case .checkmark(let v): return "vertex \(v)"
        case .tickle(let n): return "\(n) reversals"
        case .shape(let example, let distance, let reversed):
            return
                "example \(example) at distance \(formatFixed(distance, decimals: 3))\(reversed ? ", drawn the other way" : "")"
        case .tap(let n): return "\(n) tap\(n == 1 ? "" : "s")"
        case .pan(let t, _): return "moved \(t)"
        case .swipe(let direction, let t, let speed):
            return "\(direction.rawValue), moved \(t) at \(formatFixed(speed, decimals: 0)) mm/s"
        case .pinch(let scale): return "scale \(formatFixed(scale, decimals: 2))"
        case .rotate(let deg): return "turned \(formatFixed(deg, decimals: 0))°"
        case .none: return d.evidence?.notes.first
        }
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}

/// Renders an SVG file to PNG with `rsvg-convert` (Debian: librsvg2-bin).
public enum PNGRenderer {
    public static func render(svg: String, to png: String) throws {
        guard let tool = findTool("rsvg-convert") else {
            throw Replay.Failure(
                "rsvg-convert not found; install it (Debian: apt install librsvg2-bin) or use --svg only")
        }
        // A file of a name no one else can have taken first (mkstemps, O_EXCL).
        var template = Array((FileManager.default.temporaryDirectory.path + "/gesturectl-XXXXXX.svg").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
        guard fd >= 0 else { throw Replay.Failure("cannot make a temporary file for rsvg-convert: \(Errno.current)") }
        let tmp = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(tmp) }
        do throws(Errno) {
            try FileDescriptor(rawValue: fd).writeAll(svg)
            close(fd)
        } catch {
            close(fd)
            throw Replay.Failure("cannot write \(tmp) for rsvg-convert: \(error)")
        }
        let status = try run(tool, ["--background-color=white", "-o", png, tmp])
        guard status == 0 else {
            throw Replay.Failure("rsvg-convert failed (exit \(status))")
        }
    }

    /// Runs `tool` with `arguments`, our environment and descriptors, and waits:
    /// its exit status (128 + the signal that ended it).
    static func run(_ tool: String, _ arguments: [String]) throws -> Int32 {
        let argv = ([tool] + arguments).map { strdup($0) }
        defer { for a in argv { free(a) } }
        var pid: pid_t = 0
        let r = (argv + [nil]).withUnsafeBufferPointer { posix_spawn(&pid, tool, nil, nil, $0.baseAddress!, environ) }
        guard r == 0 else { throw Replay.Failure("cannot start \(tool): \(String(cString: strerror(r)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw Replay.Failure("waiting for \(tool): \(Errno.current)") }
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    public static func findTool(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
