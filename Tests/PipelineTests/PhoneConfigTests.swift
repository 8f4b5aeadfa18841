import GestureConfig
import GestureCore
import GestureTools
import Testing

/// The phone keys: edges, diagonals, screen-relative lengths, sliders.
@Suite("config: edges, diagonals, sliders")
struct PhoneConfigTests {
    func errors(_ text: String) -> [String] { configMessages(text, file: "phone.toml") }

    @Test func edgeKeysAreRead() throws {
        let c = try ConfigLoader.load(
            text: """
                [recognizer.back]
                kind = "swipe"
                edge = "left"
                edge_mm = 6.0
                edge_range = [0.25, 0.75]
                edge_at = "start_or_end"
                directions = ["right", "up_right", "down_right"]
                min_length = 0.33
                max_duration_ms = 800
                """, file: "phone.toml")
        let r = try #require(c.recognizers.first)
        #expect(r.filter.edge == EdgeFilter(edge: .left, marginMM: 6, range: 0.25...0.75, at: .startOrEnd))
        guard case .swipe(let p) = r.parameters else {
            Issue.record("not a swipe")
            return
        }
        #expect(p.directions == [.right, .upRight, .downRight])
        #expect(p.maxAngleDegrees == 22.5, "with diagonals the default angle narrows so that neighbours do not overlap")
        #expect(p.minLength == 0.33)
        #expect(p.maxDuration == Millis(800))
    }

    @Test func aSliderRunsAlongItsEdgeUnlessToldOtherwise() throws {
        let c = try ConfigLoader.load(
            text: """
                [recognizer.brightness]
                kind = "pan"
                edge = "top"
                step_mm = 4.0
                [recognizer.volume]
                kind = "pan"
                edge = "right"
                step_mm = 4.0
                [recognizer.free]
                kind = "pan"
                step_mm = 4.0
                axis = "x"
                """, file: "phone.toml")
        let axes: [PanRecognizer.Axis] = c.recognizers.compactMap {
            if case .pan(let p) = $0.parameters { p.axis } else { nil }
        }
        #expect(axes == [.x, .y, .x])
    }

    @Test func badPhoneKeysNameTheirLineAndKey() {
        #expect(
            errors("[recognizer.a]\nkind = \"swipe\"\nedge = \"left_ish\"\n")
                == [
                    "phone.toml:3: recognizer.a.edge: unknown edge \"left_ish\"; expected one of: left, right, top, bottom, top_left, top_right, bottom_left, bottom_right, none"
                ])
        #expect(
            errors("[recognizer.a]\nkind = \"tap\"\nedge_mm = 3.0\n")
                == ["phone.toml:3: recognizer.a.edge_mm: edge_mm only applies with an edge: set edge too"])
        #expect(
            errors("[recognizer.a]\nkind = \"swipe\"\nedge = \"top_left\"\nedge_range = [0.0, 0.5]\n")
                == [
                    "phone.toml:4: recognizer.a.edge_range: edge_range applies to the left, right, top and bottom edges, not to \"top_left\""
                ])
        #expect(
            errors("[recognizer.a]\nkind = \"swipe\"\nedge = \"left\"\nedge_range = [0.6, 0.5]\n")
                == ["phone.toml:4: recognizer.a.edge_range: expected [from, to] within 0…1 with from < to"])
        #expect(
            errors("[recognizer.a]\nkind = \"swipe\"\nedge = \"left\"\nedge_at = \"end\"\n")
                == ["phone.toml:4: recognizer.a.edge_at: expected \"start\" or \"start_or_end\", got \"end\""])
        #expect(
            errors("[recognizer.a]\nkind = \"swipe\"\ndirections = [\"up_left\"]\nmax_angle_deg = 30\n")
                == [
                    "phone.toml:4: recognizer.a.max_angle_deg: at most 22.5 with diagonal directions (the nearest of eight is taken), got 30"
                ])
        #expect(
            errors("[recognizer.a]\nkind = \"swipe\"\nmin_length = 1.5\n")
                == ["phone.toml:3: recognizer.a.min_length: expected a number from 0.00 to 1.00, got 1.5"])
        #expect(
            errors("[recognizer.a]\nkind = \"pan\"\naxis = \"y\"\n")
                == ["phone.toml:3: recognizer.a.axis: axis only applies to a slider: set step_mm too"])
        #expect(
            errors("[recognizer.a]\nkind = \"swipe\"\nmax_duration_ms = 10\n")
                == ["phone.toml:3: recognizer.a.max_duration_ms: expected 0 (no limit) or at least 50, got 10"])
    }
}

/// config/examples/phone.toml on a 68 × 136 mm phone panel, 120 Hz: each stroke
/// a phone user makes is the gesture the file's comments promise, and only that.
@Suite("config/examples/phone.toml")
struct PhoneExampleTests {
    final class Phone {
        var decoder: SlotDecoder
        let arena: Arena
        var now = EventTime(microseconds: 1_000_000)
        var trackingID: Int32 = 10
        var events: [GestureEvent] = []

