import Foundation
import GestureConfig
import GestureLisgd
import GestureTools
import Testing

@testable import GestureCore

/// A recognizer as an arena sees one it knows nothing more of: the arena gives
/// it every frame of a sequence it takes part in, and it works out its own motion.
private final class GivenEveryFrame: Recognizer {
    let inner: any Recognizer
    init(_ inner: any Recognizer) { self.inner = inner }
    var kind: GestureKind { inner.kind }
    var fingers: ClosedRange<Int> { inner.fingers }
    func handle(_ event: RecognizerEvent, _ frame: borrowing TouchFrame) -> Proposal { inner.handle(event, frame) }
    var deadline: EventTime? { inner.deadline }
    func reset() { inner.reset() }
    var stateDescription: String { inner.stateDescription }
    var evidence: Evidence { inner.evidence }
}

/// The swipes of an arena follow one motion the arena steps, and are given only
/// the frames that can change what they decide (the first and the last of a
/// sequence, and those in which a finger lands, lifts or is cancelled). Every
/// event they give, failures, reasons and the trace included, is what the same
/// recognizers give each given every frame and working out its own motion.
@Suite("arena: frames given only where they can change a decision")
struct ArenaFrameSkippingTests {
    /// The events and the trace of `configuration`'s recognizers on `raw`: as
    /// `Configuration.makeArena` makes them, or each given every frame.
    private func run(
        _ configuration: Configuration, _ device: DeviceDescription, _ raw: [RawEvent], everyFrame: Bool
    ) throws -> (events: [GestureEvent], trace: [String], dispatched: Int) {
        let arena =
            everyFrame
            ? configuration.makeArena(device: device.name) { GivenEveryFrame($0.parameters.makeRecognizer()) }
            : configuration.makeArena(device: device.name)
        var trace: [String] = []
        arena.log = ArenaLog(tracing: ["all"]) { trace.append($0.description) }
        let geometry = try #require(configuration.geometry(for: device))
        var decoder = SlotDecoder(device: device, geometry: geometry)
        var events: [GestureEvent] = []
        for e in raw where decoder.feed(e) { arena.handle(decoder.lastFrame, into: &events) }
        if let last = raw.last { arena.advance(to: last.time.adding(microseconds: 60_000_000), into: &events) }
        return (events, trace, arena.dispatched)
    }

    private func expectSame(
        _ configuration: Configuration, _ device: DeviceDescription, _ raw: [RawEvent], _ what: String
    ) throws -> (skipping: Int, every: Int, recognized: Int) {
        let skipping = try run(configuration, device, raw, everyFrame: false)
        let every = try run(configuration, device, raw, everyFrame: true)
        #expect(skipping.events.count == every.events.count, "\(what)")
        for (x, y) in zip(skipping.events, every.events) where x != y {
            Issue.record("\(what)\nskipping: \(x.json)\nevery:    \(y.json)")
            break
        }
        #expect(skipping.trace.count == every.trace.count, "\(what)")
        for (x, y) in zip(skipping.trace, every.trace) where x != y {
            Issue.record("\(what)\nskipping: \(x)\nevery:    \(y)")
            break
        }
        return (skipping.dispatched, every.dispatched, skipping.events.filter { $0.state == .recognized }.count)
    }

    @Test func sxmosSwipesGivenOnlyTheirEndsDecideAsGivenEveryFrame() throws {
        let sxmo = try SxmoReplay()
        #expect(sxmo.configuration.recognizers.count == 43)
        let n = try expectSame(sxmo.configuration, sxmo.device, sxmo.raw, "Sxmo's bindings on the phone strokes")
        #expect(n.recognized > 10)
        // The forty swipes are given a small part of the frames they were given.
        #expect(n.skipping * 3 < n.every, "\(n.skipping) dispatches against \(n.every)")
    }

    /// Every recording of the fixtures: its name, its device and its events.
    private func recordings() throws -> [(name: String, device: DeviceDescription, raw: [RawEvent])] {
        let dir = fixturesDir + "/recordings"
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).filter {
            $0.hasSuffix(".events") || $0.hasSuffix(".event")
        }.sorted()
        #expect(names.count >= 8)
        return try names.map { name in
            let (device, raw) = try Replay.load(recording: dir + "/" + name, descPath: nil)
            return (name, device, raw)
        }
    }

    @Test func theBuiltInRecognizersGivenOnlyWhatCanChangeThemDecideAsGivenEveryFrame() throws {
        let c = ConfigLoader.builtIn()
        var skipped = 0
        for r in try recordings() {
            let n = try expectSame(c, r.device, r.raw, r.name)
            skipped += n.every - n.skipping
        }
        #expect(skipped > 0)
    }

    /// Sxmo's bindings on the recordings, whose strokes have fingers landing and
    /// lifting in the middle (two- and four-finger drags, two fingers touching
    /// and releasing, type A panels): the swipes, given only the ends of each stroke
    /// and the landings that leave them with too many fingers, decide as given
    /// every frame.
    @Test func sxmosSwipesGivenOnlyTheEndsDecideAsGivenEveryFrameOnEveryRecording() throws {
        let sxmo = try SxmoReplay()
        var skipped = 0
        for r in try recordings() {
            let n = try expectSame(sxmo.configuration, r.device, r.raw, "Sxmo's bindings on \(r.name)")
            skipped += n.every - n.skipping
        }
        #expect(skipped > 0)
    }
}
