import GestureCore

/// A parsed JSON value. Requests are small flat objects, so a strict parser of
/// our own (depth-limited, no Foundation bridging of numbers and booleans) is
/// simpler to trust than JSONSerialization: `1` is never `true` here.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The value of `key` in an object (parsed objects have each key once).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let fields) = self else { return nil }
        return fields.first { $0.0 == key }?.1
    }

    public var string: String? { if case .string(let s) = self { return s } else { return nil } }
    public var number: Double? { if case .number(let n) = self { return n } else { return nil } }

    /// The value written back as compact JSON (used to echo a request's `id`).
    public var json: String {
        var out = ""
        write(to: &out)
        return out
    }

    func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n):
            if n == n.rounded(), abs(n) < 1e15 { out += String(Int64(n)) } else { out += "\(n)" }
        case .string(let s): JSONWriter.appendQuoted(s, to: &out)
        case .array(let items):
            out += "["
            for (i, v) in items.enumerated() {
                if i > 0 { out += "," }
                v.write(to: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (i, (k, v)) in fields.enumerated() {
                if i > 0 { out += "," }
                JSONWriter.appendQuoted(k, to: &out)
                out += ":"
                v.write(to: &out)
            }
            out += "}"
        }
    }
}

/// Why a line is not JSON, and where.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public var offset: Int
    public var message: String
    /// Set when the text is JSON but an object names this key twice: readers
    /// disagree on which value counts (first or last), so none is taken.
    public var duplicateKey: String?
    public var description: String { "at byte \(offset): \(message)" }
}

extension JSONValue {
    /// Parses one complete JSON text from UTF-8 bytes.
    public static func parse(_ bytes: some Collection<UInt8>, maxDepth: Int = 32) throws(JSONParseError) -> JSONValue {
        var p = JSONParser(bytes: Array(bytes), maxDepth: maxDepth)
        p.skipSpace()
        let v = try p.value(depth: 0)
        p.skipSpace()
        if p.i != p.b.count { throw p.error("unexpected data after the value") }
        return v
    }

    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

private struct JSONParser {
    let b: [UInt8]
    let maxDepth: Int
    var i = 0

    init(bytes: [UInt8], maxDepth: Int) {
        b = bytes
        self.maxDepth = maxDepth
    }

    func error(_ m: String) -> JSONParseError { JSONParseError(offset: i, message: m) }

    mutating func skipSpace() {
        while i < b.count, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D { i += 1 }
    }

    mutating func literal(_ word: String, _ v: JSONValue) throws(JSONParseError) -> JSONValue {
        for c in word.utf8 {
            guard i < b.count, b[i] == c else { throw error("expected '\(word)'") }
            i += 1
        }
        return v
    }

    mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < maxDepth else { throw error("nested deeper than \(maxDepth)") }
        guard i < b.count else { throw error("unexpected end of input") }
        switch b[i] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("unexpected character")
        }
    }

    mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        i += 1
        var fields: [(String, JSONValue)] = []
        var keys = Set<String>()
        skipSpace()
        if i < b.count, b[i] == UInt8(ascii: "}") {
            i += 1
            return .object(fields)
        }
        while true {
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: "\"") else { throw error("expected a key string") }
            let keyOffset = i
            let k = try string()
            guard keys.insert(k).inserted else {
                throw JSONParseError(
                    offset: keyOffset,
                    message: "the key '\(sanitizedForLog(k, maxCharacters: 64))' appears twice in one object",
                    duplicateKey: k)
            }
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: ":") else { throw error("expected ':'") }
            i += 1
            skipSpace()
            fields.append((k, try value(depth: depth + 1)))
            skipSpace()
            guard i < b.count else { throw error("unexpected end of input") }
            if b[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if b[i] == UInt8(ascii: "}") {
                i += 1
                return .object(fields)
            }
            throw error("expected ',' or '}'")
        }
    }

    mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        i += 1
        var items: [JSONValue] = []
        skipSpace()
        if i < b.count, b[i] == UInt8(ascii: "]") {
            i += 1
            return .array(items)
        }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard i < b.count else { throw error("unexpected end of input") }
            if b[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if b[i] == UInt8(ascii: "]") {
                i += 1
                return .array(items)
            }
            throw error("expected ',' or ']'")
        }
    }

    mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard i + 4 <= b.count else { throw error("short \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = b[i]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("bad hex digit in \\u escape")
            }
            v = v * 16 + d
            i += 1
        }
        return v
    }

    mutating func string() throws(JSONParseError) -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            guard i < b.count else { throw error("unterminated string") }
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                break
            }
            if c < 0x20 { throw error("control character in string") }
            if c != UInt8(ascii: "\\") {
                out.append(c)
                i += 1
                continue
            }
            i += 1
            guard i < b.count else { throw error("unterminated escape") }
            let e = b[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard i + 2 <= b.count, b[i] == UInt8(ascii: "\\"), b[i + 1] == UInt8(ascii: "u") else {
                        throw error("lone high surrogate")
                    }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("bad low surrogate") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let u = Unicode.Scalar(scalar) else { throw error("invalid code point") }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default: throw error("unknown escape")
            }
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw error("string is not valid UTF-8") }
        return s
    }

    mutating func number() throws(JSONParseError) -> JSONValue {
        let start = i
        if b[i] == UInt8(ascii: "-") { i += 1 }
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.i
            while p.i < p.b.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.b[p.i]) { p.i += 1 }
            return p.i - s
        }
        guard digits(&self) > 0 else { throw error("expected digits") }
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            guard digits(&self) > 0 else { throw error("expected digits after '.'") }
        }
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            guard digits(&self) > 0 else { throw error("expected exponent digits") }
        }
        let text = String(decoding: b[start..<i], as: UTF8.self)
        guard let d = Double(text), d.isFinite else {
            throw JSONParseError(offset: start, message: "number out of range")
        }
        return .number(d)
    }
}
