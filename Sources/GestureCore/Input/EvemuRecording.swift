/// A parsed evemu recording: the device description (`N:`, `I:`, `P:`, `B:`, `A:`
/// lines) and/or its events (`E:` lines). Either part may be missing: some
/// `.events` files carry no description, and a `.desc` file carries no events.
public struct EvemuRecording: Sendable {
    public var device: DeviceDescription?
    public var events: [RawEvent]

    public struct ParseError: Error, CustomStringConvertible, Sendable {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// Parses evemu 1.1–1.3 text. `A:` lines may have 5 or 6 numbers (the sixth,
    /// resolution, came with evemu 1.2).
    public init(parsing text: String) throws(ParseError) {
        var device: DeviceDescription?
        var events: [RawEvent] = []
        var propertyBytes: [UInt8] = []
        var keyBytes: [UInt8] = []
        var lineNumber = 0
        func dev() -> DeviceDescription { device ?? DeviceDescription(name: "") }

        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = Substring(rawLine)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            if line.first == "\u{FEFF}" { line = line.dropFirst() }
            guard line.count >= 2, let colon = line.firstIndex(of: ":") else { continue }
            let tag = line[..<colon].trimmingSpaces
            let rest = line[line.index(after: colon)...]
            let fields = rest.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            switch tag {
            case "N":
                var d = dev(); d.name = String(rest.trimmingSpaces); device = d
            case "I":
                guard fields.count == 4, let bus = UInt16(fields[0], radix: 16), let v = UInt16(fields[1], radix: 16),
                      let p = UInt16(fields[2], radix: 16), let ver = UInt16(fields[3], radix: 16)
                else { throw ParseError(line: lineNumber, message: "I: needs bus vendor product version in hex") }
                var d = dev(); d.bus = bus; d.vendor = v; d.product = p; d.version = ver; device = d
            case "P":
                for f in fields {
                    guard let b = UInt8(f, radix: 16) else { throw ParseError(line: lineNumber, message: "P: byte '\(f)' is not hex") }
                    propertyBytes.append(b)
                }
                var d = dev(); d.properties = bits(propertyBytes); device = d
            case "B":
                guard let type = fields.first.flatMap({ UInt8($0, radix: 16) }) else {
                    throw ParseError(line: lineNumber, message: "B: needs an event type in hex")
                }
                if UInt16(type) == EV.KEY {
                    for f in fields.dropFirst() {
                        guard let b = UInt8(f, radix: 16) else { throw ParseError(line: lineNumber, message: "B: byte '\(f)' is not hex") }
                        keyBytes.append(b)
                    }
                    var d = dev(); d.keys = Set(bits(keyBytes).map { UInt16($0) }); device = d
                }
            case "A":
                guard fields.count == 5 || fields.count == 6, let code = UInt16(fields[0], radix: 16) else {
                    throw ParseError(line: lineNumber, message: "A: needs code min max fuzz flat [resolution]")
                }
                var numbers: [Int32] = []
                for f in fields.dropFirst() {
                    guard let n = Int32(f) else { throw ParseError(line: lineNumber, message: "A: '\(f)' is not a number") }
                    numbers.append(n)
                }
                var d = dev()
                d.axes[code] = AxisInfo(minimum: numbers[0], maximum: numbers[1], fuzz: numbers[2], flat: numbers[3],
                                        resolution: numbers.count == 5 ? numbers[4] : 0)
                device = d
            case "E":
                guard fields.count == 4 else {
                    throw ParseError(line: lineNumber, message: "E: needs sec.usec type code value")
                }
                guard let time = parseTime(fields[0]) else {
                    throw ParseError(line: lineNumber, message: "E: time '\(fields[0])' is not sec.usec")
                }
                guard let type = UInt16(fields[1], radix: 16), let code = UInt16(fields[2], radix: 16),
                      let value = Int32(fields[3]) else {
                    throw ParseError(line: lineNumber, message: "E: type and code must be hex, value decimal")
                }
                events.append(RawEvent(time: time, type: type, code: code, value: value))
            default:
                continue
            }
        }
        self.device = device
        self.events = events
    }
}

private func bits(_ bytes: [UInt8]) -> Set<Int> {
    var s = Set<Int>()
    for (i, b) in bytes.enumerated() where b != 0 {
        for bit in 0..<8 where b & (1 << bit) != 0 { s.insert(i * 8 + bit) }
    }
    return s
}

private func parseTime(_ s: Substring) -> EventTime? {
    let parts = s.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 2, let sec = Int64(parts[0]), var usec = Int64(parts[1]) else { return nil }
    // "1.5" means 1.500000 s.
    for _ in parts[1].count..<6 { usec *= 10 }
    return EventTime(seconds: sec, microseconds: usec)
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
        return s
    }
}
