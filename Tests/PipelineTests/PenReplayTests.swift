import Foundation
import GestureConfig
import GestureCore
import GestureTools
import Testing

/// `gesturectl replay --pen` and `explain --pen`: a pen recording beside a touch
/// recording, merged by timestamp (Tests/fixtures/pen).
@Suite("replay and explain with a pen recording")
struct PenReplayTests {
    static let base = fixturesDir + "/pen/pen-hover-palm-then-swipe"
    static let touch = base + ".touch.events"
    static let pen = base + ".pen.events"

    func swipes(pen: String?, configuration: Configuration = ConfigLoader.builtIn()) throws -> [GestureEvent] {
        try Replay.run(recording: Self.touch, descPath: nil, pen: pen, configuration: configuration)
            .filter { $0.name == "swipe" && $0.state == .recognized }
    }

    @Test func aloneBothDragsAreSwipes() throws {
        #expect(try swipes(pen: nil).map(\.time.seconds) == [1.256, 2.156])
    }

    @Test func withThePenThePalmDragWhileItHoversIsNothing() throws {
        let all = try Replay.run(
            recording: Self.touch, descPath: nil, pen: Self.pen, configuration: ConfigLoader.builtIn())
        #expect(!all.contains { $0.time.seconds < 2 }, "no event of any recognizer for the palm's drag")
        #expect(try swipes(pen: Self.pen).map(\.time.seconds) == [2.156])
    }

    @Test func aLongReleaseTimeCoversTheSecondDragToo() throws {
        var c = ConfigLoader.builtIn()
        c.penRelease = Millis(600)  // the pen left at 1.5 s; the second drag lands at 2.0 s
        #expect(try swipes(pen: Self.pen, configuration: c).isEmpty)
        c.penRelease = Millis(400)
        #expect(try swipes(pen: Self.pen, configuration: c).count == 1)
    }

    @Test func explainDrawsOnlyWhatTheArenaSaw() throws {
        let c = ConfigLoader.builtIn()
        let alone = Explanation(
            title: "t", frames: try Explanation.frames(of: Self.touch, configuration: c), configuration: c)
        let paired = Explanation(
            title: "t", frames: try Explanation.frames(of: Self.touch, configuration: c, pen: Self.pen),
            configuration: c)
        #expect(alone.paths.count == 2)
        #expect(paired.paths.count == 1)
        #expect(paired.decisions.filter { $0.state == .recognized }.map(\.name) == ["swipe"])
    }

