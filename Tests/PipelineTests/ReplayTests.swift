import Foundation
import GestureConfig
import GestureCore
import GestureDaemon
import GestureTools
import Testing

/// Every real recording through the real decoder, arena and built-in config,
/// compared line by line with its committed expected events
/// (`Tests/fixtures/expected/NAME.jsonl`, failures included). A change of
/// behaviour shows here as a readable diff; when it is deliberate, rewrite the
/// files with `scripts/update-expected.sh` and commit the diff with the change.
@Suite("golden replays")
struct GoldenReplayTests {
    static let recordings = [
        "Atmel-maXTouch-Touchscreen.1-finger-drag-up-down.events",
        "Atmel-maXTouch-Touchscreen.1-finger-fast-taps.events",
        "Atmel-maXTouch-Touchscreen.2-fingers-touch-release.events",
        "Atmel-maXTouch-Touchscreen.4-finger-drag-down.events",
        "EP0430M09.2-finger-scroll-down.events",
        "EP0430M09.4-finger-drag-down.events",
        "ntrig-dell-xt2.event",
        "wetab.event",
    ]

    @Test func everyRecordingHasItsExpectedEvents() throws {
        let listed = try FileManager.default.contentsOfDirectory(atPath: fixturesDir + "/recordings")
            .filter { $0.hasSuffix(".events") || $0.hasSuffix(".event") }
        #expect(Set(listed) == Set(Self.recordings), "a new recording needs its expected events")
    }

    @Test(arguments: recordings)
    func replayMatchesTheExpectedEvents(file: String) throws {
        let actual = try Replay.run(recording: recording(file), descPath: nil, configuration: ConfigLoader.builtIn())
            .map(\.json)
        let path = fixturesDir + "/expected/" + file + ".jsonl"
        let text = try #require(FileManager.default.contents(atPath: path), "\(path) is missing")
        let expected = String(decoding: text, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(!expected.isEmpty)
        var differences: [String] = []
        for i in 0..<max(actual.count, expected.count) where differences.count < 8 {
            let a = i < actual.count ? actual[i] : "(nothing)"
            let e = i < expected.count ? expected[i] : "(nothing)"
            if a != e { differences.append("line \(i + 1):\n  expected \(e)\n  got      \(a)") }
        }
        let diff = differences.joined(separator: "\n")
        #expect(differences.isEmpty, "\(file): \(actual.count) events, \(expected.count) expected\n\(diff)")
    }
}

/// Golden replays: real recordings through the real decoder, arena and default config.
@Suite("replay of real recordings")
struct ReplayTests {
    let config = ConfigLoader.builtIn()
    static let shapeKinds: Set<GestureKind> = [.circle, .checkmark, .tickle]

    func replay(_ name: String) throws -> [GestureEvent] {
        try Replay.run(recording: recording(name), descPath: nil, configuration: config)
    }

    @Test func nineFastTapsAreNineTaps() throws {
        let events = try replay("Atmel-maXTouch-Touchscreen.1-finger-fast-taps.events")
        let taps = events.filter { $0.kind == .tap && $0.state == .recognized }
        let count = taps.reduce(0) { n, e in if case .tap(let t) = e.detail { n + t } else { n } }
        #expect(count == 9)
        #expect(!events.contains { $0.kind == .pan && $0.state == .began }, "no tap moved enough to pan")
        #expect(events.filter { $0.state != .failed }.allSatisfy { $0.kind == .tap })
        // Events come out in event time.
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time })
    }

    @Test(arguments: [
        ("Atmel-maXTouch-Touchscreen.4-finger-drag-down.events", 4),
        ("EP0430M09.4-finger-drag-down.events", 4),
        ("EP0430M09.2-finger-scroll-down.events", 2),
        ("Atmel-maXTouch-Touchscreen.1-finger-drag-up-down.events", 1),
    ])
    func dragsArePansWithTheirFingerCount(file: String, fingers: Int) throws {
        let events = try replay(file)
        let began = events.filter { $0.kind == .pan && $0.state == .began }
        #expect(began.count == 1)
        #expect(began.first?.fingers == fingers)
        #expect(events.filter { $0.kind == .pan && $0.state == .ended }.count == 1)
        #expect(events.last { $0.kind == .pan }?.state == .ended)
    }

    @Test func dragDirectionShowsInTheTranslation() throws {
        let down = try replay("Atmel-maXTouch-Touchscreen.4-finger-drag-down.events")
        guard case .pan(let t, _)? = down.last(where: { $0.kind == .pan })?.detail else {
            Issue.record("no pan")
            return
        }
        #expect(t.y > 20 && abs(t.x) < t.y / 4, "dragged down: \(t)")
        let scroll = try replay("EP0430M09.2-finger-scroll-down.events")
        guard case .pan(let s, _)? = scroll.last(where: { $0.kind == .pan })?.detail else {
            Issue.record("no pan")
            return
        }
        // Fingers move up the screen to scroll the content down.
        #expect(s.y < -20, "\(s)")
    }

    @Test func twoFingersHeldAndReleasedAreNoGesture() throws {
        let events = try replay("Atmel-maXTouch-Touchscreen.2-fingers-touch-release.events")
        #expect(events.filter { $0.state != .failed }.isEmpty)
        #expect(events.first { $0.name == "two_finger_tap" }?.reason == "held longer than 400 ms")
    }

    @Test(arguments: [
        "Atmel-maXTouch-Touchscreen.1-finger-drag-up-down.events",
        "Atmel-maXTouch-Touchscreen.1-finger-fast-taps.events",
        "Atmel-maXTouch-Touchscreen.2-fingers-touch-release.events",
        "Atmel-maXTouch-Touchscreen.4-finger-drag-down.events",
        "EP0430M09.2-finger-scroll-down.events",
        "EP0430M09.4-finger-drag-down.events",
        "wetab.event",
    ])
    func noRecordingInventsAShape(file: String) throws {
        let events = try replay(file)
        let shapes = events.filter { Self.shapeKinds.contains($0.kind) }
        let invented = shapes.filter { $0.state == .recognized }
        #expect(invented.isEmpty, "\(invented.map(\.json))")
        // The shapes looked and failed, each with a reason.
        #expect(!shapes.isEmpty)
        #expect(shapes.allSatisfy { $0.state == .failed && $0.cause != nil }, "\(shapes.map(\.json))")
    }

    @Test func everyFailureSaysWhy() throws {
        for file in ["Atmel-maXTouch-Touchscreen.1-finger-fast-taps.events", "EP0430M09.4-finger-drag-down.events"] {
            for e in try replay(file) where e.state == .failed || e.state == .cancelled {
                #expect(!(e.reason ?? "").isEmpty, "\(e.json)")
            }
        }
    }

    @Test func aConfiguredSizeReplacesTheFallback() throws {
        var c = config
        var rule = DeviceRule(match: DeviceMatch(name: "Atmel"))
        rule.sizeMM = Point(x: 154, y: 86)
        c.devices = [rule]
        var warnings: [String] = []
        _ = try Replay.run(
            recording: recording("Atmel-maXTouch-Touchscreen.1-finger-fast-taps.events"), descPath: nil,
            configuration: c
        ) { warnings.append($0) }
        #expect(warnings.isEmpty)
        _ = try Replay.run(
            recording: recording("Atmel-maXTouch-Touchscreen.1-finger-fast-taps.events"), descPath: nil,
            configuration: config
        ) { warnings.append($0) }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("set size_mm") == true)
    }

    @Test func theJSONEnvelopeHasTheDesignFields() throws {
        let e = try #require(
            try replay("Atmel-maXTouch-Touchscreen.1-finger-fast-taps.events").first { $0.state == .recognized })
        let json = e.json
        for key in [
            "\"name\":", "\"kind\":\"tap\"", "\"state\":\"recognized\"", "\"time\":",
            "\"device\":\"Atmel maXTouch Touchscreen\"",
            "\"fingers\":1", "\"location_mm\":[", "\"location\":[", "\"taps\":",
        ] {
            #expect(json.contains(key), "\(key) in \(json)")
        }
    }
}

