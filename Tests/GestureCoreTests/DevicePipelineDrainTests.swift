import Testing

@testable import GestureCore

/// `DevicePipeline.drain`: what a reader of the events (the daemon's publish,
/// gesturectl lisgd's bindings, a replay) is handed, and when.
@Suite("pipeline: draining the events")
struct DevicePipelineDrainTests {
    fileprivate static func pipeline() -> DevicePipeline {
        let d = testDevice()
        return DevicePipeline(
            description: d, geometry: DeviceGeometry(x: d.xAxis!, y: d.yAxis!),
            configuration: Configuration(recognizers: [recognizer("pan", .pan(.init()))]))
    }

    /// A one-finger drag to the right, one frame at a time.
    fileprivate static func drag() -> [[RawEvent]] {
        var k = KernelEvents()
        var frames: [[RawEvent]] = []
        k.down(0, at: mm(40, 50))
        frames.append(k.endFrame(after: 10))
        for i in 1...6 {
            k.move(0, to: mm(40 + Double(i) * 10, 50))
            frames.append(k.endFrame(after: 10))
        }
        k.up(0)
        frames.append(k.endFrame(after: 10))
        return frames
    }

    @Test func eachEventIsHandedOutOnceInOrderAndThenForgotten() {
        let p = Self.pipeline()
        for f in Self.drag() { for e in f { p.feed(e) } }
        var first: [String] = []
        p.drain { first.append("\($0.name) \($0.state.rawValue)") }
        #expect(first.first == "pan began" && first.last == "pan ended", "\(first)")
        #expect(first.filter { $0 == "pan began" }.count == 1)
        var again: [String] = []
        p.drain { again.append("\($0.name) \($0.state.rawValue)") }
        #expect(again.isEmpty, "a second drain hands out nothing")
        #expect(p.events.isEmpty)

        // The storage is reused from drain to drain: a second drag is handed
        // out the same way.
        let q = Self.pipeline()
        var second: [String] = []
        for f in Self.drag() {
            for e in f { q.feed(e) }
            q.drain { second.append("\($0.name) \($0.state.rawValue)") }
        }
        #expect(second == first, "draining after every frame hands out the same events")
    }
}

extension DevicePipelineDrainTests {
    /// A reader that feeds the pipeline while it is handed an event (the
    /// events of that feed come after the drain started): those events are
    /// handed out by the next drain, not lost.
    @Test func eventsCausedWhileDrainingAreKeptForTheNextDrain() {
        let p = Self.pipeline()
        var frames = Self.drag()
        let lift = frames.removeLast()
        for f in frames { for e in f { p.feed(e) } }
        var handed: [String] = []
        var lifted = false
        p.drain { e in
            handed.append("\(e.name) \(e.state.rawValue)")
            if !lifted {
                lifted = true
                for r in lift { p.feed(r) }
            }
        }
        #expect(!handed.contains("pan ended"), "the lift came after this drain began: \(handed)")
        var next: [String] = []
        p.drain { next.append("\($0.name) \($0.state.rawValue)") }
        #expect(next == ["pan ended"], "the lift's event is handed out by the next drain: \(next)")
    }
}
