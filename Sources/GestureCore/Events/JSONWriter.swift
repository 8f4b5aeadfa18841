/// Writes one flat JSON object as UTF-8 bytes, field by field, without
/// Foundation and without building intermediate strings: numbers are written
/// digit by digit, strings are copied (and escaped where needed) straight into
/// the buffer. A writer kept and `reset()` between objects allocates nothing
/// once its buffer has grown to the largest object.
///
/// ```swift
/// var w = JSONWriter()
/// w.field("name", string: "pan")
/// w.field("fingers", int: 2)
/// w.field("scale", fixed: 1.25, decimals: 3)
/// let line = w.finish()            // {"name":"pan","fingers":2,"scale":1.250}
/// ```
public struct JSONWriter {
    /// Bytes 0..<count are the object so far; the rest is room to write into.
    private var storage: [UInt8]
    /// Bytes written: `{` and the fields so far (and the `}` after `close()`).
    public private(set) var count = 0
    private var first = true

    public init(capacity: Int = 256) {
        storage = Array(repeating: 0, count: max(capacity, 64))
        storage[0] = UInt8(ascii: "{")
        count = 1
    }

    /// Starts a new object, keeping the buffer.
    public mutating func reset() {
        storage[0] = UInt8(ascii: "{")
        count = 1
        first = true
    }

    /// Ends the object (`}`).
    public mutating func close() {
        write(max: 1) {
            $0[0] = UInt8(ascii: "}")
            return 1
        }
    }

    /// The bytes written so far, for one write.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try storage.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }

    /// The bytes written so far, as an array.
    public var bytes: [UInt8] { Array(storage[0..<count]) }

    /// Ends the object and returns it as a string.
    public mutating func finish() -> String {
        close()
        return withBytes { String(decoding: $0, as: UTF8.self) }
    }

    // MARK: fields

    public mutating func field(_ k: StaticString, raw: String) {
        key(k)
        appendUTF8(raw)
    }
    /// A field whose name is not known until run time (written as is: a name
    /// needs no escaping).
    public mutating func field(named k: String, raw: String) {
        var name = k
        name.withUTF8 { key(UnsafeRawBufferPointer($0)) }
        appendUTF8(raw)
    }
    public mutating func field(_ k: StaticString, string: String) {
        key(k)
        appendQuoted(string)
    }
    public mutating func field(_ k: StaticString, int: Int) {
        key(k)
        write(max: 21) { p in Self.put(UInt64(int.magnitude), negative: int < 0, decimals: 0, at: p) }
    }
    public mutating func field(_ k: StaticString, bool: Bool) {
        key(k)
        appendUTF8(bool ? "true" : "false")
    }
    /// A number with exactly `decimals` digits after the point, as `formatFixed` writes it.
    public mutating func field(_ k: StaticString, fixed value: Double, decimals: Int) {
        key(k)
        guard let scaled = Self.scaled(value, decimals: decimals) else {
            appendUTF8(formatFixed(value, decimals: decimals))
            return
        }
        write(max: Self.fixedMax(decimals)) { p in Self.put(scaled, negative: value < 0, decimals: decimals, at: p) }
    }
    public mutating func field(_ k: StaticString, point: Point, decimals: Int) {
        key(k)
        guard let x = Self.scaled(point.x, decimals: decimals), let y = Self.scaled(point.y, decimals: decimals) else {
            appendUTF8(
                "[" + formatFixed(point.x, decimals: decimals) + "," + formatFixed(point.y, decimals: decimals) + "]")
            return
        }
        write(max: 3 + 2 * Self.fixedMax(decimals)) { p in
            p[0] = UInt8(ascii: "[")
            var i = 1
            i += Self.put(x, negative: point.x < 0, decimals: decimals, at: p + i)
            p[i] = UInt8(ascii: ",")
            i += 1
            i += Self.put(y, negative: point.y < 0, decimals: decimals, at: p + i)
            p[i] = UInt8(ascii: "]")
            return i + 1
        }
    }
    /// Seconds with six decimals, exact: written from the integer microseconds.
    public mutating func field(_ k: StaticString, time: EventTime) {
        key(k)
        let us = time.microseconds
        write(max: 28) { p in Self.put(us.magnitude, negative: us < 0, decimals: 6, at: p) }
    }

    /// `,"k":` (no comma before the first field).
    @inline(__always)
    private mutating func key(_ k: StaticString) {
        k.withUTF8Buffer { key(UnsafeRawBufferPointer($0)) }
    }

    private mutating func key(_ k: UnsafeRawBufferPointer) {
        let comma = first ? 0 : 1
        first = false
        let n = k.count
        write(max: n + 4) { p in
            p[0] = UInt8(ascii: ",")
            p[comma] = UInt8(ascii: "\"")
            let i = comma + 1
            if n > 0 { UnsafeMutableRawPointer(p + i).copyMemory(from: k.baseAddress!, byteCount: n) }
            p[i + n] = UInt8(ascii: "\"")
            p[i + n + 1] = UInt8(ascii: ":")
            return i + n + 2
        }
    }

    // MARK: writing

    /// Lets `body` write at most `max` bytes at the end; it returns how many it wrote.
    @inline(__always)
    private mutating func write(max: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if storage.count - count < max { grow(to: count + max) }
        let start = count
        count += storage.withUnsafeMutableBufferPointer { body($0.baseAddress! + start) }
    }

