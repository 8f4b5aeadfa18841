#if canImport(Glibc)
    import Glibc
#endif
#if FUZZING
    import CFuzzer
#endif

/// The signature of a libFuzzer test function.
public typealias FuzzTest = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

/// Runs libFuzzer's driver on `test` with the process's arguments (libFuzzer's
/// flags, corpus directories or files). Built without `-DFUZZING` (the plain
/// `swift build`), the fuzz targets only say how to build them.
public func runFuzzer(_ test: FuzzTest) -> Never {
    #if FUZZING
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, test))
    #else
        printError("this fuzz target was built without libFuzzer; build and run it with scripts/fuzz.sh")
        exit(2)
    #endif
}

/// Stops the process when an invariant does not hold: libFuzzer reports the
/// crash and keeps the input that caused it.
@inline(__always)
public func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        printError("invariant violated: \(message())")
        abort()
    }
}

/// Reads a fuzz input as a stream of little-endian numbers; past the end
/// every read gives nil.
public struct ByteReader {
    public let bytes: UnsafeBufferPointer<UInt8>
    public private(set) var offset = 0

    public init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = UnsafeBufferPointer(start: size > 0 ? data : nil, count: size > 0 ? size : 0)
    }

    public var atEnd: Bool { offset >= bytes.count }

    public mutating func u8() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    public mutating func u16() -> UInt16? {
        guard let a = u8(), let b = u8() else { return nil }
        return UInt16(a) | UInt16(b) << 8
    }

    public mutating func i32() -> Int32? {
        guard let a = u16(), let b = u16() else { return nil }
        return Int32(bitPattern: UInt32(a) | UInt32(b) << 16)
    }

    /// The bytes left, decoded as UTF-8 (invalid bytes replaced).
    public mutating func rest() -> String {
        defer { offset = bytes.count }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[min(offset, bytes.count)...]), as: UTF8.self)
    }
}

/// Writes a line to standard error, unbuffered.
public func printError(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    var done = 0
    while done < bytes.count {
        let n = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress! + done, $0.count - done) }
        if n <= 0 { return }
        done += n
    }
}
