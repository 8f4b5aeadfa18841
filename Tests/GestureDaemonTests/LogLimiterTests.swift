import GestureCore
import LinuxSystem
import Testing

/// The one rate limit for log lines, as the socket server, the daemon's
/// decisions and the clients use it.
@Suite struct LogLimiterTests {
    @Test func aBurstPassesThenLinesAreHeldUntilTheWindowEndsAndTheNextLineSaysHowMany() {
        var limiter = LogLimiter(burst: 2, window: Millis(1000))
        let t0 = EventTime(microseconds: 5_000_000)
        #expect(limiter.admit("a", now: t0) == "a")
        #expect(limiter.admit("b", now: t0 + Millis(10)) == "b")
        #expect(limiter.admit("c", now: t0 + Millis(20)) == nil)
        #expect(limiter.admit("d", now: t0 + Millis(999)) == nil)
        #expect(limiter.suppressed == 2)
        #expect(limiter.admit("e", now: t0 + Millis(1000)) == "e (2 similar lines suppressed in the last 1000 ms)")
        #expect(limiter.admit("f", now: t0 + Millis(1001)) == "f")
        #expect(limiter.suppressed == 0)
    }

    @Test func theVerdictsAreTheLinesAdmitLetsThrough() {
        var byVerdict = LogLimiter(burst: 3, window: Millis(100))
        var byLine = LogLimiter(burst: 3, window: Millis(100))
        var t = EventTime(microseconds: 0)
        for i in 0..<500 {
            t = t + Millis(i % 7 == 0 ? 40 : 3)
            let verdict = byVerdict.allow(at: t)
            let line = byLine.admit("x", now: t)
            switch verdict {
            case .suppressed: #expect(line == nil)
            case .allowed(0): #expect(line == "x")
            case .allowed(let held): #expect(line?.hasPrefix("x (\(held) similar line") == true)
            }
        }
    }
}
