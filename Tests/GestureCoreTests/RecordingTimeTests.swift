import Testing

@testable import GestureCore

/// Timestamps in recordings are text from outside: any length of fraction, any
/// size of seconds gives an event or a clear error, never a trap.
@Suite("Recording timestamps")
struct RecordingTimeTests {
    func time(_ text: String) throws -> EventTime? {
        try EvemuRecording(parsing: "E: \(text) 0000 0000 0\n").events.first?.time
    }

    @Test func fractionsLongerThanMicrosecondsAreCutToMicroseconds() throws {
        #expect(try time("12.123456789") == EventTime(microseconds: 12_123_456))
        #expect(try time("12.1234569999999999999999999") == EventTime(microseconds: 12_123_456))
        #expect(try time("0.5") == EventTime(microseconds: 500_000))
        #expect(try time("3.000001") == EventTime(microseconds: 3_000_001))
    }

    @Test func secondsNearTheIntegerLimitAreAnErrorWithTheLine() throws {
        let biggest = EvemuParser.maxSeconds
        #expect(try time("\(biggest).999999") == EventTime(microseconds: biggest * 1_000_000 + 999_999))
        for bad in [
            "\(biggest + 1).0", "9223372036854775807.0", "99999999999999999999999.5", "-1.0", "+1.0",
            "1.-5", "1.+5", "1.", ".5", "1", "1.5.5", "0x10.0",
        ] {
            #expect(throws: EvemuRecording.ParseError.self, "\(bad)") { try time(bad) }
        }
        var error: EvemuRecording.ParseError?
        do {
            _ = try EvemuRecording(parsing: "N: x\nE: 9223372036854775807.999999 0000 0000 0\n")
        } catch let thrown {
            error = thrown
        }
        #expect(error?.line == 2)
        #expect(error?.message.contains("9223372036854775807.999999") == true)
    }

    @Test func timeArithmeticSaturates() {
        let late = EventTime(microseconds: .max - 10)
        #expect(late.adding(microseconds: 60_000_000) == EventTime(microseconds: .max))
        #expect(EventTime(microseconds: .min).adding(microseconds: -1) == EventTime(microseconds: .min))
        #expect(late + Millis(1e30) == EventTime(microseconds: .max))
        #expect(late + Millis(.infinity) == EventTime(microseconds: .max))
        #expect(EventTime.zero + Millis(.nan) == .zero)
        #expect(EventTime(seconds: .max, microseconds: 0) == EventTime(microseconds: .max))
        #expect(EventTime(seconds: .min, microseconds: 0) == EventTime(microseconds: .min))
        #expect(EventTime(seconds: 9_223_372_036_854, microseconds: 999_999) == EventTime(microseconds: .max))
        #expect(EventTime.seconds(1e300) == EventTime(microseconds: .max))
        #expect(EventTime.milliseconds(-.infinity) == EventTime(microseconds: .min))
        let span = EventTime(microseconds: .max) - EventTime(microseconds: .min)
        #expect(span.value > 1.8e16)
    }

    @Test func longKeyBitmapsAreCutAtTheLastKeyCode() throws {
        // 9,000 bytes of key bits: bits beyond KEY_MAX name nothing.
        let bytes = Array(repeating: "ff", count: 9000).joined(separator: " ")
        let r = try EvemuRecording(parsing: "N: keys\nB: 01 \(bytes)\nP: \(bytes)\n")
        let d = try #require(r.device)
        #expect(d.keys.count == 0x300)
        #expect(d.keys.max() == 0x2ff)
        #expect(d.properties.count == 0x20)
    }
}
