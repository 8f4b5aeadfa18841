/// A point on the event clock (CLOCK_MONOTONIC, as the kernel stamps input events),
/// in microseconds. The core never reads a clock: time only enters as event
/// timestamps and through `Arena.advance(to:)`.
public struct EventTime: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var microseconds: Int64

    public init(microseconds: Int64) { self.microseconds = microseconds }
    public init(seconds: Int64, microseconds: Int64) {
        self.microseconds = seconds * 1_000_000 + microseconds
    }
    public static func seconds(_ s: Double) -> EventTime {
        EventTime(microseconds: Int64((s * 1_000_000).rounded()))
    }
    public static func milliseconds(_ ms: Double) -> EventTime {
        EventTime(microseconds: Int64((ms * 1000).rounded()))
    }

    public static let zero = EventTime(microseconds: 0)

    public var seconds: Double { Double(microseconds) / 1_000_000 }

    public static func < (a: EventTime, b: EventTime) -> Bool { a.microseconds < b.microseconds }

    public static func + (t: EventTime, d: Millis) -> EventTime {
        EventTime(microseconds: t.microseconds + Int64((d.value * 1000).rounded()))
    }
    /// Elapsed time from `b` to `a`.
    public static func - (a: EventTime, b: EventTime) -> Millis {
        Millis(Double(a.microseconds - b.microseconds) / 1000)
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
