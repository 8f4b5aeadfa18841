/// A parsed evemu recording: the device description (`N:`, `I:`, `P:`, `B:`, `A:`
/// lines) and/or its events (`E:` lines). Either part may be missing: some
/// `.events` files carry no description, and a `.desc` file carries no events.
public struct EvemuRecording: Sendable {
    public var device: DeviceDescription?
    public var events: [RawEvent]

    public init(device: DeviceDescription?, events: [RawEvent]) {
        self.device = device
        self.events = events
    }

    public struct ParseError: Error, CustomStringConvertible, Sendable {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// Parses evemu 1.1–1.3 text. `A:` lines may have 5 or 6 numbers (the sixth,
    /// resolution, came with evemu 1.2).
    public init(parsing text: String) throws(ParseError) {
        var parser = EvemuParser()
        var events: [RawEvent] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let e = try parser.parse(line: line) { events.append(e) }
        }
        self.device = parser.device
        self.events = events
    }
}

/// Parses evemu text one line at a time, so that a recording of any length is
/// read in constant memory: the description lines first, then `E:` lines, each
/// returned as it is parsed. Numbers are checked, never trusted: a time must be
/// `SECONDS.FRACTION` in decimal digits (a fraction longer than microseconds is
/// cut to microseconds), values and ranges must fit 32 bits.
public struct EvemuParser {
    public typealias ParseError = EvemuRecording.ParseError

    /// The line last parsed, from 1.
    public private(set) var lineNumber = 0
    private var description: DeviceDescription?
    private var propertyBytes: [UInt8] = []
    private var keyBytes: [UInt8] = []

    public init() {}

    /// The description read so far, if any line gave one.
    public var device: DeviceDescription? {
        guard var d = description else { return nil }
        d.properties = bits(propertyBytes, below: EvemuParser.propertyCount)
        d.keys = Set(bits(keyBytes, below: EvemuParser.keyCount).map { UInt16($0) })
        return d
    }

    /// INPUT_PROP_CNT and KEY_CNT: bits beyond them name nothing.
    static let propertyCount = 0x20
    static let keyCount = 0x300

    /// Parses one line (without its newline): an event, or nil for a
    /// description line, a comment or anything else evemu ignores.
    public mutating func parse(line rawLine: Substring) throws(ParseError) -> RawEvent? {
        lineNumber += 1
        var line = rawLine
        if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
        if line.first == "\u{FEFF}" { line = line.dropFirst() }
        guard line.count >= 2, let colon = line.firstIndex(of: ":") else { return nil }
        let tag = line[..<colon].trimmingSpaces
        let rest = line[line.index(after: colon)...]
        if tag == "E" { return try event(rest) }
        let fields = rest.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        func dev() -> DeviceDescription { description ?? DeviceDescription(name: "") }
        switch tag {
        case "N":
            var d = dev()
            d.name = String(rest.trimmingSpaces)
            description = d
        case "I":
            guard fields.count == 4, let bus = UInt16(fields[0], radix: 16), let v = UInt16(fields[1], radix: 16),
                let p = UInt16(fields[2], radix: 16), let ver = UInt16(fields[3], radix: 16)
            else { throw ParseError(line: lineNumber, message: "I: needs bus vendor product version in hex") }
            var d = dev()
            d.bus = bus
            d.vendor = v
            d.product = p
            d.version = ver
            description = d
        case "P":
            for f in fields {
                guard let b = UInt8(f, radix: 16) else {
                    throw ParseError(line: lineNumber, message: "P: byte '\(f)' is not hex")
                }
                if propertyBytes.count < EvemuParser.propertyCount / 8 { propertyBytes.append(b) }
            }
            description = dev()
        case "B":
            guard let type = fields.first.flatMap({ UInt8($0, radix: 16) }) else {
                throw ParseError(line: lineNumber, message: "B: needs an event type in hex")
            }
            var bytes: [UInt8] = []
            for f in fields.dropFirst() {
                guard let b = UInt8(f, radix: 16) else {
                    throw ParseError(line: lineNumber, message: "B: byte '\(f)' is not hex")
                }
                bytes.append(b)
            }
            if UInt16(type) == EV.KEY {
                keyBytes.append(contentsOf: bytes.prefix(max(0, EvemuParser.keyCount / 8 - keyBytes.count)))
            }
            description = dev()
        case "A":
            guard fields.count == 5 || fields.count == 6, let code = UInt16(fields[0], radix: 16) else {
                throw ParseError(line: lineNumber, message: "A: needs code min max fuzz flat [resolution]")
            }
            var numbers: [Int32] = []
            for f in fields.dropFirst() {
                guard let n = Int32(f) else {
                    throw ParseError(line: lineNumber, message: "A: '\(f)' is not a 32-bit number")
                }
                numbers.append(n)
            }
            var d = dev()
            d.axes[code] = AxisInfo(
                minimum: numbers[0], maximum: numbers[1], fuzz: numbers[2], flat: numbers[3],
                resolution: numbers.count == 5 ? numbers[4] : 0)
            description = d
        default:
            break
        }
        return nil
    }

    private func event(_ rest: Substring) throws(ParseError) -> RawEvent {
        let fields = rest.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        guard fields.count == 4 else {
            throw ParseError(line: lineNumber, message: "E: needs sec.usec type code value")
        }
        guard let time = parseTime(fields[0]) else {
            throw ParseError(
                line: lineNumber,
                message:
                    "E: time '\(fields[0])' is not SECONDS.FRACTION in decimal (at most \(EvemuParser.maxSeconds) s)")
        }
        guard let type = UInt16(fields[1], radix: 16), let code = UInt16(fields[2], radix: 16),
            let value = Int32(fields[3])
        else {
            throw ParseError(line: lineNumber, message: "E: type and code must be 16-bit hex, value a 32-bit decimal")
        }
        return RawEvent(time: time, type: type, code: code, value: value)
    }

    /// The largest whole second a timestamp may have: its microseconds fit in
    /// 64 bits with room for the hour replay adds after the last event.
    public static let maxSeconds: Int64 = (Int64.max - 3_600_000_000) / 1_000_000
}

private func bits(_ bytes: [UInt8], below limit: Int) -> Set<Int> {
    var s = Set<Int>()
    for (i, b) in bytes.enumerated() where b != 0 {
        for bit in 0..<8 where b & (1 << bit) != 0 && i * 8 + bit < limit { s.insert(i * 8 + bit) }
    }
    return s
}

/// `SECONDS.FRACTION`, both decimal digits only; a fraction shorter than six
/// digits is scaled ("1.5" is 1.500000 s), a longer one cut to microseconds.
private func parseTime(_ s: Substring) -> EventTime? {
    guard let dot = s.firstIndex(of: ".") else { return nil }
    let whole = s[..<dot], fraction = s[s.index(after: dot)...]
    guard !whole.isEmpty, !fraction.isEmpty, whole.utf8.allSatisfy(isDigit), fraction.utf8.allSatisfy(isDigit),
        let sec = Int64(whole), sec <= EvemuParser.maxSeconds
    else { return nil }
    var usec: Int64 = 0
    var digits = 0
    for c in fraction.utf8 where digits < 6 {
        usec = usec * 10 + Int64(c - UInt8(ascii: "0"))
        digits += 1
    }
    while digits < 6 {
        usec *= 10
        digits += 1
    }
    return EventTime(seconds: sec, microseconds: usec)
}

@inline(__always) private func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
        return s
    }
}