    private mutating func grow(to needed: Int) {
        var size = storage.count * 2
        while size < needed { size *= 2 }
        // An array of zeros, not `repeatElement`: appending a `Repeated` copies
        // element by element through generic code, which unoptimized builds
        // run about a thousand times slower (a quarter of a second for a
        // 256 KB `status` of a hundred subscribers).
        storage += [UInt8](repeating: 0, count: size - storage.count)
    }

    private mutating func appendUTF8(_ s: String) {
        let n = s.utf8.count
        let done: Void? = s.utf8.withContiguousStorageIfAvailable { src in
            write(max: n) { p in
                p.update(from: src.baseAddress!, count: n)
                return n
            }
        }
        if done == nil {
            write(max: n) { p in
                var i = 0
                for b in s.utf8 {
                    p[i] = b
                    i += 1
                }
                return i
            }
        }
    }

    /// `s` as a JSON string: `"` and `\\` escaped, control characters as
    /// `\\n`, `\\r`, `\\t` or `\\u00xx`; everything else as is (the output is UTF-8).
    private mutating func appendQuoted(_ s: String) {
        let n = s.utf8.count
        // Escaping at most sixfolds a byte; plus the quotes.
        write(max: n * 6 + 2) { p in
            p[0] = UInt8(ascii: "\"")
            var i = 1
            let done: Void? = s.utf8.withContiguousStorageIfAvailable { src in
                // Most strings need no escaping: copied at once.
                if !src.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
                    if !src.isEmpty { (p + i).update(from: src.baseAddress!, count: src.count) }
                    i += src.count
                    return
                }
                for b in src { i += Self.putEscaped(b, at: p + i) }
            }
            if done == nil { for b in s.utf8 { i += Self.putEscaped(b, at: p + i) } }
            p[i] = UInt8(ascii: "\"")
            return i + 1
        }
    }

    @inline(__always)
    private static func putEscaped(_ b: UInt8, at p: UnsafeMutablePointer<UInt8>) -> Int {
        switch b {
        case 0x22, 0x5C:
            p[0] = 0x5C
            p[1] = b
            return 2
        case 0x0A:
            p[0] = 0x5C
            p[1] = UInt8(ascii: "n")
            return 2
        case 0x0D:
            p[0] = 0x5C
            p[1] = UInt8(ascii: "r")
            return 2
        case 0x09:
            p[0] = 0x5C
            p[1] = UInt8(ascii: "t")
            return 2
        case 0..<0x20:
            p[0] = 0x5C
            p[1] = UInt8(ascii: "u")
            p[2] = 0x30
            p[3] = 0x30
            p[4] = 0x30 + (b >> 4)  // 0 or 1
            p[5] = b & 15 < 10 ? 0x30 + b & 15 : 0x57 + b & 15  // lowercase hex
            return 6
        default:
            p[0] = b
            return 1
        }
    }

    /// `|value|` in units of the last decimal, rounded, as `formatFixed` computes
    /// it; nil when `formatFixed` does not write it digit by digit (not finite,
    /// or huge): those rare values go through `formatFixed` itself.
    @inline(__always)
    private static func scaled(_ value: Double, decimals: Int) -> UInt64? {
        guard value.isFinite, decimals <= maxDecimals else { return nil }
        let y = abs(value) * power10(decimals)
        guard y < 9.0e17 else { return nil }
        // `y.rounded()` (half away from zero) without a call into libm: the
        // truncation is exact below 2^63 and `y - t` is exact (y's fraction).
        let t = UInt64(y)
        let rounded = y - Double(t) >= 0.5 ? t + 1 : t
        return rounded < 900_000_000_000_000_000 ? rounded : nil
    }

    @inline(__always)
    private static func power10(_ decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return scale
    }

    private static func fixedMax(_ decimals: Int) -> Int { 21 + max(decimals, 0) }

    /// `n` units of 10^-decimals at `p`, with a sign when negative and not zero;
    /// returns the number of bytes. Integers are `decimals: 0`.
    /// One pass from the last digit to the first, dividing only by 10 (which the
    /// compiler turns into a multiplication), into a scratch area then copied.
    @inline(__always)
    private static func put(_ n: UInt64, negative: Bool, decimals: Int, at p: UnsafeMutablePointer<UInt8>) -> Int {
        // 20 digits, the point, the sign and up to `maxDecimals` decimals fit.
        var scratch = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        return withUnsafeMutableBytes(of: &scratch) { b -> Int in
            var i = b.count
            var v = n
            if decimals > 0 {
                for _ in 0..<decimals {
                    i -= 1
                    b[i] = UInt8(truncatingIfNeeded: 0x30 &+ v % 10)
                    v /= 10
                }
                i -= 1
                b[i] = UInt8(ascii: ".")
            }
            repeat {
                i -= 1
                b[i] = UInt8(truncatingIfNeeded: 0x30 &+ v % 10)
                v /= 10
            } while v > 0
            if negative && n != 0 {
                i -= 1
                b[i] = UInt8(ascii: "-")
            }
            let length = b.count - i
            p.update(from: b.baseAddress!.advanced(by: i).assumingMemoryBound(to: UInt8.self), count: length)
            return length
        }
    }

    /// The most decimals `field(_:fixed:decimals:)` and `field(_:point:decimals:)`
    /// write digit by digit; more go through `formatFixed`.
    private static let maxDecimals = 24

    // MARK: into a string

    /// Appends `s` to `out` as a JSON string, escaped as `field(_:string:)` does.
    public static func appendQuoted(_ s: String, to out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20:
                let h = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
            default: out.unicodeScalars.append(u)
            }
        }
        out += "\""
    }
}
