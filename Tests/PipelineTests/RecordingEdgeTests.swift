import Foundation
import GestureConfig
import GestureCore
import GestureDaemon
import GestureTools
import Testing

/// Writes `text` as a recording beside a copy of the Atmel description, runs
/// replay on it and cleans up.
func replayText(_ text: String, configuration: Configuration = ConfigLoader.builtIn(),
                warn: (String) -> Void = { _ in }) throws -> [GestureEvent] {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gestured-replay-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let desc = try String(contentsOfFile: recording("Atmel-maXTouch-Touchscreen.desc"), encoding: .utf8)
    try desc.write(to: dir.appendingPathComponent("Panel.desc"), atomically: true, encoding: .utf8)
    let path = dir.appendingPathComponent("Panel.test.events").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return try Replay.run(recording: path, descPath: nil, configuration: configuration, warn: warn)
}

/// One finger down at `seconds` on the Atmel panel (800 × 480 units), moved
/// `moves` times by 20 units, lifted or not.
func oneFinger(at seconds: String, moves: Int, lift: Bool) -> String {
    var s = "E: \(seconds) 0003 0039 7\nE: \(seconds) 0003 0035 100\nE: \(seconds) 0003 0036 200\nE: \(seconds) 0000 0000 0\n"
    for i in 1...max(moves, 1) where moves > 0 {
        s += "E: \(seconds) 0003 0035 \(100 + 20 * i)\nE: \(seconds) 0000 0000 0\n"
    }
    if lift { s += "E: \(seconds) 0003 0039 -1\nE: \(seconds) 0000 0000 0\n" }
    return s
}

@Suite("Replay of recordings at the edges")
struct RecordingEdgeTests {
    /// Replay runs the timers out an hour past the last event: at the largest
    /// time a recording may hold, that must saturate, not trap.
    @Test func theLatestTimeARecordingMayHoldReplaysToTheEnd() throws {
        let events = try replayText(oneFinger(at: "\(EvemuParser.maxSeconds).999999", moves: 0, lift: true))
        #expect(events.contains { $0.kind == .tap && $0.state == .recognized })
    }

    @Test func aTimeBeyondItIsAnErrorNamingFileAndLine() throws {
        let error = #expect(throws: Replay.Failure.self) {
            try replayText("E: 0.000000 0000 0000 0\nE: 9223372036854775807.000000 0000 0000 0\n")
        }
        #expect(error?.description.hasSuffix("Panel.test.events:2: E: time '9223372036854775807.000000' is not SECONDS.FRACTION in decimal (at most \(EvemuParser.maxSeconds) s)") == true)
    }
}
