import Foundation
import GestureConfig
import GestureCore
import GestureTools
import Testing

@Suite("evaluate's counting")
struct EvaluateTests {
    /// A tiny corpus: two circles, a checkmark, a rectangle and a V from the $1
    /// logs, plus a labelled recording, copied into a folder of their own.
    func tinyCorpus() throws -> String {
        let fm = FileManager.default
        let dir = fm.temporaryDirectory.appendingPathComponent(
            "gestured-tiny-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        ).path
        let files = [
            "s01/medium/circle01.xml", "s02/fast/circle03.xml", "s03/medium/check02.xml",
            "s01/medium/rectangle01.xml", "s01/medium/v01.xml",
        ]
        for f in files {
            let to = dir + "/" + f
            try fm.createDirectory(
                atPath: (to as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try fm.copyItem(atPath: fixturesDir + "/dollar1/" + f, toPath: to)
        }
        try fm.copyItem(atPath: fixturesDir + "/strokes/finger-check.events", toPath: dir + "/finger-check.events")
        return dir
    }

    @Test func recallAndFalseAcceptsAreCountedPerClassSpeedAndSubject() throws {
        let dir = try tinyCorpus()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let config = ConfigLoader.builtIn()
        let items = try Corpus.load([dir])
        #expect(items.count == 8, "5 strokes + 2 mirrored circles + 1 recording")
        #expect(items.filter(\.mirrored).count == 2)
        let report = AccuracyReport(
            items: items, outcomes: try Evaluator(configuration: config).outcomes(of: items),
            configuration: config)
        #expect(report.itemsByClass == ["circle": 2, "check": 2, "rectangle": 1, "v": 1])
        let circle = try #require(report.recognizer("circle"))
        #expect(circle.ownClass == "circle")
        #expect(circle.overall.positives == 4)
        #expect(circle.overall.hits == 4)
        #expect(
            circle.overall.negatives == 4,
            "check, check recording, rectangle, V; mirrored circles only count for circle")
        #expect(circle.overall.falseAccepts == 0)
        #expect(circle.bySpeed["medium"]?.positives == 2)
        #expect(circle.bySpeed["fast"]?.positives == 2)
        #expect(circle.bySubject["s02"]?.positives == 2)
        #expect(circle.byVariant["mirrored"]?.hits == 2)
        let check = try #require(report.recognizer("checkmark"))
        #expect(check.overall.positives == 2)
        #expect(check.overall.hits == 2, "\(check.missed)")
        #expect(check.bySubject["recordings"]?.hits == 1, "the evemu recording went through replay")
        #expect(check.overall.negatives == 4, "2 circles as drawn, rectangle, V")
        #expect(report.recognizer("pan") == nil, "continuous recognizers are not scored")
        let text = report.text()
        #expect(text.contains("circle (circle): recall on circle"))
        #expect(text.contains("4/4  100.0%"))
        let json = try report.json()
        #expect(json.contains("\"falseAccepts\""))
    }

    @Test func aReportCountsWhatItIsGiven() {
        // Pure counting: no arena involved.
        func stroke(_ label: String, _ subject: String, _ speed: String) -> CorpusItem {
            CorpusItem(
                label: label, subject: subject, speed: speed, source: label,
                input: .stroke(
                    LabelledStroke(
                        label: label, subject: subject, speed: speed, source: label,
                        points: [.zero, Point(x: 1, y: 1)], times: [0, 1])))
        }
        let items = [
            stroke("circle", "s01", "fast"), stroke("circle", "s02", "slow"), stroke("x", "s01", "fast"),
            stroke("star", "s02", "slow"), stroke("star", "s02", "fast"),
        ]
        var yes = Outcome()
        yes.accepted = ["circle"]
        var no = Outcome()
        no.reasons = ["circle": .circle(.sweptTooLittle(214, min: 300))]
        let config = ConfigLoader.builtIn()
        let r = AccuracyReport(items: items, outcomes: [yes, no, no, yes, no], configuration: config)
        let c = r.recognizer("circle")!
        #expect(c.overall.positives == 2 && c.overall.hits == 1)
        #expect(c.overall.negatives == 3 && c.overall.falseAccepts == 1)
        #expect(c.falseAcceptsByClass == ["star": 1])
        #expect(c.missReasons == ["swept N° < N°": 1])
        #expect(c.bySubject["s02"]?.falseAccepts == 1)
        #expect(c.bySpeed["fast"]?.hits == 1)
        #expect(r.recognizer("checkmark")!.overall.falseAccepts == 0)
    }
}