        init() throws {
            var d = DeviceDescription(name: "phone panel")
            d.axes[ABS.MT_SLOT] = AxisInfo(minimum: 0, maximum: 9)
            d.axes[ABS.MT_TRACKING_ID] = AxisInfo(minimum: 0, maximum: 65535)
            d.axes[ABS.MT_POSITION_X] = AxisInfo(minimum: 0, maximum: 680, resolution: 10)
            d.axes[ABS.MT_POSITION_Y] = AxisInfo(minimum: 0, maximum: 1360, resolution: 10)
            d.properties = [InputProp.direct]
            decoder = SlotDecoder(device: d, geometry: DeviceGeometry(x: d.xAxis!, y: d.yAxis!))
            let text = try String(contentsOfFile: repoRoot + "/config/examples/phone.toml", encoding: .utf8)
            arena = try ConfigLoader.load(text: text, file: "phone.toml").makeArena(device: d.name)
        }

        private func feed(_ type: UInt16, _ code: UInt16, _ value: Int32) {
            if decoder.feed(RawEvent(time: now, type: type, code: code, value: value)) {
                arena.handle(decoder.lastFrame, into: &events)
            }
        }

        /// Fingers along parallel paths (one offset each), 8 ms a frame, then lifted.
        func stroke(_ points: [Point], fingers: Int = 1, offset: Point = Point(x: 12, y: 0)) {
            for (i, p) in points.enumerated() {
                for f in 0..<fingers {
                    feed(EV.ABS, ABS.MT_SLOT, Int32(f))
                    if i == 0 {
                        trackingID += 1
                        feed(EV.ABS, ABS.MT_TRACKING_ID, trackingID)
                    }
                    let q = p + offset * Double(f)
                    feed(EV.ABS, ABS.MT_POSITION_X, Int32((q.x * 10).rounded()))
                    feed(EV.ABS, ABS.MT_POSITION_Y, Int32((q.y * 10).rounded()))
                }
                feed(EV.SYN, SYN.REPORT, 0)
                now = now + Millis(8)
            }
            for f in 0..<fingers {
                feed(EV.ABS, ABS.MT_SLOT, Int32(f))
                feed(EV.ABS, ABS.MT_TRACKING_ID, -1)
            }
            feed(EV.SYN, SYN.REPORT, 0)
            now = now + Millis(1000)
            arena.advance(to: now, into: &events)
        }

        func take() -> [String] {
            defer { events.removeAll() }
            return events.filter { $0.state != .failed && $0.state != .changed }.map { e in
                var s = "\(e.name) \(e.state.rawValue)"
                if case .swipe(let d, _, _) = e.detail { s += " \(d.rawValue)" }
                if let edge = e.edge { s += " @\(edge.rawValue)" }
                return s
            }
        }
    }

    func line(_ a: Point, _ b: Point, frames: Int = 12) -> [Point] {
        (0...frames).map { i in a + (b - a) * (Double(i) / Double(frames)) }
    }

    @Test func eachPhoneStrokeIsTheGestureItsCommentPromises() throws {
        let p = try Phone()
        let cases: [(String, [Point], Int, [String])] = [
            (
                "in from the left edge", line(Point(x: 1, y: 70), Point(x: 35, y: 72)), 1,
                ["from_left recognized right @left"]
            ),
            (
                "in from the right edge", line(Point(x: 67, y: 60), Point(x: 30, y: 58)), 1,
                ["from_right recognized left @right"]
            ),
            (
                "down from the top edge", line(Point(x: 34, y: 1), Point(x: 35, y: 40)), 1,
                ["from_top recognized down @top"]
            ),
            (
                "up from the bottom edge", line(Point(x: 30, y: 135), Point(x: 31, y: 95)), 1,
                ["from_bottom recognized up @bottom"]
            ),
            (
                "from the bottom-right corner", line(Point(x: 67, y: 135), Point(x: 45, y: 113)), 1,
                ["corner_bottom_right recognized up_left @bottom_right"]
            ),
            (
                "from the top-left corner", line(Point(x: 1, y: 1), Point(x: 20, y: 20)), 1,
                ["corner_top_left recognized down_right @top_left"]
            ),
            (
                "down along the left edge", line(Point(x: 1.5, y: 40), Point(x: 2, y: 70), frames: 30), 1,
                ["left_slider began @left", "left_slider ended @left"]
            ),
            (
                "a short swipe up in the middle", line(Point(x: 34, y: 80), Point(x: 35, y: 50)), 1,
                ["swipe recognized up"]
            ),
            (
                "a long swipe up in the middle", line(Point(x: 34, y: 125), Point(x: 35, y: 20)), 1,
                ["long_swipe recognized up"]
            ),
            (
                "a diagonal in the middle", line(Point(x: 20, y: 90), Point(x: 45, y: 65)), 1,
                ["swipe recognized up_right"]
            ),
            (
                "two fingers down from the top", line(Point(x: 20, y: 1), Point(x: 21, y: 40)), 2,
                ["two_from_top recognized down @top"]
            ),
            (
                "three fingers left", line(Point(x: 40, y: 70), Point(x: 5, y: 70)), 3,
                ["three_finger_swipe recognized left"]
            ),
        ]
        for (what, points, fingers, expected) in cases {
            p.stroke(points, fingers: fingers, offset: Point(x: fingers == 3 ? 0 : 12, y: fingers == 3 ? 12 : 0))
            #expect(p.take() == expected, "\(what)")
        }
    }

