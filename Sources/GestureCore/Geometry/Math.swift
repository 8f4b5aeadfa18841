#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The core is free of Foundation; libm comes from the C library module.
#if canImport(Glibc)
    @inline(__always) func atan2(_ y: Double, _ x: Double) -> Double { Glibc.atan2(y, x) }
    @inline(__always) func cos(_ a: Double) -> Double { Glibc.cos(a) }
    @inline(__always) func sin(_ a: Double) -> Double { Glibc.sin(a) }
    @inline(__always) func acos(_ a: Double) -> Double { Glibc.acos(a) }
#elseif canImport(Musl)
    @inline(__always) func atan2(_ y: Double, _ x: Double) -> Double { Musl.atan2(y, x) }
    @inline(__always) func cos(_ a: Double) -> Double { Musl.cos(a) }
    @inline(__always) func sin(_ a: Double) -> Double { Musl.sin(a) }
    @inline(__always) func acos(_ a: Double) -> Double { Musl.acos(a) }
#else
    @inline(__always) func atan2(_ y: Double, _ x: Double) -> Double { Darwin.atan2(y, x) }
    @inline(__always) func cos(_ a: Double) -> Double { Darwin.cos(a) }
    @inline(__always) func sin(_ a: Double) -> Double { Darwin.sin(a) }
    @inline(__always) func acos(_ a: Double) -> Double { Darwin.acos(a) }
#endif

/// Wraps an angle difference into (-π, π].
@inline(__always) func wrapAngle(_ a: Double) -> Double {
    var a = a
    while a > .pi { a -= 2 * .pi }
    while a <= -.pi { a += 2 * .pi }
    return a
}

@inline(__always) func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
@inline(__always) func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }

/// Formats a number with a fixed count of decimals, without Foundation.
/// Non-finite numbers print as 0 so that JSON output stays valid.
public func formatFixed(_ value: Double, decimals: Int) -> String {
    guard value.isFinite else { return "0" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 9.0e17 else { return String(value) }
    let n = Int64(scaled)
    let divisor = Int64(scale)
    let whole = n / divisor
    let frac = n % divisor
    var s = (value < 0 && n != 0) ? "-" : ""
    s += String(whole)
    if decimals > 0 {
        let f = String(frac)
        s += "."
        s += String(repeating: "0", count: decimals - f.count)
        s += f
    }
    return s
}
