import GestureConfig
import GestureDaemon
import GestureTools
import Testing

@testable import GestureCore

/// The arena's require-to-fail ledger is checked (`assert`) after every frame,
/// fired timeout and teardown in debug builds: every golden replay runs them.
@Suite("ledger checks in replays")
struct LedgerReplayTests {
    @Test func aReplayChecksTheLedgerAfterEveryFrame() throws {
        let (device, events) = try Replay.load(
            recording: recording("Atmel-maXTouch-Touchscreen.1-finger-fast-taps.events"),
            descPath: nil)
        let config = ConfigLoader.builtIn()
        let pipeline = DevicePipeline(
            description: device, geometry: try #require(config.geometry(for: device)),
            configuration: config)
        var frames = 0
        for e in events {
            pipeline.feed(e)
            if e.type == 0 && e.code == 0 { frames += 1 }  // SYN_REPORT
        }
        pipeline.advance(to: events.last!.time.adding(microseconds: 60_000_000))
        var gestures: [GestureEvent] = []
        pipeline.drain { gestures.append($0) }
        #expect(gestures.contains { $0.state == .recognized })
        #if DEBUG
            #expect(
                pipeline.arena.ledgerChecks >= frames, "one check per frame and per round of timeouts, in debug builds")
        #endif
        #expect(pipeline.arena.ledgerViolation() == nil)
    }
}
