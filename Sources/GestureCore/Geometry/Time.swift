/// A point on the event clock (CLOCK_MONOTONIC, as the kernel stamps input events),
/// in microseconds. The core never reads a clock: time only enters as event
/// timestamps and through `Arena.advance(to:)`.
public struct EventTime: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var microseconds: Int64

    public init(microseconds: Int64) { self.microseconds = microseconds }
    public init(seconds: Int64, microseconds: Int64) {
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        self.microseconds = overflow ? (seconds < 0 ? .min : .max) : saturatingAdd(whole, microseconds)
    }
    public static func seconds(_ s: Double) -> EventTime {
        EventTime(microseconds: saturatingInt64(s * 1_000_000))
    }
    public static func milliseconds(_ ms: Double) -> EventTime {
        EventTime(microseconds: saturatingInt64(ms * 1000))
    }

    public static let zero = EventTime(microseconds: 0)

    public var seconds: Double { Double(microseconds) / 1_000_000 }

    public static func < (a: EventTime, b: EventTime) -> Bool { a.microseconds < b.microseconds }

    public static func + (t: EventTime, d: Millis) -> EventTime {
        EventTime(microseconds: saturatingAdd(t.microseconds, saturatingInt64(d.value * 1000)))
    }
    /// `microseconds` later (earlier when negative), saturating.
    public func adding(microseconds d: Int64) -> EventTime {
        EventTime(microseconds: saturatingAdd(microseconds, d))
    }
    /// Elapsed time from `b` to `a`.
    public static func - (a: EventTime, b: EventTime) -> Millis {
        // In floating point: two far-apart times need not have a 64-bit difference.
        Millis((Double(a.microseconds) - Double(b.microseconds)) / 1000)
    }

    public var description: String { formatFixed(seconds, decimals: 6) }
}

/// A duration in milliseconds: the unit of every time threshold in config.
public struct Millis: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var value: Double
    public init(_ value: Double) { self.value = value }
    public static func < (a: Millis, b: Millis) -> Bool { a.value < b.value }
    public var seconds: Double { value / 1000 }
    public var description: String { "\(formatFixed(value, decimals: 0)) ms" }
}

@inline(__always)
func saturatingAdd(_ a: Int64, _ b: Int64) -> Int64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? (b < 0 ? .min : .max) : sum
}

/// Rounds to the nearest integer, saturating at the ends of Int64; NaN gives 0.
@inline(__always)
func saturatingInt64(_ d: Double) -> Int64 {
    let r = d.rounded()
    if r.isNaN { return 0 }
    if r >= 9_223_372_036_854_775_807.0 { return .max }
    if r <= -9_223_372_036_854_775_808.0 { return .min }
    return Int64(r)
}
