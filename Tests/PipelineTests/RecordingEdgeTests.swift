import Foundation
import GestureConfig
import GestureCore
import Testing

@testable import GestureDaemon
@testable import GestureTools

/// Writes `text` as a recording beside a copy of the Atmel description, runs
/// replay on it and cleans up.
func replayText(
    _ text: String, configuration: Configuration = ConfigLoader.builtIn(),
    warn: (String) -> Void = { _ in }
) throws -> [GestureEvent] {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gestured-replay-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let desc = try String(contentsOfFile: recording("Atmel-maXTouch-Touchscreen.desc"), encoding: .utf8)
    try desc.write(to: dir.appendingPathComponent("Panel.desc"), atomically: true, encoding: .utf8)
    let path = dir.appendingPathComponent("Panel.test.events").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return try Replay.run(recording: path, descPath: nil, configuration: configuration, warn: warn)
}

/// One finger down at `seconds` on the Atmel panel (800 × 480 units, about
/// 150 × 90 mm), moved `moves` times by 20 units 10 ms apart, lifted or not.
func oneFinger(at seconds: Int64, moves: Int, lift: Bool) -> String {
    var s = ""
    var usec: Int64 = 0
    func line(_ code: String, _ value: Int) {
        s +=
            "E: \(seconds + usec / 1_000_000).\(String(repeating: "0", count: 6 - String(usec % 1_000_000).count))\(usec % 1_000_000) \(code) \(value)\n"
    }
    line("0003 0039", 7)
    line("0003 0035", 100)
    line("0003 0036", 200)
    line("0000 0000", 0)
    for i in 0..<moves {
        usec += 10_000
        line("0003 0035", 100 + 20 * (i + 1))
        line("0000 0000", 0)
    }
    if lift {
        usec += 10_000
        line("0003 0039", -1)
        line("0000 0000", 0)
    }
    return s
}

@Suite("Replay of recordings at the edges")
struct RecordingEdgeTests {
    /// Replay runs the timers out an hour past the last event: at the largest
    /// time a recording may hold, that must saturate, not trap.
    @Test func theLatestTimeARecordingMayHoldReplaysToTheEnd() throws {
        let events = try replayText(oneFinger(at: EvemuParser.maxSeconds - 1, moves: 0, lift: true))
        #expect(events.contains { $0.kind == .tap && $0.state == .recognized })
    }

    @Test func aTimeBeyondItIsAnErrorNamingFileAndLine() throws {
        var error: Replay.Failure?
        do {
            _ = try replayText("E: 0.000000 0000 0000 0\nE: 9223372036854775807.000000 0000 0000 0\n")
        } catch let e as Replay.Failure {
            error = e
        }
        #expect(
            error?.description.hasSuffix(
                "Panel.test.events:2: E: time '9223372036854775807.000000' is not SECONDS.FRACTION in decimal (at most \(EvemuParser.maxSeconds) s)"
            ) == true)
    }

    /// A recording that stops with a finger down mid-drag is like a device
    /// unplugged mid-drag: the pan is cancelled, once, and says why.
    @Test func aRecordingEndingMidPanCancelsThePanOnce() throws {
        var warnings: [String] = []
        let events = try replayText(oneFinger(at: 100, moves: 20, lift: false)) { warnings.append($0) }
        let pan = events.filter { $0.kind == .pan }
        #expect(pan.first?.state == .began)
        #expect(pan.filter { $0.state == .began }.count == 1)
        #expect(pan.filter { $0.state == .cancelled }.count == 1)
        #expect(!pan.contains { $0.state == .ended })
        #expect(pan.last?.state == .cancelled)
        #expect(pan.last?.reason == Replay.endOfRecording)
        // Nothing of that sequence comes after it; every other continuous kind is closed too.
        for name in Set(events.filter { $0.kind.isContinuous }.map(\.name)) {
            let states = events.filter { $0.name == name }.map(\.state).filter { $0 != .failed }
            #expect(states.isEmpty || [.ended, .cancelled].contains(states.last!), "\(name): \(states)")
        }
        #expect(warnings.contains { $0.contains("ends with 1 finger(s) still down") })
    }

    /// Cut inside a frame: the lift has no SYN_REPORT, so the arena never saw
    /// the finger go; the pan it began is still closed.
    @Test func aRecordingCutInsideTheLiftFrameCancelsThePan() throws {
        var text = oneFinger(at: 100, moves: 20, lift: true)
        text.removeLast("E: 100.210000 0000 0000 0\n".count)
        #expect(text.hasSuffix("0003 0039 -1\n"))
        let pan = try replayText(text).filter { $0.kind == .pan }
        #expect(pan.map(\.state).first == .began)
        #expect(pan.last?.state == .cancelled && pan.last?.reason == Replay.endOfRecording)
        #expect(pan.filter { $0.state == .cancelled || $0.state == .ended }.count == 1)
    }

    @Test func aRecordingEndingWithFingersUpClosesNothingExtra() throws {
        let events = try replayText(oneFinger(at: 100, moves: 20, lift: true))
        let pan = events.filter { $0.kind == .pan }.map(\.state)
        #expect(pan.first == .began && pan.last == .ended)
        #expect(!events.contains { $0.reason == Replay.endOfRecording })
    }

    /// Events leave as they are decided, not when the recording has been read.
    @Test func replayStreamsEventsBeforeTheInputEnds() throws {
        let text = oneFinger(at: 100, moves: 20, lift: true) + oneFinger(at: 200, moves: 20, lift: true)
        let desc = try String(contentsOfFile: recording("Atmel-maXTouch-Touchscreen.desc"), encoding: .utf8)
        let lines = (desc + text).split(separator: "\n", omittingEmptySubsequences: false)
        var read = 0
        var readAtFirstPanEnd: Int?
        try Replay.stream(
            source: "test",
            next: {
                guard read < lines.count else { return nil }
                read += 1
                return lines[read - 1]
            }, describe: { $0 }, configuration: ConfigLoader.builtIn(), serial: 0, warn: { _ in }
        ) { e in
            if e.kind == .pan && e.state == .ended && readAtFirstPanEnd == nil { readAtFirstPanEnd = read }
        }
        let first = try #require(readAtFirstPanEnd)
        // The second drag (the last 46 lines) was not read yet.
        #expect(first <= lines.count - 46, "the first pan ended after reading \(first) of \(lines.count) lines")
    }
}
