import Foundation
import GestureConfig
import GestureCore
import Testing

@Suite("config")
struct ConfigTests {
    func load(_ text: String) throws(ConfigErrors) -> Configuration {
        try ConfigLoader.load(text: text, file: "test.toml")
    }
    func errors(_ text: String) -> [ConfigError] { configErrors(text, file: "test.toml") }

    @Test func theShippedDefaultIsTheBuiltInOne() throws {
        let file = try String(contentsOfFile: repoRoot + "/config/gestured.toml", encoding: .utf8)
        #expect(file == defaultConfigText, "run scripts/embed-default-config.sh")
        let c = ConfigLoader.builtIn()
        #expect(
            c.recognizers.map(\.name) == [
                "double_tap", "tap", "two_finger_tap", "circle", "checkmark", "tickle",
                "swipe", "long_press", "pinch", "rotate", "pan",
            ])
        #expect(c.recognizers.first { $0.name == "tap" }?.requiresFailureOf == ["double_tap"])
        // Every kind but shape, which has no default: its examples are a person's strokes.
        #expect(Set(c.recognizers.map(\.kind)) == Set(GestureKind.allCases).subtracting([.shape]))
    }

    @Test func parametersAreRead() throws {
        let c = try load(
            """
            [recognizer.c]
            kind = "circle"
            tolerance = 0.3
            max_duration_ms = 2000
            simultaneous_with = ["p"]

            [recognizer.p]
            kind = "pan"
            min_fingers = 2
            start_threshold_mm = 8

            [[device]]
            match = "Atmel"
            size_mm = [154, 86.5]
            rotation = 90
            """)
        guard case .circle(let cp) = c.recognizers[0].parameters else {
            Issue.record("not a circle")
            return
        }
        #expect(cp.tolerance == 0.3)
        #expect(cp.maxDuration == Millis(2000))
        #expect(c.recognizers[0].simultaneousWith == ["p"])
        guard case .pan(let pp) = c.recognizers[1].parameters else {
            Issue.record("not a pan")
            return
        }
        #expect(pp.minFingers == 2 && pp.startThresholdMM == 8)
        #expect(
            c.devices == [
                {
                    var r = DeviceRule(match: DeviceMatch(name: "Atmel"))
                    r.sizeMM = Point(x: 154, y: 86.5)
                    r.rotation = .cw90
                    return r
                }()
            ])
    }

    @Test func aWrongTypeNamesFileLineAndKey() {
        let e = errors(
            """
            # comment
            [recognizer.circle]
            kind = "circle"
            tolerance = "tight"
            """)
        #expect(
            e.map(\.description) == [
                "test.toml:4: recognizer.circle.tolerance: expected a number from 0.01 to 1.00, got string \"tight\""
            ])
    }

    @Test func thePensReleaseTimeIsReadWithLibinputsAsDefault() throws {
        #expect(try load("[recognizer.t]\nkind = \"tap\"\n").penRelease == Millis(90))
        #expect(try load("[pen]\nrelease_ms = 250\n[recognizer.t]\nkind = \"tap\"\n").penRelease == Millis(250))
        // A number, as every other _ms key takes it.
        #expect(try load("[pen]\nrelease_ms = 90.0\n[recognizer.t]\nkind = \"tap\"\n").penRelease == Millis(90))
        let e = errors(
            """
            [recognizer.t]
            kind = "tap"

            [pen]
            release_ms = -1
            delay_ms = 3
            """)
        #expect(
            e.map(\.description) == [
                "test.toml:5: pen.release_ms: expected a number from 0.00 to 10000.00, got -1",
                "test.toml:6: pen.delay_ms: unknown key for [pen]; known keys: release_ms",
            ])
        #expect(errors("pen = 3\n").map(\.description) == ["test.toml:1: pen: expected a table [pen], got integer"])
    }

    @Test func outOfRangeAndUnknownKeysAreErrorsNotDefaults() {
        let e = errors(
            """
            [recognizer.t]
            kind = "tap"
            taps = 0
            tap_count = 2
            """)
        #expect(e.map(\.line) == [3, 4])
        #expect(e[0].message == "expected an integer from 1 to 10, got 0")
        #expect(e[1].key == "recognizer.t.tap_count")
        #expect(e[1].message.hasPrefix("unknown key for a tap recognizer; known keys:"))
    }

    @Test func unknownKindAndMissingKind() {
        let e = errors(
            """
            [recognizer.a]
            kind = "lasso"

            [recognizer.b]
            taps = 2
            """)
        #expect(e.map(\.line) == [2, 4])
        #expect(e[0].message.hasPrefix("unknown kind 'lasso'; expected one of: tap, pan"))
        #expect(e[1].message.hasPrefix("missing 'kind'"))
    }

    /// `--trace all` (replay, the daemon) means every recognizer: no
    /// recognizer may be called that.
    @Test func allIsNoRecognizersName() {
        let e = errors("[recognizer.all]\nkind = \"tap\"\n")
        #expect(e.count == 1)
        #expect(e.first?.message.contains("`--trace all` means every recognizer") == true, "\(e)")
    }

    @Test func relationsMustNameRecognizersAndHaveNoCycles() {
        let e = errors(
            """
            [recognizer.a]
            kind = "tap"
            requires_failure_of = ["b"]

            [recognizer.b]
            kind = "tap"
            requires_failure_of = ["a"]
            simultaneous_with = ["ghost"]
            """)
        #expect(e.count == 2)
        #expect(
            e.contains {
                $0.line == 8 && $0.key == "recognizer.b.simultaneous_with"
                    && $0.message.hasPrefix("no recognizer named 'ghost'")
            })
        #expect(
            e.contains {
                $0.key.hasSuffix("requires_failure_of") && $0.message.contains("cycle") && [3, 7].contains($0.line)
            })
    }

    @Test func tomlSyntaxErrorsKeepTheirLine() {
        let e = errors(
            """
            [recognizer.a]
            kind = "tap"
            taps = = 2
            """)
        #expect(e.count == 1)
        #expect(e[0].line == 3)
        #expect(e[0].message.hasPrefix("TOML syntax"))
    }

    @Test func deviceEntriesAreChecked() {
        let e = errors(
            """
            [[device]]
            match = "x"
            rotation = 45

            [[device]]
            size_mm = [10]
            """)
        #expect(e.map(\.key) == ["device.0.rotation", "device.1", "device.1.size_mm"])
        #expect(e.map(\.line) == [3, 5, 6])
        #expect(e[1].message == "a [[device]] entry needs match, vendor_product or syspath")
    }
}
