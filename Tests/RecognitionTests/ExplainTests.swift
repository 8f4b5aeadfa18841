import Foundation
import GestureConfig
import GestureCore
import GestureTools
import Testing

@Suite("explain's picture")
struct ExplainTests {
    let config = ConfigLoader.builtIn()

    func explain(_ path: String) throws -> (Explanation, String) {
        let frames = try Explanation.frames(of: path, configuration: config)
        let e = Explanation(title: "test", frames: frames, configuration: config)
        return (e, e.svg())
    }

    /// The value of `name="…"` in the first element of class `cls`.
    func attribute(_ name: String, ofClass cls: String, in svg: String) -> String? {
        guard let start = svg.range(of: "class=\"\(cls)\"") else { return nil }
        let tagStart = svg[..<start.lowerBound].lastIndex(of: "<")!
        let tag = svg[tagStart...].prefix { $0 != ">" }
        guard let a = tag.range(of: " \(name)=\"") else { return nil }
        return String(tag[a.upperBound...].prefix { $0 != "\"" })
    }

    /// The PNG is rendered by rsvg-convert from a temporary file of its own
    /// (mkstemps: no name another user could take first), which is gone after.
    @Test(.enabled(if: PNGRenderer.findTool("rsvg-convert") != nil, "rsvg-convert (librsvg2-bin) is not installed"))
    func aPNGIsRenderedAndItsTemporaryFileRemoved() throws {
        let (_, svg) = try explain(fixturesDir + "/dollar1/s01/medium/circle01.xml")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("explain-png-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()))
        let png = dir.appendingPathComponent("circle.png").path
        try PNGRenderer.render(svg: svg, to: png)
        let bytes = try #require(FileManager.default.contents(atPath: png))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let after = Set(try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()))
        #expect(after.subtracting(before).filter { $0.hasPrefix("gesturectl-") }.isEmpty)
    }

    @Test func aCircleShowsItsFittedCircleCentreInnerBoxAndDecision() throws {
        let (e, svg) = try explain(fixturesDir + "/dollar1/s01/medium/circle01.xml")
        let decision = try #require(e.decisions.first { $0.name == "circle" })
        #expect(decision.state == .recognized)
        guard case .circle(let centre, let radius, _, _, _) = decision.detail else {
            Issue.record("no circle")
            return
        }
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.hasSuffix("</svg>\n"))
        // The fitted circle, with the radius the recognizer reported.
        let mm = try #require(attribute("data-radius-mm", ofClass: "fitted-circle", in: svg).flatMap(Double.init))
        #expect(abs(mm - radius) < 0.01)
        let evidence = try #require(decision.evidence?.circle)
        #expect(evidence.center == centre)
        let r = try #require(attribute("r", ofClass: "fitted-circle", in: svg).flatMap(Double.init))
        // r in px / radius in mm is the drawing's scale; the 10 mm scale bar is drawn at it.
        let scale = r / radius
        #expect(scale >= 2 && scale <= 20)
        let bar = try #require(svg.components(separatedBy: "class=\"scale-bar\"").dropFirst().first)
        let x1 = try #require(
            attribute("x1", ofClass: "bar", in: bar.replacingOccurrences(of: "<line ", with: "<line class=\"bar\" "))
                .flatMap(Double.init))
        let x2 = try #require(
            attribute("x2", ofClass: "bar", in: bar.replacingOccurrences(of: "<line ", with: "<line class=\"bar\" "))
                .flatMap(Double.init))
        #expect(abs((x2 - x1) - 10 * scale) < 0.2, "10 mm bar: \(x2 - x1) px at \(scale) px/mm")
        for cls in ["centre", "inner-box", "touch-path", "touch-start", "touch-end", "scale-bar", "legend", "decision"]
        {
            #expect(svg.contains("class=\"\(cls)\""), "\(cls)")
        }
        #expect(svg.contains("circle (circle): recognized — centre"))
        #expect(svg.contains("10 mm</text>"))
        #expect(svg.contains("✗ checkmark (checkmark): failed — excluded: circle was recognized first"))
    }

    @Test func aFailedCircleSaysWhyAndAPolygonShowsItsCorners() throws {
        let (e, svg) = try explain(fixturesDir + "/dollar1/s01/medium/rectangle01.xml")
        let circle = try #require(e.decisions.first { $0.name == "circle" })
        #expect(circle.state == .failed)
        let reason = try #require(circle.reason)
        // The rectangle turns at its corners: the circle's own finding, not the arena's.
        guard case .circle(.corners) = reason else {
            Issue.record("\(reason)")
            return
        }
        let escaped = reason.description.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
            of: ">", with: "&gt;"
        )
        .replacingOccurrences(of: "<", with: "&lt;")
        #expect(svg.contains("circle (circle): failed — \(escaped)"))
        #expect(svg.contains("class=\"sharp-turn\""))
    }

    @Test func aCheckmarkShowsItsVertexAndArms() throws {
        let (e, svg) = try explain(fixturesDir + "/dollar1/s03/medium/check02.xml")
        #expect(e.decisions.contains { $0.name == "checkmark" && $0.state == .recognized })
        #expect(svg.contains("class=\"vertex\""))
        #expect(svg.contains("class=\"chords\""))
        #expect(svg.contains("checkmark (checkmark): recognized — vertex"))
    }

    @Test func aTickleShowsItsReversalsInOrder() throws {
        let (e, svg) = try explain(fixturesDir + "/tickle/fast/tickle01.xml")
        let tickle = try #require(e.decisions.first { $0.name == "tickle" })
        #expect(tickle.state == .recognized)
        #expect(svg.components(separatedBy: "class=\"reversal\"").count - 1 == 4)
    }

    @Test func aRecordingOfTapsShowsTapRadiiAndNumberedSequences() throws {
        let (e, svg) = try explain(fixturesDir + "/recordings/Atmel-maXTouch-Touchscreen.1-finger-fast-taps.events")
        #expect(e.paths.count == 9)
        #expect(svg.contains("class=\"tap-radius\""))
        #expect(attribute("data-radius-mm", ofClass: "tap-radius", in: svg) == "5.00")
        #expect(svg.contains("[2] ✓ double_tap (tap): recognized — 2 taps"))
    }

    /// A type A recording (no slots) is drawn as replay reads it, through
    /// libmtdev: the N-Trig's contacts (up to four at once) as touches, and
    /// the recognizers' decisions about three fingers.
    @Test func aTypeARecordingIsDrawnThroughLibmtdev() throws {
        let (e, svg) = try explain(fixturesDir + "/recordings/ntrig-dell-xt2.event")
        #expect(e.paths.count == 4, "\(e.paths.count) touches")
        #expect(e.decisions.contains { $0.name == "tap" && $0.reason?.description == "3 fingers > 1" })
        #expect(svg.contains("4 touches"))
    }

    /// The distance explain draws the closest example at is the one the
    /// recognizer decided on, for a stroke of thousands of points too (the
    /// recognizer thins it; explain thins it the same way).
    @Test func theClosestExampleIsDrawnAtTheDistanceDecidedOn() throws {
        let corners = [
            Point(x: 8, y: 38), Point(x: 20, y: 0), Point(x: 32, y: 38), Point(x: 0, y: 14), Point(x: 40, y: 14),
            Point(x: 8, y: 38),
        ]
        func star(step: Double) -> [Point] {
            var out = [corners[0]]
            for (a, b) in zip(corners, corners.dropFirst()) {
                let n = max(1, Int((b - a).length / step))
                for k in 1...n { out.append(a + (b - a) * (Double(k) / Double(n))) }
            }
            return out
        }
        var p = ShapeRecognizer.Parameters()
        p.examples = [star(step: 1)]
        p.maxDuration = Millis(60_000)
        let c = Configuration(recognizers: [RecognizerConfig(name: "star", parameters: .shape(p))])
        // 6,000 points 0.04 mm apart, a tilt and a wobble so that it is no copy of the example.
        let drawn = star(step: 0.04).enumerated().map { i, q in
            Point(x: 20 + q.x * 1.1 + 0.3 * sin(Double(i) / 40), y: 20 + q.y * 1.1 + q.x * 0.05)
        }
        let stroke = LabelledStroke(
            label: "star", subject: "-", speed: "-", source: "test", points: drawn.map { $0 * 4.5 },
            times: drawn.indices.map { Double($0) * 4 })
        let e = Explanation(title: "t", frames: StrokeFrames.frames(of: stroke), configuration: c)
        let decided = try #require(e.decisions.first { $0.name == "star" })
        guard case .shape(_, let distance, _) = decided.detail else {
            Issue.record("not recognized: \(String(describing: decided.reason))")
            return
        }
        let drawnAt = try #require(e.closestExamples.first).distance
        #expect(abs(drawnAt - distance) < 1e-9, "drawn at \(drawnAt), decided at \(distance)")
    }

    /// A circle taken as an oval says so: its fit error is the distance from
    /// its ellipse, not from the circle drawn.
    @Test func anOvalIsSaidToBeOne() throws {
        // An ellipse 30 × 16.5 mm (aspect 0.55), a little overdrawn, 100 points over 0.8 s.
        let points = (0...100).map { i -> Point in
            let a = 2 * Double.pi * Double(i) / 100 * 1.02
            return Point(x: 100 + 15 * cos(a), y: 60 + 8.25 * sin(a))
        }
        let stroke = LabelledStroke(
            label: "circle", subject: "-", speed: "-", source: "test", points: points.map { $0 * 4.5 },
            times: points.indices.map { Double($0) * 8 })
        let e = Explanation(title: "oval", frames: StrokeFrames.frames(of: stroke), configuration: config)
        let circle = try #require(e.decisions.first { $0.name == "circle" })
        let summary = try #require(Explanation.summary(circle))
        #expect(summary.contains("; an oval: aspect 0.6"), "\(summary)")
        // Its ellipse is drawn over the stroke: semi-axes 15 and 8.25 mm, from
        // the outline's second moments (a point every 7.5°), within what the
        // measure rounds an oval (it reads aspect 0.61 for 0.55: 14.1 × 8.6).
        let ellipse = try #require(circle.evidence?.oval?.ellipse)
        #expect(ellipse.count >= 24)
        var mean = Point.zero
        for p in ellipse { mean += p }
        mean = mean / Double(ellipse.count)
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for p in ellipse {
            let d = p - mean
            sxx += d.x * d.x / Double(ellipse.count)
            syy += d.y * d.y / Double(ellipse.count)
            sxy += d.x * d.y / Double(ellipse.count)
        }
        let half = (sxx + syy) / 2, spread = (half * half - (sxx * syy - sxy * sxy)).squareRoot()
        let major = (2 * (half + spread)).squareRoot(), minor = (2 * (half - spread)).squareRoot()
        #expect(
            abs(major - 15) < 1.2 && abs(minor - 8.25) < 0.6 && abs(mean.x - 100) < 0.5, "semi-axes \(major), \(minor)")
        #expect(e.svg().contains("class=\"fitted-ellipse\""))
        // A round one does not.
        let (round, _) = try explain(fixturesDir + "/dollar1/s01/medium/circle01.xml")
        let roundCircle = try #require(round.decisions.first { $0.name == "circle" })
        #expect(Explanation.summary(roundCircle)?.contains("oval") == false)
        #expect(!round.svg().contains("class=\"fitted-ellipse\""))
    }

    @Test func textIsEscaped() throws {
        let frames = try Explanation.frames(of: fixturesDir + "/dollar1/s01/medium/circle01.xml", configuration: config)
        let svg = Explanation(title: "a <b> & \"c\"", frames: frames, configuration: config).svg()
        #expect(svg.contains("a &lt;b&gt; &amp; &quot;c&quot;"))
    }
}
