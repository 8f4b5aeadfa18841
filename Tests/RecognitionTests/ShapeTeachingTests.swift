import Foundation
import GestureConfig
import GestureCore
import GestureTools
import Testing

/// `gesturectl shape record`'s parts: strokes out of frames, the table that
/// teaches them, and who else would take them.
@Suite struct ShapeTeachingTests {
    /// A zigzag (three legs, like an N turned on its side) drawn at `scale`,
    /// with seeded jitter: one frame every 10 ms.
    static func zigzag(seed: UInt64, scale: Double = 1, id: UInt64 = 1, start: Double = 1) -> [TouchFrame] {
        var rng = SplitMix64(seed: seed)
        let corners = [Point(x: 0, y: 0), Point(x: 30, y: 0), Point(x: 0, y: 25), Point(x: 30, y: 25)]
        var pts: [Point] = []
        for (a, b) in zip(corners, corners.dropFirst()) {
            for i in 0..<15 {
                let t = Double(i) / 15
                pts.append(
                    Point(
                        x: 20 + scale * (a.x + (b.x - a.x) * t) + rng.uniform(-0.4...0.4),
                        y: 20 + scale * (a.y + (b.y - a.y) * t) + rng.uniform(-0.4...0.4)))
            }
        }
        pts.append(Point(x: 20 + scale * 30, y: 20 + scale * 25))
        return frames(pts, id: id, start: start)
    }

    static func frames(_ pts: [Point], id: UInt64, start: Double) -> [TouchFrame] {
        let area = Point(x: 150, y: 100)
        var out: [TouchFrame] = []
        for (i, p) in pts.enumerated() {
            let phase: TouchPhase = i == 0 ? .began : (i == pts.count - 1 ? .ended : .moved)
            let time = EventTime.seconds(start + Double(i) * 0.01)
            let touch = Touch(
                id: TouchID(raw: id), slot: 0, trackingID: Int32(id), phase: phase, position: p,
                normalised: Point(x: p.x / area.x, y: p.y / area.y), startTime: EventTime.seconds(start),
                startPosition: pts[0])
            out.append(TouchFrame(time: time, device: "panel", touches: [touch], areaMM: area))
        }
        return out
    }

