import GestureConfig
import GestureCore
import Testing

/// A `shape` recognizer's examples are written inline, so that a config stays
/// one file; `gesturectl check` and a reload read them like any other key.
@Suite("shape config")
struct ShapeConfigTests {
    func errors(_ text: String) -> [String] { configMessages(text, file: "t.toml") }

    static let zed = "[[0, 0], [10, 0], [20, 0], [10, 10], [0, 20], [10, 20], [20, 20]]"

    @Test func examplesAndOptionsAreRead() throws {
        let c = try ConfigLoader.load(
            text: """
                [recognizer.zed]
                kind = "shape"
                examples = [
                    \(Self.zed),
                    [[1, 1], [11, 1], [21, 2], [11, 11], [1, 21], [11, 21], [21.5, 21]],
                ]
                orientation = "any"
                direction = "either"
                max_distance = 0.3
                requires_failure_of = ["tap"]

                [recognizer.tap]
                kind = "tap"
                """, file: "t.toml")
        guard case .shape(let p) = c.recognizers[0].parameters else {
            Issue.record("not a shape")
            return
        }
        #expect(p.examples.count == 2)
        #expect(p.examples[1][6] == Point(x: 21.5, y: 21))
        #expect(p.orientation == .any)
        #expect(p.direction == .either)
        #expect(p.maxDistance == 0.3)
        #expect(c.recognizers[0].requiresFailureOf == ["tap"])
    }

    @Test func aShapeWithoutExamplesIsAnError() {
        #expect(
            errors("[recognizer.zed]\nkind = \"shape\"\n") == [
                "t.toml:1: recognizer.zed: missing 'examples': a shape recognizer needs 1 to 64 example strokes, examples = [[[x, y], …], …] in mm"
            ])
    }

    @Test func badExamplesAreErrorsWithTheirLineAndWhatIsWrong() {
        #expect(
            errors("[recognizer.z]\nkind = \"shape\"\nexamples = []\n") == [
                "t.toml:3: recognizer.z.examples: expected 1 to 64 example strokes, got 0"
            ])
        #expect(
            errors("[recognizer.z]\nkind = \"shape\"\nexamples = [[1, 2], [3, 4]]\n") == [
                "t.toml:3: recognizer.z.examples: expected a list of strokes [[[x, y], …], …], got one stroke of 2 points: put it in a list, [[[x, y], …]]"
            ])
        #expect(
            errors("[recognizer.z]\nkind = \"shape\"\nexamples = [[1, 2]]\n") == [
                "t.toml:3: recognizer.z.examples: example 0: expected 5 to 1000 points, got 2"
            ])
        #expect(
            errors("[recognizer.z]\nkind = \"shape\"\nexamples = [\n  [[0, 0], [1, 1], [2, 2], [3, 3]],\n]\n") == [
                "t.toml:4: recognizer.z.examples: example 0: expected 5 to 1000 points, got 4"
            ])
        #expect(
            errors(
                "[recognizer.z]\nkind = \"shape\"\nexamples = [\n  \(Self.zed),\n  [[0, 0], [1, 1], [2, nan], [3, 3], [4, 4]],\n]\n"
            ) == [
                "t.toml:5: recognizer.z.examples: example 1, point 2: expected finite numbers within ±10000 mm, got [2.0, nan]"
            ])
        #expect(
            errors(
                "[recognizer.z]\nkind = \"shape\"\nexamples = [\n  [[0, 0], [1, 1], [2], [3, 3], [4, 4]],\n]\n"
            ) == [
                "t.toml:4: recognizer.z.examples: example 0, point 2: expected [x, y] (two numbers, mm), got a list of 1"
            ])
        #expect(
            errors(
                "[recognizer.z]\nkind = \"shape\"\nexamples = [\n  [[0, 0], [10, \"a\"], [2, 2], [3, 3], [4, 4]],\n]\n"
            ) == [
                "t.toml:4: recognizer.z.examples: example 0, point 1: expected [x, y] (two numbers, mm), got a point with string \"a\""
            ])
        #expect(
            errors(
                "[recognizer.z]\nkind = \"shape\"\nexamples = [\n  [[5, 5], [5, 5], [5, 5], [5, 5], [5.2, 5]],\n]\n"
            ) == [
                "t.toml:4: recognizer.z.examples: example 0: the stroke is 0.20 mm long; an example must be at least 1 mm"
            ])
        #expect(
            errors("[recognizer.z]\nkind = \"shape\"\nexamples = \"zed\"\n") == [
                "t.toml:3: recognizer.z.examples: expected a list of strokes [[[x, y], …], …], got string \"zed\""
            ])
        let many = Array(repeating: Self.zed, count: 65).joined(separator: ",\n")
        #expect(
            errors("[recognizer.z]\nkind = \"shape\"\nexamples = [\n\(many)\n]\n") == [
                "t.toml:3: recognizer.z.examples: expected 1 to 64 example strokes, got 65"
            ])
    }

    @Test func optionsAreCheckedLikeEveryKey() {
        #expect(
            errors("[recognizer.z]\nkind = \"shape\"\nexamples = [\(Self.zed)]\norientation = \"upright\"\n") == [
                "t.toml:4: recognizer.z.orientation: expected \"fixed\" or \"any\", got \"upright\""
            ])
        #expect(
            errors("[recognizer.z]\nkind = \"shape\"\nexamples = [\(Self.zed)]\nmax_distance = 4\n") == [
                "t.toml:4: recognizer.z.max_distance: expected a number from 0.00 to 3.20, got 4"
            ])
        #expect(
            errors("[recognizer.z]\nkind = \"shape\"\nexamples = [\(Self.zed)]\ntolerance = 0.2\n").first?.contains(
                "unknown key for a shape recognizer") == true)
    }

    static let example = repoRoot + "/config/examples/taught-shape.toml"

    @Test func theTaughtShapeExampleIsTheDefaultConfigWithAZedThatWaitsForTheBuiltInShapes() throws {
        let text = try String(contentsOfFile: Self.example, encoding: .utf8)
        let c = try ConfigLoader.load(text: text, file: Self.example)
        guard let zed = c.recognizers.first(where: { $0.name == "zed" }), case .shape(let p) = zed.parameters else {
            Issue.record("no zed in \(Self.example)")
            return
        }
        #expect(p.examples.count == 3)
        #expect(zed.requiresFailureOf == ["circle", "checkmark", "tickle"])
        let loo = ShapeMatcher.consistency(examples: p.examples, options: p.matcherOptions)
        #expect(loo.allSatisfy { $0 < p.maxDistance / 2 })
        // Without the zed's table and the first line, it is the default config.
        guard let start = text.range(of: "# A shape taught by example"), let end = text.range(of: "# Swipe: ") else {
            Issue.record("no zed table")
            return
        }
        let rest = String(text[..<start.lowerBound] + text[end.lowerBound...])
        #expect(rest.drop { $0 != "\n" } == defaultConfigText.drop { $0 != "\n" })
    }
}