    @Test func aTouchRecordingGivenAsThePenIsRefused() {
        #expect(throws: Replay.Failure.self) {
            try Replay.run(
                recording: Self.touch, descPath: nil, pen: Self.touch, configuration: ConfigLoader.builtIn())
        }
    }

    /// The palm's drag while the pen hovers starts nothing, and no gesture
    /// event says so: replay tells of it as a touch set aside, and explain
    /// lists it under its decisions.
    @Test func aTouchSetAsideIsToldOf() throws {
        var lines: [String] = []
        try Replay.stream(
            recording: Self.touch, descPath: nil, pen: Self.pen, configuration: ConfigLoader.builtIn(),
            setAside: { lines.append($0) }, emit: { _ in })
        #expect(lines == ["1.100000: a touch (slot 0) set aside as it landed, starting nothing: pen in proximity"])
        var none: [String] = []
        try Replay.stream(
            recording: Self.touch, descPath: nil, configuration: ConfigLoader.builtIn(),
            setAside: { none.append($0) }, emit: { _ in })
        #expect(none.isEmpty)
        let read = try Explanation.input(of: Self.touch, configuration: ConfigLoader.builtIn(), pen: Self.pen)
        #expect(read.setAside == [SetAsideTouch(time: .seconds(1.1), slot: 0, cause: .penInProximity)])
        var e = Explanation(title: "t", frames: read.frames, configuration: ConfigLoader.builtIn())
        e.setAside = read.setAside
        #expect(e.svg().contains("set aside as it landed, starting nothing: pen in proximity"))
    }

    /// A pen recording where the touchscreen's is wanted is refused, saying
    /// where it goes; a stroke file takes no pen.
    @Test func aPenRecordingGivenAsTheTouchscreenIsRefused() {
        for run in [
            { _ = try Replay.run(recording: Self.pen, descPath: nil, configuration: ConfigLoader.builtIn()) },
            { _ = try Explanation.input(of: Self.pen, configuration: ConfigLoader.builtIn()) },
            {
                _ = try Explanation.input(
                    of: fixturesDir + "/dollar1/s01/fast/v01.xml", configuration: ConfigLoader.builtIn(), pen: Self.pen)
            },
        ] {
            do {
                try run()
                Issue.record("not refused")
            } catch let error as Replay.Failure {
                #expect(error.description.contains("--pen"), "\(error)")
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    /// A pen of another device, or one recorded at another time, changes
    /// nothing; replay says why.
    @Test func aPenThatCannotMatterIsWarnedOf() throws {
        func warnings(touch: String, pen: String) throws -> [String] {
            var out: [String] = []
            try Replay.stream(
                recording: touch, descPath: nil, pen: pen, configuration: ConfigLoader.builtIn(),
                warn: { if $0.contains(pen) { out.append($0) } }, emit: { _ in })
            return out
        }
        #expect(try warnings(touch: Self.touch, pen: Self.pen).isEmpty)
        let atmel = fixturesDir + "/recordings/Atmel-maXTouch-Touchscreen.1-finger-drag-up-down.events"
        let other = try warnings(touch: atmel, pen: Self.pen)
        #expect(other.count == 1 && other[0].contains("not the same device"), "\(other)")
        let late = try Self.penShifted(by: 100)
        defer { try? FileManager.default.removeItem(atPath: late) }
        let apart = try warnings(touch: Self.touch, pen: late)
        #expect(apart.count == 1 && apart[0].contains("no time in common"), "\(apart)")
    }

    /// The pen recording with its events `seconds` later, in a file of its own.
    static func penShifted(by seconds: Double) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pen-\(getpid())-\(seconds).pen.events"
        ).path
        let shifted = try String(contentsOfFile: Self.pen, encoding: .utf8).split(separator: "\n").map { line in
            guard line.hasPrefix("E: "), let t = Double(line.split(separator: " ")[1]) else { return String(line) }
            return "E: " + formatFixed(t + seconds, decimals: 6) + " "
                + line.split(separator: " ").dropFirst(2).joined(separator: " ")
        }
        try (shifted.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The pen coming while the palm drags: explain ends that touch with a
    /// cross (cancelled), not a finger lifted, and the pan with the pen's reason.
    @Test func explainMarksATouchThePenCancelled() throws {
        let c = ConfigLoader.builtIn()
        let midDrag = try Self.penShifted(by: 0.15)  // in at 1.15 s; the palm drags from 1.1 s
        defer { try? FileManager.default.removeItem(atPath: midDrag) }
        let e = Explanation(
            title: "t", frames: try Explanation.frames(of: Self.touch, configuration: c, pen: midDrag),
            configuration: c)
        #expect(e.paths.count == 2)
        #expect(e.cancelled == [0])
        #expect(e.decisions.contains { $0.name == "pan" && $0.state == .cancelled && $0.reason == .penInProximity })
        let svg = e.svg()
        #expect(svg.components(separatedBy: "class=\"touch-cancelled\"").count == 2)
        #expect(svg.components(separatedBy: "class=\"touch-end\"").count == 2)
        let alone = Explanation(
            title: "t", frames: try Explanation.frames(of: Self.touch, configuration: c), configuration: c)
        #expect(alone.cancelled.isEmpty && !alone.svg().contains("class=\"touch-cancelled\""))
    }
}