    @Test func theSliderStepsOnceEveryStep() throws {
        let p = try Phone()
        p.stroke(line(Point(x: 1.5, y: 40), Point(x: 2, y: 73), frames: 30))  // 33 mm down: 6 steps of 5.5 mm
        #expect(p.events.compactMap(\.step) == [1, 1, 1, 1, 1, 1])
    }
}

/// The generated phone strokes (Tests/fixtures/phone, eased in and out, bowed,
/// with jitter: the strokes the lisgd comparison plays) through
/// config/examples/phone.toml: each labelled stroke is the gesture of the phone
/// set that stands for its Sxmo binding, and the strokes no binding takes are
/// nothing.
@Suite("phone strokes through config/examples/phone.toml")
struct PhoneStrokeTests {
    /// Sxmo's binding label → the phone set's recognizer (and slider steps).
    static let expected: [String: String] = [
        "bottomrightcorner": "corner_bottom_right", "bottomleftcorner": "corner_bottom_left",
        "topleftcorner": "corner_top_left", "toprightcorner": "corner_top_right",
        "upbottomedge": "from_bottom", "downtopedge": "from_top", "rightleftedge": "from_left",
        "leftrightedge": "from_right",
        "rightbottomedge": "along_bottom", "leftbottomedge": "along_bottom",
        "upleftedge": "left_slider", "downleftedge": "left_slider", "uprightedge": "right_slider",
        "downrightedge": "right_slider",
        "righttopedge": "top_slider", "lefttopedge": "top_slider",
        "downbottomedge": "swipe", "uptopedge": "swipe", "rightrightedge_short": "swipe",
        "leftrightedge_short": "swipe",
        "longoneleft": "long_swipe", "longoneright": "long_swipe", "longoneup": "long_swipe",
        "longonedown": "long_swipe",
        "mediumoneleft": "swipe", "mediumoneright": "swipe", "mediumoneup": "swipe", "mediumonedown": "swipe",
        "oneleft": "swipe", "oneright": "swipe", "oneup": "swipe", "onedown": "swipe",
        "upleft": "swipe", "downleft": "swipe", "upright": "swipe", "downright": "swipe",
        "twodowntopedge": "two_from_top", "twodownbottomedge": "two_finger_swipe",
        "twoleft": "two_finger_swipe", "tworight": "two_finger_swipe", "twoup": "two_finger_swipe",
        "twodown": "two_finger_swipe",
        "threeleft": "three_finger_swipe", "threeup": "three_finger_swipe",
    ]

    @Test func eachStrokeIsItsGesture() throws {
        let text = try String(contentsOfFile: repoRoot + "/config/examples/phone.toml", encoding: .utf8)
        let config = try ConfigLoader.load(text: text, file: "phone.toml")
        let dir = fixturesDir + "/phone"
        let events = try Replay.run(
            recording: dir + "/strokes.events", descPath: dir + "/strokes.desc", configuration: config)
        let rows = try String(contentsOfFile: dir + "/strokes.strokes.tsv", encoding: .utf8)
            .split(separator: "\n").dropFirst().map {
                $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            }
        var wrong: [String] = []
        for row in rows {
            // Times in the table count from the recording's first event, at 1 s.
            let start = Double(row[1])! + 1, end = Double(row[2])! + 1
            let label = row[3], what = row[5]
            let mine = events.filter {
                $0.time.seconds >= start - 0.01 && $0.time.seconds <= end + 1.0
                    && ($0.state == .recognized || $0.state == .began)
            }
            let names = mine.map(\.name)
            // "oneright" along the bottom edge, short: the phone set's swipes in the middle want no edge.
            let want: [String] =
                what.contains("along the bottom edge, right, short") ? [] : Self.expected[label].map { [$0] } ?? []
            if names != want { wrong.append("\(row[0]) \(what): \(names), expected \(want)") }
            if let steps = Int(row[4]), steps > 0 {
                let slid = events.filter {
                    $0.time.seconds >= start - 0.01 && $0.time.seconds <= end + 0.05 && $0.step != nil
                }
                if abs(slid.count - steps) > 1 {
                    wrong.append("\(row[0]) \(what): \(slid.count) steps, expected \(steps) ± 1")
                }
            }
        }
        #expect(rows.count == 49)
        #expect(wrong.isEmpty, "\(wrong.joined(separator: "\n"))")
    }
}
