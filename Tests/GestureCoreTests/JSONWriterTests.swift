import GestureCore
import Testing

/// The event writer fills bytes digit by digit; what it writes must be what
/// `formatFixed` and the string escaper say, for any value, and a writer reused
/// from event to event must not carry anything over.
@Suite struct JSONWriterTests {
    private func fixed(_ v: Double, _ decimals: Int) -> String {
        var w = JSONWriter()
        w.field("v", fixed: v, decimals: decimals)
        return w.finish()
    }

    @Test func numbersAreWrittenAsFormatFixedWritesThem() {
        var rng = SplitMix64(seed: 7)
        var values: [Double] = [
            0, -0.0, 0.5, -0.5, 0.004999, -0.004999, 0.005, 1e-9, -1e-9, 123.456789, -987.65,
            9.99999, 1e12, -1e12, 8.9e17, 9.1e17, 1e300, -1e300, .nan, .infinity, -.infinity,
            .leastNonzeroMagnitude, .greatestFiniteMagnitude,
        ]
        for _ in 0..<2000 {
            let magnitude = pow10(Int(rng.uniform(-4...10)))
            values.append((rng.uniform(-1...1) * 1_000_000).rounded() / 1_000_000 * magnitude)
        }
        for v in values {
            for d in [0, 1, 2, 3, 4, 6] {
                #expect(fixed(v, d) == "{\"v\":\(formatFixed(v, decimals: d))}", "\(v) with \(d) decimals")
            }
        }
    }

    @Test func pointsAndIntegers() {
        var w = JSONWriter()
        w.field("p", point: Point(x: -1.005, y: 2.5), decimals: 2)
        w.field("q", point: Point(x: .nan, y: 1e19), decimals: 1)
        w.field("n", int: Int.min)
        w.field("m", int: 0)
        w.field("b", bool: true)
        let expected =
            "{\"p\":[\(formatFixed(-1.005, decimals: 2)),2.50],\"q\":[0,\(formatFixed(1e19, decimals: 1))],"
            + "\"n\":-9223372036854775808,\"m\":0,\"b\":true}"
        #expect(w.finish() == expected)
    }

    @Test func timesAreExactMicroseconds() {
        for (us, text) in [
            (Int64(0), "0.000000"), (1, "0.000001"), (-1, "-0.000001"), (5_123_456_789, "5123.456789"),
            (-2_000_000, "-2.000000"), (Int64.max, "9223372036854.775807"),
            (Int64.min, "-9223372036854.775808"),
        ] {
            var w = JSONWriter()
            w.field("t", time: EventTime(microseconds: us))
            #expect(w.finish() == "{\"t\":\(text)}")
        }
    }

    @Test func stringsAreEscapedAsTheStringEscaperDoes() {
        let samples = [
            "plain", "", "quote \" and \\ backslash", "tab\tnew\nline\rreturn", "\u{1}\u{1f}\u{7f}",
            "Ünïcödé ✓ 指 🖐", String(repeating: "long name ", count: 40) + "\u{0}",
        ]
        for s in samples {
            var w = JSONWriter()
            w.field("s", string: s)
            var expected = "{\"s\":"
            JSONWriter.appendQuoted(s, to: &expected)
            #expect(w.finish() == expected + "}")
        }
    }

    @Test func aResetWriterStartsAfreshAndGrowsAsNeeded() {
        var w = JSONWriter(capacity: 8)
        w.field("name", string: String(repeating: "x", count: 1000))
        w.close()
        #expect(w.count == 1000 + 11)
        w.reset()
        w.field("a", int: 1)
        w.close()
        #expect(w.withBytes { String(decoding: $0, as: UTF8.self) } == "{\"a\":1}")
    }

    @Test func eventLinesAreTheEventsJSON() {
        let e = GestureEvent(
            name: "pan \"1\"", kind: .pan, state: .changed, time: EventTime(microseconds: 5_000_001),
            device: "Pad", fingers: 2, location: Point(x: 1, y: 2), locationNormalised: Point(x: 0.25, y: 0.5),
            detail: .pan(translation: Point(x: -3.456, y: 0), velocity: Point(x: 10.04, y: -0.05)))
        #expect(
            e.json
                == "{\"name\":\"pan \\\"1\\\"\",\"kind\":\"pan\",\"state\":\"changed\",\"time\":5.000001,\"device\":\"Pad\","
                + "\"fingers\":2,\"location_mm\":[1.00,2.00],\"location\":[0.2500,0.5000],\"translation_mm\":[-3.46,0.00],"
                + "\"velocity_mm_s\":[10.0,-0.1]}")
    }

    private func pow10(_ e: Int) -> Double {
        var r = 1.0
        if e >= 0 { for _ in 0..<e { r *= 10 } } else { for _ in 0..<(-e) { r /= 10 } }
        return r
    }
}
