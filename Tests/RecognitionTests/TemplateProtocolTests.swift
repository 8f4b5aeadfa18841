import Foundation
import GestureConfig
import GestureCore
import GestureTools
import Testing

/// `gesturectl evaluate --templates`: a shape taught with a subject's own strokes,
/// tried on that subject's others.
@Suite("evaluate: template protocol")
struct TemplateProtocolTests {
    static func subjects(_ names: String...) throws -> [CorpusItem] {
        try DollarOne.items(names, mirrorCircles: false)
    }

    @Test func theArenaDecidesWhatTheProtocolCounts() throws {
        let items = try Self.subjects("s01")
        let px = StrokeFrames.defaultPxPerMM
        func mm(_ item: CorpusItem) -> [Point] {
            guard case .stroke(let s) = item.input else { return [] }
            return s.points.map { Point(x: $0.x / px, y: $0.y / px) }
        }
        let triangles = items.filter { $0.label == "triangle" }
        var p = ShapeRecognizer.Parameters()
        p.examples = triangles.prefix(3).map(mm)
        let config = Configuration(recognizers: [RecognizerConfig(name: "taught", parameters: .shape(p))])
        let evaluator = Evaluator(configuration: config, pxPerMM: px)
        let matcher = ShapeMatcher(examples: p.examples, options: p.matcherOptions)
        var accepted = 0
        // Every fifth stroke of the subject: triangles and all the other classes.
        for item in items.enumerated().filter({ $0.offset % 5 == 0 }).map(\.element) + triangles.dropFirst(3) {
            guard case .stroke(let s) = item.input else { continue }
            let points = mm(item)
            var length = 0.0
            for k in points.indices.dropFirst() { length += points[k].distance(to: points[k - 1]) }
            let took = (s.times.last ?? 0) - (s.times.first ?? 0)
            let expected =
                length >= p.minLengthMM && took <= p.maxDuration.value
                && (matcher.closest(points)?.distance ?? .infinity) <= matcher.bound(maxDistance: p.maxDistance)
            let arena = try evaluator.outcome(of: item).accepted.contains("taught")
            #expect(arena == expected, "\(item.source)")
            if arena { accepted += 1 }
        }
        #expect(accepted >= 20, "most of the 27 other triangles")
    }

    /// Stars, arrows, pigtails and x's are drawn loosely: three examples of one
    /// do not span the person's others. With the synthetic variants of each
    /// example, most of them are recognized, and still none of the person's
    /// other strokes.
    @Test func looselyDrawnShapesAreRecognizedFromThreeExamples() throws {
        let px = StrokeFrames.defaultPxPerMM
        func mm(_ item: CorpusItem) -> [Point] {
            guard case .stroke(let s) = item.input else { return [] }
            return s.points.map { Point(x: $0.x / px, y: $0.y / px) }
        }
        let p = ShapeRecognizer.Parameters()
        var hits = 0, positives = 0, falseAccepts = 0, negatives = 0
        for subject in ["s01", "s02", "s03", "s04", "s05"] {
            let items = try Self.subjects(subject)
            for label in ["star", "arrow", "pigtail", "x"] {
                let own = items.filter { $0.label == label }
                let matcher = ShapeMatcher(examples: own.prefix(3).map(mm), options: p.matcherOptions)
                let bound = matcher.bound(maxDistance: p.maxDistance)
                for item in own.dropFirst(3) {
                    positives += 1
                    if (matcher.closest(mm(item))?.distance ?? .infinity) <= bound { hits += 1 }
                }
                for item in items where item.label != label && !item.mirrored {
                    negatives += 1
                    if (matcher.closest(mm(item))?.distance ?? .infinity) <= bound { falseAccepts += 1 }
                }
            }
        }
        #expect(positives == 5 * 4 * 27)
        #expect(hits >= 390, "\(hits) of \(positives)")
        #expect(falseAccepts <= 0, "\(falseAccepts) of \(negatives)")
    }

    @Test func eachSubjectsStrokesAreCountedOncePerDrawAndTheDrawsAreSeeded() throws {
        // Six of the sixteen classes keep the two runs short; the counts follow from them.
        let classes: Set<String> = ["triangle", "x", "rectangle", "circle", "check", "star"]
        let items = try Self.subjects("s01", "s02").filter { classes.contains($0.label) }
        let p = ShapeRecognizer.Parameters()
        let run = TemplateProtocol.run(
            items: items, parameters: p, pxPerMM: StrokeFrames.defaultPxPerMM, exampleCounts: [1, 3], draws: 2,
            seed: 7)
        // 6 classes of 30 strokes per subject: n examples, 30 − n positives, 150 negatives, per draw.
        let s01 = try #require(run.rows.first { $0.subject == "s01" && $0.examples == 3 })
        #expect(s01.tally.positives == 6 * 27 * 2)
        #expect(s01.tally.negatives == 6 * 150 * 2)
        let all1 = try #require(run.rows.first { $0.subject == "all" && $0.examples == 1 })
        #expect(all1.tally.positives == 2 * 6 * 29 * 2)
        #expect(run.folds.map(\.heldOut) == ["s01", "s02"])
        #expect(run.losoPooled.positives == 2 * 6 * 27 * 2)
        #expect(run.folds.allSatisfy { (0.01...2).contains($0.chosenMaxDistance) })
        // With 3 examples a person's own shapes are mostly recognized and the others mostly not.
        let all3 = try #require(run.rows.first { $0.subject == "all" && $0.examples == 3 })
        #expect(all3.tally.recall > 0.8)
        #expect(all3.tally.falseAcceptRate < 0.01)

        let again = TemplateProtocol.run(
            items: items, parameters: p, pxPerMM: StrokeFrames.defaultPxPerMM, exampleCounts: [1, 3], draws: 2,
            seed: 7)
        #expect(again.rows.map(\.tally) == run.rows.map(\.tally))
        let text = run.text()
        #expect(text.contains("leave one subject out, 3 examples"))
        #expect(text.contains("chosen the same way on every subject"))
    }
}

@Suite("a taught shape beside the built-in ones")
struct TaughtShapeBesideBuiltInsTests {
    @Test func theBuiltInShapesDecideTheSameWithAZedTaught() throws {
        let path = fixturesDir + "/../../config/examples/taught-shape.toml"
        let taught = try ConfigLoader.load(text: try String(contentsOfFile: path, encoding: .utf8), file: path)
        let plain = ConfigLoader.builtIn()
        let items =
            try DollarOne.items(mirrorCircles: false) + Corpus.load([fixturesDir + "/tickle"], mirrorCircles: false)
        // Every sixth stroke: all classes, subjects and speeds.
        let sample = items.enumerated().filter { $0.offset % 6 == 0 }.map(\.element)
        let with = try Evaluator(configuration: taught).outcomes(of: sample)
        let without = try Evaluator(configuration: plain).outcomes(of: sample)
        var zed = 0
        for (i, item) in sample.enumerated() {
            #expect(with[i].accepted.subtracting(["zed"]) == without[i].accepted, "\(item.source)")
            if with[i].accepted.contains("zed") { zed += 1 }
        }
        #expect(zed == 0, "no $1 class is a Z")
    }
}
