import GestureConfig
import GestureCore
import GestureTools
import Testing

/// `gesturectl evaluate` with a taught shape in the config: the shape's own
/// class is the corpus class of its name.
@Suite struct TaughtShapeEvaluationTests {
    @Test func aTaughtShapeOwnsTheClassOfItsName() throws {
        let zig = ShapeTeaching.strokes(in: ShapeTeachingTests.zigzag(seed: 1)).strokes[0].points
        let table = ShapeTeaching.section(
            name: "triangle", examples: [zig], options: ShapeMatcher.Options(), maxDistance: 0.25)
        let config = try ConfigLoader.load(text: defaultConfigText + "\n" + table, file: "gestured.toml")
        func item(_ label: String, _ n: Int) -> CorpusItem {
            CorpusItem(
                label: label, subject: "s01", speed: "medium", source: "\(label)\(n).xml",
                input: .recording(path: "\(label)\(n).xml"))
        }
        let items = (1...4).map { item("triangle", $0) } + (1...6).map { item("star", $0) }
        var taken = Outcome()
        taken.accepted = ["triangle"]
        // Three triangles taken, one missed; one star taken for a triangle.
        let outcomes = [taken, taken, taken, Outcome()] + [taken] + Array(repeating: Outcome(), count: 5)
        let report = AccuracyReport(items: items, outcomes: outcomes, configuration: config)
        let r = try #require(report.recognizer("triangle"))
        #expect(r.ownClass == "triangle")
        #expect(r.overall.positives == 4 && r.overall.hits == 3)
        #expect(r.overall.negatives == 6 && r.overall.falseAccepts == 1)
        #expect(r.falseAcceptsByClass == ["star": 1])
        let text = report.text()
        #expect(text.contains("triangle (shape): recall on triangle (a taught shape: the class of its name)"))
        #expect(!text.contains("triangle (shape): no class"))
        // The built-in shapes keep their classes.
        #expect(report.recognizer("circle")?.ownClass == nil)
    }
}
