import Foundation
import GestureConfig
import GestureCore
import GestureTools
import Testing

@Suite("stroke files and their touch frames")
struct ConverterTests {
    static let xml =
        "\u{FEFF}" + """
            <?xml version="1.0" encoding="utf-8" standalone="yes"?>
            <Gesture Name="check03" Subject="7" Speed="slow" NumPts="4">
              <Point X="45" Y="90" T="1000" />
              <Point X="54" Y="99" T="1016" />
              <Point X="63" Y="108" T="1032" />
              <Point X="90" Y="45" T="1100" />
            </Gesture>
            """

    @Test func aStrokeFileGivesLabelSubjectSpeedPointsAndTimes() throws {
        let s = try DollarXML.parse(Self.xml, path: "corpus/s03/fast/check03.xml")
        #expect(s.label == "check")
        #expect(s.subject == "s03", "the path wins over the Subject attribute")
        #expect(s.speed == "fast")
        #expect(s.points == [Point(x: 45, y: 90), Point(x: 54, y: 99), Point(x: 63, y: 108), Point(x: 90, y: 45)])
        #expect(s.times == [1000, 1016, 1032, 1100])
        let bare = try DollarXML.parse(Self.xml, path: "check03.xml")
        #expect(bare.subject == "s07")
        #expect(bare.speed == "slow")
        #expect(DollarXML.label(fromFileName: "delete_mark10.xml") == "delete_mark")
        #expect(throws: DollarXML.ParseError.self) {
            try DollarXML.parse("<Gesture><Point X=\"1\" Y=\"2\"/></Gesture>", path: "x.xml")
        }
    }

    @Test func framesAreOneFingerBeganMovedEndedInMillimetresAndStrokeTime() throws {
        let s = try DollarXML.parse(Self.xml, path: "check03.xml")
        let frames = StrokeFrames.frames(of: s, pxPerMM: 4.5)
        #expect(frames.count == 5, "one frame per point, then the lift")
        #expect(frames.map { $0.touches.count } == [1, 1, 1, 1, 1])
        #expect(frames.map { $0.touches[0].phase } == [.began, .moved, .moved, .moved, .ended])
        #expect(Set(frames.map { $0.touches[0].id }).count == 1)
        #expect(frames[0].touches[0].position == Point(x: 10, y: 20))
        #expect(frames[3].touches[0].position == Point(x: 20, y: 10))
        #expect(frames[4].touches[0].position == frames[3].touches[0].position)
        let ms = frames.map { ($0.time - frames[0].time).value }
        #expect(ms == [0, 16, 32, 100, 100])
        #expect(frames.allSatisfy { $0.areaMM.x >= 20 && $0.areaMM.y >= 24 })
        let n = frames[0].touches[0].normalised
        #expect(n.x > 0 && n.x < 1 && n.y > 0 && n.y < 1)
        // px per mm is a parameter.
        let half = StrokeFrames.frames(of: s, pxPerMM: 9)
        #expect(half[0].touches[0].position == Point(x: 5, y: 10))
    }

    @Test func mirroringTurnsACircleTheOtherWay() throws {
        let s = try DollarXML.load(path: fixturesDir + "/dollar1/s01/medium/circle01.xml")
        let config = ConfigLoader.builtIn()
        let evaluator = Evaluator(configuration: config)
        func direction(_ s: LabelledStroke) -> Bool? {
            for e in evaluator.events(of: StrokeFrames.frames(of: s)) {
                if case .circle(_, _, _, let cw, _) = e.detail, e.state == .recognized { return cw }
            }
            return nil
        }
        let drawn = direction(s), mirrored = direction(s.mirrored)
        #expect(drawn != nil && mirrored != nil, "both are circles")
        #expect(drawn != mirrored)
    }

    @Test func recordingsAreLabelledBySidecarOrName() throws {
        #expect(Corpus.recordingLabel("a/finger-circle-fast.events")! == ("circle", "fast"))
        #expect(Corpus.recordingLabel("a/finger-checkmark.events")! == ("check", "-"))
        #expect(Corpus.recordingLabel("a/Atmel-maXTouch-Touchscreen.1-finger-fast-taps.events") == nil)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gestured-label-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "# what it is\ntickle\n".write(
            toFile: dir + "/scribble-slow.events.label", atomically: true, encoding: .utf8)
        try "".write(toFile: dir + "/scribble-slow.events", atomically: true, encoding: .utf8)
        #expect(Corpus.recordingLabel(dir + "/scribble-slow.events")! == ("tickle", "slow"))
    }
}