    @Test func oneFingerStrokesAreTakenAndTwoFingerOnesSkipped() throws {
        var frames = Self.zigzag(seed: 1) + Self.zigzag(seed: 2, id: 2, start: 3)
        // A second finger joins a third stroke halfway: not a one-finger stroke.
        var two = Self.zigzag(seed: 3, id: 3, start: 5)
        for i in 20..<two.count - 1 {
            let extra = Touch(
                id: TouchID(raw: 4), slot: 1, trackingID: 4, phase: i == 20 ? .began : .moved,
                position: Point(x: 100, y: 50), normalised: Point(x: 0.6, y: 0.5),
                startTime: two[20].time, startPosition: Point(x: 100, y: 50))
            two[i].touches.append(extra)
        }
        var lift = two[two.count - 1]
        lift.touches.append(
            Touch(
                id: TouchID(raw: 4), slot: 1, trackingID: 4, phase: .ended, position: Point(x: 100, y: 50),
                normalised: Point(x: 0.6, y: 0.5), startTime: two[20].time, startPosition: Point(x: 100, y: 50)))
        two[two.count - 1] = lift
        frames += two
        let (strokes, skipped) = ShapeTeaching.strokes(in: frames)
        #expect(strokes.count == 2)
        #expect(skipped == 1)
        #expect(
            strokes[0].points.first == Point(x: frames[0].touches[0].position.x, y: frames[0].touches[0].position.y))
        #expect(abs(strokes[0].durationMs - 450) < 1)
    }

    /// A stroke taught once, as the table writes it (at most 48 points, to
    /// 0.1 mm), is matched to itself nearly exactly: the points kept are the
    /// tips and corners (here at most 0.014 apart). Picked evenly by index, a
    /// star's tips were cut, and s02's medium star01 lay 0.12 from itself: a
    /// quarter of the max_distance its table was given.
    @Test func aStrokeTaughtOnceMatchesItselfClosely() throws {
        var worst = (distance: 0.0, stroke: "")
        for subject in ["s01", "s02", "s03"] {
            for name in ["star01", "star05", "x05", "rectangle05", "arrow05", "left_curly_brace05", "check05"] {
                let path = fixturesDir + "/dollar1/\(subject)/medium/\(name).xml"
                let frames = StrokeFrames.frames(of: try DollarXML.load(path: path))
                let stroke = try #require(ShapeTeaching.reader(of: frames).strokes.first).points
                let taught = ShapeTeaching.asWritten(ShapeTeaching.thinned(stroke))
                #expect(taught.count <= 48)
                let d = try #require(ShapeMatcher(examples: [taught], options: .init()).closest(stroke)).distance
                if d > worst.distance { worst = (d, "\(subject)/\(name)") }
            }
        }
        #expect(worst.distance < 0.025, "\(worst)")
        // A straight stroke keeps its points too (none lies off the line between its ends).
        let line = (0..<50).map { Point(x: 40 + 0.25 * Double($0), y: 40) }
        let thinned = ShapeTeaching.thinned(line)
        #expect(thinned.count == 48 && thinned.first == line.first && thinned.last == line.last)
        #expect(ShapeTeaching.reader(of: Self.frames(line, id: 1, start: 0)).strokes.count == 1)
    }

    /// The table printed loads as gestured loads it, and the shape it teaches
    /// takes a new zigzag of another size, not a straight swipe.
    @Test func theTableTeachesTheShape() throws {
        let strokes = (1...3).flatMap { ShapeTeaching.strokes(in: Self.zigzag(seed: UInt64($0))).strokes }
        #expect(strokes.count == 3)
        let examples = strokes.map { ShapeTeaching.thinned($0.points) }
        #expect(examples.allSatisfy { $0.count <= 48 })
        let table = ShapeTeaching.section(
            name: "zed", examples: examples, options: ShapeMatcher.Options(),
            maxDistance: ShapeTeaching.suggestedMaxDistance(
                spread: ShapeMatcher(examples: examples, options: ShapeMatcher.Options()).spread))
        let config = try ConfigLoader.load(text: table, file: "taught.toml")
        let r = try #require(config.recognizers.first { $0.name == "zed" })
        guard case .shape(let p) = r.parameters else {
            Issue.record("not a shape: \(r.kind)")
            return
        }
        #expect(p.examples.count == 3)
        // Each example starts at 0,0 and keeps its shape to 0.1 mm.
        let d = zip(p.examples[1], examples[1]).map { a, b in
            (a - p.examples[1][0]).distance(to: b - examples[1][0])
        }
        #expect(d.max()! <= 0.08)

        func decided(_ frames: [TouchFrame]) -> [GestureEvent] {
            let arena = config.makeArena(device: "panel")
            var events: [GestureEvent] = []
            for f in frames { arena.handle(f, into: &events) }
            arena.advance(to: frames.last!.time + Millis(5000), into: &events)
            return events
        }
        let bigger = decided(Self.zigzag(seed: 9, scale: 1.6))
        #expect(bigger.contains { $0.name == "zed" && $0.state == .recognized })
        let line = Self.frames((0..<40).map { Point(x: 20 + Double($0), y: 30) }, id: 7, start: 1)
        let refused = decided(line)
        #expect(!refused.contains { $0.name == "zed" && $0.state == .recognized })
        #expect(refused.contains { $0.name == "zed" && $0.state == .failed })
    }

    /// A circle taught as a shape collides with the built-in circle, and the
    /// tool says so; a zigzag collides with nothing that recognizes strokes.
    @Test func collisionsWithTheConfigAreNamed() throws {
        let config = ConfigLoader.builtIn()
        let path = fixturesDir + "/dollar1/s01/medium/circle01.xml"
        let circle = try ShapeTeaching.strokes(in: Explanation.frames(of: path, configuration: config)).strokes
        #expect(circle.count == 1)
        #expect(ShapeTeaching.takers(of: circle[0], in: config).contains("circle"))
        let zig = ShapeTeaching.strokes(in: Self.zigzag(seed: 4)).strokes[0]
        let takers = ShapeTeaching.takers(of: zig, in: config)
        #expect(!takers.contains("circle") && !takers.contains("checkmark") && !takers.contains("tickle"))
    }

    /// Added to the shipped config as `shape record --into` adds it, the shape is
    /// recognized beside the pan that every stroke also is, and explain draws
    /// its closest example over the stroke, where the stroke is.
    @Test func aShapeAddedToTheShippedConfigIsRecognizedAndExplained() throws {
        let shipped = try String(contentsOfFile: fixturesDir + "/../../config/gestured.toml", encoding: .utf8)
        let base = try ConfigLoader.load(text: shipped, file: "gestured.toml")
        let relations = ShapeTeaching.relations(in: base)
        #expect(relations.requiresFailureOf == ["circle", "checkmark", "tickle"])
        #expect(Set(relations.simultaneousWith) == ["pan", "long_press"])
        let examples = (1...3).map { ShapeTeaching.strokes(in: Self.zigzag(seed: UInt64($0))).strokes[0].points }
        let table = ShapeTeaching.section(
            name: "zed", examples: examples, options: ShapeMatcher.Options(), maxDistance: 0.25,
            requiresFailureOf: relations.requiresFailureOf, simultaneousWith: relations.simultaneousWith)
        let config = try ConfigLoader.load(text: shipped + "\n" + table, file: "gestured.toml")
        let stroke = Self.zigzag(seed: 11, scale: 1.3)
        let e = Explanation(title: "zed", frames: stroke, configuration: config)
        let decision = try #require(e.decisions.first { $0.name == "zed" })
        #expect(decision.state == .recognized)
        #expect(e.decisions.contains { $0.name == "pan" && $0.state == .ended })
        let placed = try #require(e.closestExamples.first { $0.name == "zed" })
        #expect(placed.distance <= 0.25)
        let path = stroke.map { $0.touches[0].position }
        let gap = placed.points.map { q in path.map { $0.distance(to: q) }.min()! }
        #expect(gap.reduce(0, +) / Double(gap.count) < 2.0)
        #expect(e.svg().contains("class=\"closest-example\" data-recognizer=\"zed\""))
    }

    @Test func namesThatAreNotBareKeysAreQuoted() throws {
        for name in ["plain_name-2", "two words", "with \"quotes\" and \\", "café"] {
            let z = ShapeTeaching.strokes(in: Self.zigzag(seed: 5)).strokes[0].points
            let table = ShapeTeaching.section(
                name: name, examples: [z], options: ShapeMatcher.Options(orientation: .any, direction: .either),
                maxDistance: 0.3)
            let config = try ConfigLoader.load(text: table, file: "taught.toml")
            #expect(config.recognizers.map(\.name) == [name])
        }
    }

    /// The recognizer scales max_distance by its examples' spread; the table
    /// written for loosely drawn examples keeps the default, so that their bound
    /// is loosened once, not twice; only examples further apart than consistent
    /// ones (taught with --force) get a lower one, their bound kept to the cap.
    @Test func theSuggestedThresholdIsTheDefaultUpToTheCap() {
        let fallback = ShapeRecognizer.Parameters().maxDistance
        #expect(abs(ShapeTeaching.boundCap - 0.918) < 0.001)
        for spread in [0.0, 0.05, ShapeMatcher.referenceSpread, 0.3, fallback] {
            #expect(ShapeTeaching.suggestedMaxDistance(spread: spread) == fallback, "\(spread)")
        }
        for spread in [0.6, 1.0, 3.7, 9.0] {
            let d = ShapeTeaching.suggestedMaxDistance(spread: spread)
            #expect(d < fallback)
            let scale = ShapeMatcher.boundScale(spread: spread)
            // The largest hundredth whose bound stays within the cap.
            #expect(d * scale <= ShapeTeaching.boundCap, "\(spread): \(d)")
            #expect((d + 0.01) * scale > ShapeTeaching.boundCap, "\(spread): \(d)")
        }
    }

    /// A tap, a touch of three points and a short slide are skipped as they are
    /// read, each with its reason, and the strokes around them are taken: no
    /// run is refused at the end for them.
    @Test func tapsAndShortTouchesAreSkippedWithTheirReason() {
        let tap = Self.frames([Point(x: 40, y: 40), Point(x: 40, y: 40)], id: 2, start: 2)
        let three = Self.frames([Point(x: 40, y: 40), Point(x: 45, y: 40), Point(x: 50, y: 41)], id: 3, start: 3)
        let short = Self.frames((0..<12).map { Point(x: 40 + 0.4 * Double($0), y: 40) }, id: 4, start: 4)
        let frames = Self.zigzag(seed: 1) + tap + three + short + Self.zigzag(seed: 2, id: 5, start: 6)
        let r = ShapeTeaching.reader(of: frames)
        #expect(r.strokes.count == 2)
        #expect(r.skips.count == 3)
        #expect(r.skips.first == .tooFewPoints(1))
        #expect(r.skips.dropFirst().first == .tooFewPoints(3))
        guard r.skips.count == 3, case .tooShort(let mm) = r.skips[2] else {
            Issue.record("\(r.skips)")
            return
        }
        #expect(abs(mm - 4.4) < 0.01)
        #expect(r.skips[0].description.hasPrefix("a tap"))
        #expect(r.skips[2].description.hasPrefix("too short: 4.4 mm"))
        #expect(ShapeTeaching.summary(of: r.skips) == "a tap; too few points; too short")
        // A recording that ends with the finger down: that touch is no example, and says so.
        let cut = Array(Self.zigzag(seed: 7, id: 9, start: 9).dropLast())
        let unfinished = ShapeTeaching.reader(of: Self.zigzag(seed: 1) + cut)
        #expect(unfinished.strokes.count == 1)
        #expect(unfinished.skips == [.notLifted])
        #expect(unfinished.skips.first?.description.hasPrefix("still down when the recording ended") == true)
        // Every stroke taken loads as an example.
        let table = ShapeTeaching.section(
            name: "zed", examples: r.strokes.map { ShapeTeaching.thinned($0.points) }, options: ShapeMatcher.Options(),
            maxDistance: 0.51)
        #expect(throws: Never.self) { try ConfigLoader.load(text: table, file: "t.toml") }
    }
}
