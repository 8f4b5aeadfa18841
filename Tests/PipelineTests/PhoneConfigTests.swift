import GestureConfig
import GestureCore
import Testing

/// The phone keys: edges, diagonals, screen-relative lengths, sliders.
@Suite("config: edges, diagonals, sliders")
struct PhoneConfigTests {
    func errors(_ text: String) -> [String] {
        do { _ = try ConfigLoader.load(text: text, file: "phone.toml"); return [] } catch { return error.errors.map(\.description) }
    }

    @Test func edgeKeysAreRead() throws {
        let c = try ConfigLoader.load(text: """
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
        guard case .swipe(let p) = r.parameters else { Issue.record("not a swipe"); return }
        #expect(p.directions == [.right, .upRight, .downRight])
        #expect(p.maxAngleDegrees == 22.5, "with diagonals the default angle narrows so that neighbours do not overlap")
        #expect(p.minLength == 0.33)
        #expect(p.maxDuration == Millis(800))
    }

    @Test func aSliderRunsAlongItsEdgeUnlessToldOtherwise() throws {
        let c = try ConfigLoader.load(text: """
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
        let axes: [PanRecognizer.Axis] = c.recognizers.compactMap { if case .pan(let p) = $0.parameters { p.axis } else { nil } }
        #expect(axes == [.x, .y, .x])
    }

    @Test func badPhoneKeysNameTheirLineAndKey() {
        #expect(errors("[recognizer.a]\nkind = \"swipe\"\nedge = \"left_ish\"\n")
                == ["phone.toml:3: recognizer.a.edge: unknown edge \"left_ish\"; expected one of: left, right, top, bottom, top_left, top_right, bottom_left, bottom_right, none"])
        #expect(errors("[recognizer.a]\nkind = \"tap\"\nedge_mm = 3.0\n")
                == ["phone.toml:3: recognizer.a.edge_mm: edge_mm only applies with an edge: set edge too"])
        #expect(errors("[recognizer.a]\nkind = \"swipe\"\nedge = \"top_left\"\nedge_range = [0.0, 0.5]\n")
                == ["phone.toml:4: recognizer.a.edge_range: edge_range applies to the left, right, top and bottom edges, not to \"top_left\""])
        #expect(errors("[recognizer.a]\nkind = \"swipe\"\nedge = \"left\"\nedge_range = [0.6, 0.5]\n")
                == ["phone.toml:4: recognizer.a.edge_range: expected [from, to] within 0…1 with from < to"])
        #expect(errors("[recognizer.a]\nkind = \"swipe\"\nedge = \"left\"\nedge_at = \"end\"\n")
                == ["phone.toml:4: recognizer.a.edge_at: expected \"start\" or \"start_or_end\", got \"end\""])
        #expect(errors("[recognizer.a]\nkind = \"swipe\"\ndirections = [\"up_left\"]\nmax_angle_deg = 30\n")
                == ["phone.toml:4: recognizer.a.max_angle_deg: at most 22.5 with diagonal directions (the nearest of eight is taken), got 30"])
        #expect(errors("[recognizer.a]\nkind = \"swipe\"\nmin_length = 1.5\n")
                == ["phone.toml:3: recognizer.a.min_length: expected a number from 0.00 to 1.00, got 1.5"])
        #expect(errors("[recognizer.a]\nkind = \"pan\"\naxis = \"y\"\n")
                == ["phone.toml:3: recognizer.a.axis: axis only applies to a slider: set step_mm too"])
        #expect(errors("[recognizer.a]\nkind = \"swipe\"\nmax_duration_ms = 10\n")
                == ["phone.toml:3: recognizer.a.max_duration_ms: expected 0 (no limit) or at least 50, got 10"])
    }
}