/// Human-drawn $1 strokes turned into evemu recordings of a one-finger touch
/// (Tests/fixtures/strokes/make_recordings.py): whole-pipeline shape recognition.
@Suite("replay of human strokes as touch recordings")
struct StrokeReplayTests {
    let config = ConfigLoader.builtIn()

    func shapes(_ name: String) throws -> [String] {
        try Replay.run(recording: fixturesDir + "/strokes/" + name, descPath: nil, configuration: config)
            .filter { [.circle, .checkmark, .tickle, .tap].contains($0.kind) && $0.state == .recognized }
            .map(\.name)
    }

    @Test(arguments: [
        ("finger-circle.events", ["circle"]), ("finger-circle-fast.events", ["circle"]),
        ("finger-check.events", ["checkmark"]), ("finger-check-slow.events", ["checkmark"]),
        ("finger-triangle.events", []), ("finger-star.events", []),
    ])
    func eachStrokeIsWhatAPersonWouldNameIt(file: String, expected: [String]) throws {
        #expect(try shapes(file) == expected)
    }

    @Test func theCircleComesWithItsGeometry() throws {
        let events = try Replay.run(
            recording: fixturesDir + "/strokes/finger-circle.events", descPath: nil,
            configuration: config)
        let circle = try #require(events.first { $0.kind == .circle && $0.state == .recognized })
        guard case .circle(let c, let r, let err, _, let swept) = circle.detail else {
            Issue.record("no detail")
            return
        }
        // The stroke was centred on the 154 × 86 mm panel.
        #expect(c.distance(to: Point(x: 77, y: 43)) < 3)
        #expect(r > 8 && r < 14)
        #expect(err < 0.2)
        #expect(swept > 300)
        // A pan runs alongside (simultaneous_with) and ends at the same lift.
        #expect(events.contains { $0.kind == .pan && $0.state == .began })
        #expect(events.last?.kind == .pan && events.last?.state == .ended)
    }
}

@Suite("pipeline teardown")
struct TeardownTests {
    @Test func cancellingCarriesTheReasonGiven() throws {
        let (device, events) = try Replay.load(
            recording: recording("Atmel-maXTouch-Touchscreen.1-finger-drag-up-down.events"), descPath: nil)
        let config = ConfigLoader.builtIn()
        let pipeline = DevicePipeline(
            description: device, geometry: config.geometry(for: device)!, configuration: config)
        var out: [GestureEvent] = []
        for e in events.prefix(120) {
            pipeline.feed(e)
            pipeline.drain { out.append($0) }
        }
        #expect(out.contains { $0.kind == .pan && $0.state == .began })
        pipeline.cancelAll(at: events[119].time, because: .deviceRemoved)
        var after: [GestureEvent] = []
        pipeline.drain { after.append($0) }
        #expect(after.filter { $0.kind == .pan }.map(\.state) == [.cancelled])
        #expect(after.allSatisfy { $0.reason == "device removed" }, "\(after.map(\.json))")
        pipeline.cancelAll(at: events[119].time, because: .deviceRemoved)
        pipeline.drain { after.append($0) }
        #expect(after.filter { $0.kind == .pan }.count == 1, "teardown twice reports once")
    }
}
