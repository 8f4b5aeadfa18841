import Foundation
import GestureConfig
import GestureLisgd
import GestureTools
import Testing

@testable import GestureCore

/// The arena keeps its earliest deadline from frame to frame while nothing it
/// depends on changes: after every frame and every timeout it is the earliest
/// deadline the members' recognizers report while possible or active, as a
/// look through all of them finds it, and the timeouts fire as they did.
@Suite("arena: the earliest deadline kept between frames")
struct ArenaDeadlineCacheTests {
    /// The earliest deadline of the members that are possible or active, asked
    /// of their recognizers.
    private func earliest(_ arena: Arena) -> EventTime? {
        var best: EventTime?
        for m in arena.members where m.ledger.tag == .possible || m.ledger.tag == .active {
            if let d = m.recognizer.deadline, best == nil || d < best! { best = d }
        }
        return best
    }

    /// Replays `raw` as gesture-run does: timeouts due before a frame fire
    /// first, as the timer would; returns the events, the frames and the scans.
    private func replay(
        _ configuration: Configuration, _ device: DeviceDescription, _ raw: [RawEvent]
    ) throws -> (events: [GestureEvent], frames: Int, scans: Int) {
        let arena = configuration.makeArena(device: device.name)
        let geometry = try #require(configuration.geometry(for: device))
        var decoder = SlotDecoder(device: device, geometry: geometry)
        var events: [GestureEvent] = []
        var frames = 0
        for e in raw where decoder.feed(e) {
            while let d = arena.nextDeadline, d <= e.time {
                arena.advance(to: d, into: &events)
                #expect(arena.nextDeadline == earliest(arena), "after the timeout at \(d)")
            }
            arena.handle(decoder.lastFrame, into: &events)
            frames += 1
            #expect(arena.nextDeadline == earliest(arena), "after the frame at \(e.time)")
        }
        if let last = raw.last { arena.advance(to: last.time.adding(microseconds: 60_000_000), into: &events) }
        #expect(arena.nextDeadline == earliest(arena))
        return (events, frames, arena.deadlineScans)
    }

    @Test func sxmosBindingsKeepTheEarliestDeadlineAsALookThroughAllFindsIt() throws {
        let sxmo = try SxmoReplay()
        let r = try replay(sxmo.configuration, sxmo.device, sxmo.raw)
        #expect(r.events.filter { $0.state == .recognized }.count > 10)
        // In the middle of a stroke nothing changes the deadlines: the members
        // are looked through for a small part of the frames.
        #expect(r.scans * 3 < r.frames, "\(r.scans) looks through the members for \(r.frames) frames")
    }

    @Test func theBuiltInRecognizersKeepTheEarliestDeadlineAsALookThroughAllFindsIt() throws {
        let c = ConfigLoader.builtIn()
        let dir = fixturesDir + "/recordings"
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).filter {
            $0.hasSuffix(".events") || $0.hasSuffix(".event")
        }.sorted()
        #expect(names.count >= 8)
        for name in names {
            let (device, raw) = try Replay.load(recording: dir + "/" + name, descPath: nil)
            _ = try replay(c, device, raw)
        }
    }

    /// The events and the trace of Sxmo's bindings on the phone strokes.
    private func sxmo(emitsFailures: Bool) throws -> (events: [GestureEvent], trace: [String], fires: [String]) {
        let sxmo = try SxmoReplay()
        let c = sxmo.configuration, device = sxmo.device, raw = sxmo.raw
        let arena = c.makeArena(device: device.name)
        arena.emitsFailures = emitsFailures
        var trace: [String] = []
        arena.log = ArenaLog(tracing: ["all"]) { trace.append($0.description) }
        let geometry = try #require(c.geometry(for: device))
        var decoder = SlotDecoder(device: device, geometry: geometry)
        var events: [GestureEvent] = []
        for e in raw where decoder.feed(e) {
            while let d = arena.nextDeadline, d <= e.time { arena.advance(to: d, into: &events) }
            arena.handle(decoder.lastFrame, into: &events)
        }
        if let last = raw.last { arena.advance(to: last.time.adding(microseconds: 60_000_000), into: &events) }
        return (events, trace, sxmo.fires(events))
    }

    /// gesture-run as `lisgd` makes no `failed` events (none runs a binding):
    /// every other event, the trace and the bindings that fire are the same.
    @Test func anArenaThatMakesNoFailedEventsDecidesTheSame() throws {
        let all = try sxmo(emitsFailures: true)
        let quiet = try sxmo(emitsFailures: false)
        let failures = all.events.filter { $0.state == .failed }.count
        #expect(failures > 1000, "\(failures) failed events")
        #expect(quiet.events.allSatisfy { $0.state != .failed })
        #expect(quiet.events == all.events.filter { $0.state != .failed })
        #expect(quiet.trace == all.trace)
        #expect(quiet.fires == all.fires)
        #expect(quiet.fires.count == 89)
    }
}
