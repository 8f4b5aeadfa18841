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
}
