import GestureCore

/// A problem in a config file, with where it is and what was expected.
public struct ConfigError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    public var line: Int
    public var key: String
    public var message: String

    public init(file: String, line: Int, key: String, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }
    public var description: String {
        key.isEmpty ? "\(file):\(line): \(message)" : "\(file):\(line): \(key): \(message)"
    }
}

/// Every problem found in one file.
public struct ConfigErrors: Error, CustomStringConvertible, Sendable {
    public var errors: [ConfigError]
    /// Problems shown in `description`; a generated file with thousands of
    /// mistakes must not flood the log on every reload.
    public static let shown = 50
    /// One line per problem, the first `shown` of them, then how many more.
    public var description: String {
        var lines = errors.prefix(Self.shown).map(\.description)
        if errors.count > Self.shown, let first = errors.first {
            lines.append("\(first.file): … and \(errors.count - Self.shown) more problems")
        }
        return lines.joined(separator: "\n")
    }
}

/// Reads gestured's TOML config into a validated `Configuration`.
///
/// Parsing is toml++'s (through the CTomlShim target), which gives every key and
/// value its line; meaning is ours: every key is checked for type and range,
/// unknown keys are errors (a typo must not silently fall back to a default),
/// minimum/maximum pairs must not cross, and relations are checked for unknown
/// names and require-to-fail cycles. Before parsing, the bytes must be UTF-8
/// text without NUL and at most `maxFileBytes` long.
public enum ConfigLoader {
    /// The largest config accepted, in bytes (1 MiB; the documented default is
    /// about 7 KB). A bigger file is refused before it is parsed.
    public static let maxFileBytes = 1 << 20

    public static func load(text: String, file: String) throws(ConfigErrors) -> Configuration {
        var text = text
        return try text.withUTF8 { load(UnsafeRawBufferPointer($0), file: file) }.get()
    }

    /// The file's bytes as read: invalid UTF-8 is an error naming its line, not
    /// replaced.
    public static func load(bytes: [UInt8], file: String) throws(ConfigErrors) -> Configuration {
        try bytes.withUnsafeBytes { load($0, file: file) }.get()
    }

    static func load(_ bytes: UnsafeRawBufferPointer, file: String) -> Result<Configuration, ConfigErrors> {
        parseChecked(bytes, file: file, what: "a config").flatMap { root in
            var ctx = Context(file: file)
            var config = ctx.read(root)
            if !ctx.problems.errors.isEmpty { return .failure(sorted(ctx.problems.errors)) }
            config.warnings = ctx.warnings
            return .success(config)
        }
    }

    /// What every TOML file of gestured's passes before it is read: at most 1 MiB,
    /// UTF-8 without NUL, nesting within bounds, then toml++'s syntax check.
    /// `what` names the file in the size message ("a config", "an actions file").
    static func parseChecked(_ bytes: UnsafeRawBufferPointer, file: String, what: String) -> Result<
        TomlTable, ConfigErrors
    > {
        func fail(_ line: Int, _ message: String) -> Result<TomlTable, ConfigErrors> {
            .failure(ConfigErrors(errors: [ConfigError(file: file, line: line, key: "", message: message)]))
        }
        if bytes.count > maxFileBytes {
            return fail(1, "the file is \(bytes.count) bytes; \(what) may be at most \(maxFileBytes) bytes (1 MiB)")
        }
        if let problem = TextCheck.firstProblem(in: bytes) ?? TextCheck.nestingProblem(in: bytes) {
            return fail(problem.line, problem.message)
        }
        switch Toml.parse(bytes) {
        case .failure(let e): return fail(e.position.line, "TOML syntax at column \(e.position.column): \(e.message)")
        case .success(let root): return .success(root)
        }
    }

    /// Errors by line, those on one line in the order they were found.
    static func sorted(_ errors: [ConfigError]) -> ConfigErrors {
        let sorted = errors.enumerated().sorted { a, b in
            a.element.line != b.element.line ? a.element.line < b.element.line : a.offset < b.offset
        }
        return ConfigErrors(errors: sorted.map(\.element))
    }
}

/// What must hold of the bytes before they are parsed as TOML.
enum TextCheck {
    struct Problem {
        var line: Int
        var message: String
    }

    /// The first NUL byte or invalid UTF-8 sequence, with its line and column.
    static func firstProblem(in bytes: UnsafeRawBufferPointer) -> Problem? {
        var line = 1, column = 1
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b == 0 {
                return Problem(
                    line: line,
                    message: "NUL byte at column \(column): a config is text, and nothing after a NUL may be ignored")
            }
            if b == 0x0a {
                line += 1
                column = 1
                i += 1
                continue
            }
            let width = utf8Width(bytes, i)
            if width == 0 {
                return Problem(
                    line: line,
                    message:
                        "invalid UTF-8 (byte 0x\(String(b, radix: 16, uppercase: true)) at column \(column)); save the file as UTF-8"
                )
            }
            i += width
            column += 1
        }
        return nil
    }

    /// Dots between keys allowed on one line, and brackets and braces open at
    /// once. toml++ walks tables recursively: a key like `[a.a.a…]` with
    /// 20,000 parts overflows its stack, so deep nesting is refused before
    /// parsing. A config needs one dot per header and one level of brackets.
    static let maxKeyDotsPerLine = 32
    static let maxBracketDepth = 16

    /// Too many dotted-key parts on a line, or brackets nested too deep,
    /// outside strings and comments. A dot inside a number (`1.5`) is not
    /// counted; every other dot may separate keys.
    static func nestingProblem(in bytes: UnsafeRawBufferPointer) -> Problem? {
        enum State { case normal, comment, basic, literal, multiBasic, multiLiteral }
        var state = State.normal
        var line = 1, dots = 0, depth = 0
        // The current run of bare-key or number characters: its dots, and whether
        // its only dot so far sits between digits.
        var runDots = 0, runNumeric = false
        let n = bytes.count
        func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
        func isRun(_ c: UInt8) -> Bool {
            isDigit(c) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c == 0x5f || c == 0x2d || c == 0x2b
                || c == 0x2e || c == 0x3a
        }
        func quotes(_ i: Int, _ q: UInt8) -> Int {
            var k = 0
            while i + k < n && bytes[i + k] == q { k += 1 }
            return k
        }
        func tooMany() -> Problem {
            Problem(
                line: line,
                message: "more than \(maxKeyDotsPerLine) dotted key parts on one line: tables nested too deep")
        }
        var i = 0
        while i < n {
            let c = bytes[i]
            if c == 0x0a {
                line += 1
                dots = 0
            }
            switch state {
            case .normal:
                if isRun(c) {
                    if c == 0x2e {
                        let between = i > 0 && isDigit(bytes[i - 1]) && i + 1 < n && isDigit(bytes[i + 1])
                        runDots += 1
                        if runDots == 1 && between {
                            runNumeric = true
                        } else {
                            dots += runNumeric ? 2 : 1
                            runNumeric = false
                        }
                        if dots > maxKeyDotsPerLine { return tooMany() }
                    }
                    i += 1
                    continue
                }
                runDots = 0
                runNumeric = false
                switch c {
                case 0x23: state = .comment
                case 0x5b, 0x7b:
                    depth += 1
                    if depth > maxBracketDepth {
                        return Problem(
                            line: line, message: "brackets or braces nested more than \(maxBracketDepth) deep")
                    }
                case 0x5d, 0x7d: depth = max(0, depth - 1)
                case 0x22:
                    if quotes(i, 0x22) >= 3 {
                        state = .multiBasic
                        i += 3
                        continue
                    }
                    state = .basic
                case 0x27:
                    if quotes(i, 0x27) >= 3 {
                        state = .multiLiteral
                        i += 3
                        continue
                    }
                    state = .literal
                default: break
                }
            case .comment:
                if c == 0x0a { state = .normal }
            case .basic:
                if c == 0x5c {
                    i += 2
                    continue
                }
                if c == 0x22 || c == 0x0a { state = .normal }
            case .literal:
                if c == 0x27 || c == 0x0a { state = .normal }
            case .multiBasic:
                if c == 0x5c {
                    if i + 1 < n && bytes[i + 1] == 0x0a {
                        line += 1
                        dots = 0
                    }
                    i += 2
                    continue
                }
                // A closing """ may be preceded by one or two quotes that belong to the string.
                let k = quotes(i, 0x22)
                if k >= 3 {
                    state = .normal
                    i += k
                    continue
                }
                i += max(k, 1)
                continue
            case .multiLiteral:
                let k = quotes(i, 0x27)
                if k >= 3 {
                    state = .normal
                    i += k
                    continue
                }
                i += max(k, 1)
                continue
            }
            i += 1
        }
        return nil
    }

    /// The length of the well-formed UTF-8 sequence at `i`, or 0 (overlong forms,
    /// surrogates and code points above U+10FFFF are not well-formed).
    static func utf8Width(_ bytes: UnsafeRawBufferPointer, _ i: Int) -> Int {
        let b0 = bytes[i]
        if b0 < 0x80 { return 1 }
        func cont(_ k: Int, _ lo: UInt8 = 0x80, _ hi: UInt8 = 0xbf) -> Bool {
            i + k < bytes.count && bytes[i + k] >= lo && bytes[i + k] <= hi
        }
        switch b0 {
        case 0xc2...0xdf: return cont(1) ? 2 : 0
        case 0xe0: return cont(1, 0xa0) && cont(2) ? 3 : 0
        case 0xe1...0xec, 0xee, 0xef: return cont(1) && cont(2) ? 3 : 0
        case 0xed: return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0
        case 0xf0: return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0
        case 0xf1...0xf3: return cont(1) && cont(2) && cont(3) ? 4 : 0
        case 0xf4: return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0
        default: return 0
        }
    }
}

private struct Context {
    var problems: ConfigProblems
    var file: String { problems.file }
    var warnings: [String] = []
    /// Where each key path is written, for problems found after reading (relations).
    var positions: [String: SourcePosition] = [:]

    init(file: String) { problems = ConfigProblems(file: file) }

    mutating func error(_ path: String, _ message: String, at position: SourcePosition) {
        problems.error(path, message, at: position)
    }

    mutating func read(_ root: TomlTable) -> Configuration {
        var recognizers: [RecognizerConfig] = []
        var devices: [DeviceRule] = []
        var penRelease = TouchArbitration.defaultRelease
        var sawRecognizerSection = false
        for member in root.members {
            let key = tomlKey(member.key)
            switch member.key {
            case "recognizer":
                sawRecognizerSection = true
                guard let t = member.node.table else {
                    error(key, "expected tables [recognizer.NAME], got \(member.node.typeName)", at: member.keyPosition)
                    continue
                }
                for m in t.members {
                    let base = "recognizer.\(tomlKey(m.key))"
                    positions[base] = m.keyPosition
                    guard let rt = m.node.table else {
                        error(
                            base, "expected a table [\(base)] with a kind, got \(m.node.described)", at: m.keyPosition)
                        continue
                    }
                    if let r = readRecognizer(name: m.key, base: base, at: m.keyPosition, rt) { recognizers.append(r) }
                }
            case "device":
                guard let arr = member.node.array else {
                    error(key, "expected [[device]] entries, got \(member.node.typeName)", at: member.keyPosition)
                    continue
                }
                for (i, v) in arr.enumerated() {
                    guard let dt = v.table else {
                        error("device.\(i)", "expected a table, got \(v.described)", at: v.position)
                        continue
                    }
                    if let d = readDevice(index: i, at: v.position, dt) { devices.append(d) }
                }
            case "pen":
                guard let t = member.node.table else {
                    error(key, "expected a table [pen], got \(member.node.typeName)", at: member.keyPosition)
                    continue
                }
                var r = TableReader(table: t, path: "pen", position: member.keyPosition)
                r.millis("release_ms", &penRelease, 0...10_000, &problems)
                r.rejectUnknown(&problems, what: "[pen]")
            default:
                error(key, "unknown section; expected [recognizer.NAME], [[device]] or [pen]", at: member.keyPosition)
            }
        }
        var config = Configuration(recognizers: recognizers, devices: devices, source: file)
        config.penRelease = penRelease
        for p in config.relationProblems() {
            let base = "recognizer.\(tomlKey(p.recognizer))"
            let path = "\(base).\(p.key)"
            error(path, p.message, at: positions[path] ?? positions[base] ?? SourcePosition(line: 1, column: 1))
        }
        if problems.errors.isEmpty {
            let consumers = recognizers.filter(\.consume).map(\.name)
            let exclusive = devices.contains(where: \.exclusive)
            if !consumers.isEmpty && !exclusive {
                warnings.append(
                    "\(file):\(positions["recognizer.\(tomlKey(consumers[0])).consume"]?.line ?? 1): consume = true on \(consumers.joined(separator: ", ")) keeps touches from the apps only on a [[device]] with exclusive = true, and there is none"
                )
            } else if exclusive && consumers.isEmpty {
                warnings.append(
                    "\(file):1: an exclusive [[device]] with no recognizer that has consume = true passes every touch to the apps: it only adds a copy"
                )
            } else if exclusive {
                let hold = devices.filter(\.exclusive).map { Int($0.hold.value) }.max() ?? 0
                for rc in recognizers where rc.consume && Self.mayTakeAnyTouch(rc) {
                    let path = "recognizer.\(tomlKey(rc.name)).consume"
                    warnings.append(
                        "\(file):\(positions[path]?.line ?? 1): \(path): consume = true with no edge, region or finger count that keeps it from a touch: on an exclusive device every touch is held back from the apps until \(rc.name) fails, for up to hold_ms (\(hold) ms)"
                    )
                }
            }
        }
        if recognizers.isEmpty && problems.errors.isEmpty {
            let what = sawRecognizerSection ? "no recognizers" : "no [recognizer.NAME] tables"
            warnings.append(
                "\(file):1: \(what): no gesture will be recognized (the built-in recognizers apply only when there is no config file)"
            )
        }
        return config
    }

    /// A consuming recognizer that nothing in its filter keeps from a one-finger
    /// touch anywhere on the screen: the relay holds every touch for it.
    static func mayTakeAnyTouch(_ rc: RecognizerConfig) -> Bool {
        if rc.filter.edge != nil { return false }
        if let b = rc.filter.region, b.minX > 0 || b.minY > 0 || b.maxX < 1 || b.maxY < 1 { return false }
        return rc.parameters.makeRecognizer().fingers.lowerBound <= 1
    }

    /// A name is what events carry and what scripts filter on (`RecognizerNames`).
    mutating func checkName(_ name: String, base: String, at position: SourcePosition) -> Bool {
        let problem = RecognizerNames.problem(name)
        if let problem { error(base, problem, at: position) }
        return problem == nil
    }

    mutating func readRecognizer(name: String, base: String, at position: SourcePosition, _ t: TomlTable)
        -> RecognizerConfig?
    {
        var r = TableReader(table: t, path: base, position: position)
        defer { for (k, p) in r.positions { positions[k] = p } }
        let nameOK = checkName(name, base: base, at: position)
        let kinds = GestureKind.allCases.map(\.rawValue).joined(separator: ", ")
        guard let kindName = r.string("kind", &problems) else {
            if t["kind"] == nil { error(base, "missing 'kind' (one of: \(kinds))", at: position) }
            return nil
        }
        guard let kind = GestureKind(rawValue: kindName) else {
            error("\(base).kind", "unknown kind '\(kindName)'; expected one of: \(kinds)", at: r.position(of: "kind"))
            return nil
        }
        var params = RecognizerParameters.defaults(for: kind)
        var keys = KeyReader(table: r, problems: problems, kind: kind)
        params.visitTable(&keys)
        r = keys.table
        problems = keys.problems
        for b in params.crossedBounds {
            // Point at what the file wrote: the lower bound if it is there, else the upper.
            let lowerWritten = t[b.lowerKey] != nil, upperWritten = t[b.upperKey] != nil
            let key = lowerWritten || !upperWritten ? b.lowerKey : b.upperKey
            func show(_ key: String, _ v: Double, _ written: Bool) -> String {
                "\(key) = \(formatBound(v))\(written ? "" : " (the default)")"
            }
            error(
                "\(base).\(key)",
                "\(show(b.lowerKey, b.lower, lowerWritten)) is above \(show(b.upperKey, b.upper, upperWritten)); no \(kind.rawValue) could ever be recognized",
                at: r.position(of: key))
        }
        var config = RecognizerConfig(name: name, parameters: params)
        r.names("requires_failure_of", &config.requiresFailureOf, &problems)
        r.names("simultaneous_with", &config.simultaneousWith, &problems)
        r.bool("can_prevent", &config.canPrevent, &problems)
        r.bool("can_be_prevented", &config.canBePrevented, &problems)
        r.bool("consume", &config.consume, &problems)
        r.names("devices", &config.filter.devices, &problems)
        var profiles: [(String, SourcePosition)] = []
        if r.strings("profiles", &profiles, &problems) {
            if profiles.isEmpty {
                error(
                    "\(base).profiles",
                    "an empty list puts the recognizer in no profile, so it would never take part; list its profiles, or leave the key out for [\"\(Profiles.defaultName)\"]",
                    at: r.position(of: "profiles"))
            }
            var names: [String] = []
            for (p, at) in profiles {
                if let problem = Profiles.nameProblem(p) {
                    error("\(base).profiles", problem, at: at)
                } else if !names.contains(p) {
                    names.append(p)
                }
            }
            if !names.isEmpty { config.filter.profiles = names }
        }
        var region: [Double] = []
        if r.doubles("region", &region, count: 4, &problems) {
            if region[0] < region[2] && region[1] < region[3] && region.allSatisfy({ (0...1).contains($0) }) {
                config.filter.region = Box(minX: region[0], minY: region[1], maxX: region[2], maxY: region[3])
            } else {
                error(
                    "\(base).region", "expected [x0, y0, x1, y1] within 0…1 with x0 < x1 and y0 < y1",
                    at: r.position(of: "region"))
            }
        }
        config.filter.edge = readEdge(base: base, &r)
        if case .pan(var p) = config.parameters, p.stepMM > 0, t["axis"] == nil {
            // A slider runs along its edge by default.
            switch config.filter.edge?.edge {
            case .top?, .bottom?: p.axis = .x
            default: p.axis = .y
            }
            config.parameters = .pan(p)
        }
        r.rejectUnknown(&problems, what: "a \(kind.rawValue) recognizer")
        return nameOK ? config : nil
    }

    /// `edge`, `edge_mm`, `edge_range` and `edge_at`: any recognizer may carry them.
    mutating func readEdge(base: String, _ r: inout TableReader) -> EdgeFilter? {
        var name = ""
        let given = r.stringValue("edge", &name, &problems)
        var margin = EdgeFilter.defaultMarginMM
        r.double("edge_mm", &margin, 0.1...100, &problems)
        var range: [Double] = []
        let rangeGiven = r.doubles("edge_range", &range, count: 2, &problems)
        var atName = ""
        let atGiven = r.stringValue("edge_at", &atName, &problems)
        guard given else {
            for key in ["edge_mm", "edge_range", "edge_at"] where r.table[key] != nil {
                error("\(base).\(key)", "\(key) only applies with an edge: set edge too", at: r.position(of: key))
            }
            return nil
        }
        let known = Edge.allCases.map(\.rawValue).joined(separator: ", ")
        guard let edge = Edge(rawValue: name) else {
            error(
                "\(base).edge", "unknown edge \(tomlQuoted(name)); expected one of: \(known)",
                at: r.position(of: "edge"))
            return nil
        }
        var filter = EdgeFilter(edge: edge, marginMM: margin)
        if atGiven {
            if let at = EdgeFilter.At(rawValue: atName) {
                filter.at = at
            } else {
                error(
                    "\(base).edge_at", "expected \"start\" or \"start_or_end\", got \(tomlQuoted(atName))",
                    at: r.position(of: "edge_at"))
            }
        }
        if rangeGiven {
            if range[0] < range[1] && range.allSatisfy({ (0...1).contains($0) }) {
                switch edge {
                case .left, .right, .top, .bottom: filter.range = range[0]...range[1]
                case .topLeft, .topRight, .bottomLeft, .bottomRight, .none:
                    error(
                        "\(base).edge_range",
                        "edge_range applies to the left, right, top and bottom edges, not to \(tomlQuoted(name))",
                        at: r.position(of: "edge_range"))
                }
            } else {
                error(
                    "\(base).edge_range", "expected [from, to] within 0…1 with from < to",
                    at: r.position(of: "edge_range"))
            }
        }
        return filter
    }

    mutating func readDevice(index: Int, at position: SourcePosition, _ t: TomlTable) -> DeviceRule? {
        let base = "device.\(index)"
        var r = TableReader(table: t, path: base, position: position)
        var match = DeviceMatch()
        var s = ""
        if r.stringValue("match", &s, &problems) {
            if s.isEmpty {
                error("\(base).match", "an empty match would match every device", at: r.position(of: "match"))
            } else {
                match.name = s
            }
        }
        if r.stringValue("vendor_product", &s, &problems) {
            let parts = s.split(separator: ":", omittingEmptySubsequences: false)
            if parts.count == 2, parts.allSatisfy({ $0.utf8.count == 4 && UInt16($0, radix: 16) != nil }) {
                match.vendorProduct = s.lowercased()
            } else {
                error(
                    "\(base).vendor_product", "expected \"vvvv:pppp\" in hex, got \(tomlQuoted(s))",
                    at: r.position(of: "vendor_product"))
            }
        }
        if r.stringValue("syspath", &s, &problems) {
            if s.isEmpty {
                error(
                    "\(base).syspath", "expected a /sys/devices/… path, got an empty string",
                    at: r.position(of: "syspath"))
            } else {
                match.syspath = s
            }
        }
        var rule = DeviceRule(match: match)
        var size: [Double] = []
        if r.doubles("size_mm", &size, count: 2, &problems) {
            if size.allSatisfy({ $0 > 0 && $0 < 5000 }) {
                rule.sizeMM = Point(x: size[0], y: size[1])
            } else {
                error(
                    "\(base).size_mm", "expected [width, height] in mm, both > 0 and < 5000",
                    at: r.position(of: "size_mm"))
            }
        }
        var rotation = 0
        r.int("rotation", &rotation, 0...270, &problems)
        if let rot = Rotation(rawValue: rotation) {
            rule.rotation = rot
        } else {
            error("\(base).rotation", "expected 0, 90, 180 or 270, got \(rotation)", at: r.position(of: "rotation"))
        }
        var use = true
        if r.bool("use", &use, &problems) { rule.use = use }
        r.bool("exclusive", &rule.exclusive, &problems)
        var holdMS = Int(rule.hold.value)
        if r.int("hold_ms", &holdMS, 0...5000, &problems) { rule.hold = Millis(Double(holdMS)) }
        if t["hold_ms"] != nil && t["exclusive"] == nil {
            error(
                "\(base).hold_ms", "hold_ms only applies to an exclusive device: set exclusive = true too",
                at: r.position(of: "hold_ms"))
        }
        if t["hold_ms"] != nil && t["exclusive"] != nil && !rule.exclusive {
            warnings.append(
                "\(file):\(r.position(of: "hold_ms").line): \(base).hold_ms: hold_ms has no effect unless exclusive = true"
            )
        }
        if rule.exclusive && rule.use == false {
            error(
                "\(base).exclusive", "use = false never opens the device, so it cannot be exclusive",
                at: r.position(of: "exclusive"))
        }
        r.rejectUnknown(&problems, what: "a [[device]] entry")
        if t["match"] == nil && t["vendor_product"] == nil && t["syspath"] == nil {
            error(base, "a [[device]] entry needs match, vendor_product or syspath", at: position)
            return nil
        }
        return rule
    }
}

/// Reads a recognizer's kind-specific keys as its table (`ParameterKey`) says.
private struct KeyReader: ParameterTableVisitor {
    var table: TableReader
    var problems: ConfigProblems
    let kind: GestureKind

    mutating func visit<P>(_ keys: [ParameterKey<P>], _ p: inout P) {
        for k in keys {
            guard read(k, into: &p), let check = k.check else { continue }
            let t = table.table
            if let (key, problem) = check(&p, { t[$0] != nil }) {
                problems.error(table.fullPath(key), problem, at: table.position(of: key))
            }
        }
    }

    /// Reads one key; true when the file writes it with a value of its type.
    private mutating func read<P>(_ k: ParameterKey<P>, into p: inout P) -> Bool {
        let key = k.key
        switch k.value {
        case .integer(let path, let range): return table.int(key, &p[keyPath: path], range, &problems)
        case .number(let path, let range): return table.double(key, &p[keyPath: path], range, &problems)
        case .millis(let path, let range): return table.millis(key, &p[keyPath: path], range, &problems)
        case .choice(let words, _, let set):
            var word = ""
            guard table.stringValue(key, &word, &problems) else { return false }
            if words.contains(word) {
                set(&p, word)
            } else {
                let quoted = words.map { tomlQuoted($0) }
                let expected =
                    quoted.count < 2
                    ? quoted.joined() : quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
                problems.error(
                    table.fullPath(key), "expected \(expected), got \(tomlQuoted(word))", at: table.position(of: key))
            }
            return true
        case .choices(let words, let item, _, let set):
            var list: [(String, SourcePosition)] = []
            guard table.strings(key, &list, &problems) else { return false }
            let known = words.joined(separator: ", ")
            if list.isEmpty {
                problems.error(
                    table.fullPath(key),
                    "an empty list would recognize no \(kind.rawValue); list some of \(known), or leave the key out for all of them",
                    at: table.position(of: key))
            }
            var valid: [String] = []
            for (word, at) in list {
                if words.contains(word) {
                    valid.append(word)
                } else {
                    problems.error(table.fullPath(key), "unknown \(item) '\(word)'; expected \(known)", at: at)
                }
            }
            if !valid.isEmpty { set(&p, valid) }
            return true
        case .strokes(let path, let count, let points):
            guard let v = table.value(key) else {
                problems.error(
                    table.path,
                    "missing '\(key)': a \(kind.rawValue) recognizer needs \(count.lowerBound) to \(count.upperBound) example strokes, \(key) = [[[x, y], …], …] in mm",
                    at: table.tablePosition)
                return false
            }
            if let strokes = readStrokes(key, v, count: count, points: points) { p[keyPath: path] = strokes }
            return true
        }
    }

    /// The largest coordinate of an example, in mm: far beyond any screen.
    static let maxCoordinateMM = 10_000.0
    /// The shortest path an example may have, in mm.
    static let minExampleLengthMM = 1.0

    /// A list of strokes, each a list of [x, y] points: every problem with where
    /// it is written, one per stroke; nil when any is wrong.
    private mutating func readStrokes(
        _ key: String, _ v: TomlNode, count: ClosedRange<Int>, points: ClosedRange<Int>
    ) -> [[Point]]? {
        let shape = "[[[x, y], …], …]"
        guard let list = v.array else {
            table.fail(key, "expected a list of strokes \(shape), got \(v.described)", at: v, &problems)
            return nil
        }
        // One stroke written without the list around it: its points read as
        // strokes of two numbers each.
        if list.count >= 2,
            list.allSatisfy({ $0.array.map { $0.count == 2 && $0.allSatisfy { $0.number != nil } } ?? false })
        {
            table.fail(
                key,
                "expected a list of strokes \(shape), got one stroke of \(list.count) points: put it in a list, [[[x, y], …]]",
                at: v, &problems)
            return nil
        }
        guard count.contains(list.count) else {
            table.fail(
                key, "expected \(count.lowerBound) to \(count.upperBound) example strokes, got \(list.count)", at: v,
                &problems)
            return nil
        }
        var out: [[Point]] = []
        var ok = true
        for (i, node) in list.enumerated() {
            let which = "example \(i)"
            guard let items = node.array else {
                table.fail(
                    key, "\(which): expected a list of [x, y] points, got \(node.described)", at: node, &problems)
                ok = false
                continue
            }
            guard points.contains(items.count) else {
                table.fail(
                    key, "\(which): expected \(points.lowerBound) to \(points.upperBound) points, got \(items.count)",
                    at: node, &problems)
                ok = false
                continue
            }
            var stroke: [Point] = []
            stroke.reserveCapacity(items.count)
            var length = 0.0
            for (j, item) in items.enumerated() {
                guard let xy = item.array, xy.count == 2, let x = xy[0].number, let y = xy[1].number else {
                    let got =
                        if let xy = item.array, xy.count == 2, let bad = xy.first(where: { $0.number == nil }) {
                            "a point with \(bad.described)"
                        } else if let xy = item.array {
                            "a list of \(xy.count)"
                        } else {
                            item.described
                        }
                    table.fail(
                        key, "\(which), point \(j): expected [x, y] (two numbers, mm), got \(got)", at: item, &problems)
                    break
                }
                guard x.isFinite, y.isFinite, abs(x) <= Self.maxCoordinateMM, abs(y) <= Self.maxCoordinateMM else {
                    table.fail(
                        key,
                        "\(which), point \(j): expected finite numbers within ±\(formatBound(Self.maxCoordinateMM)) mm, got [\(x), \(y)]",
                        at: item, &problems)
                    break
                }
                let p = Point(x: x, y: y)
                if let last = stroke.last { length += p.distance(to: last) }
                stroke.append(p)
            }
            guard stroke.count == items.count else {
                ok = false
                continue
            }
            guard length >= Self.minExampleLengthMM else {
                table.fail(
                    key,
                    "\(which): the stroke is \(formatFixed(length, decimals: 2)) mm long; an example must be at least \(formatBound(Self.minExampleLengthMM)) mm",
                    at: node, &problems)
                ok = false
                continue
            }
            out.append(stroke)
        }
        return ok ? out : nil
    }
}

extension ConfigLoader {
    /// Where the daemon and gesturectl look for their config when none is given.
    public static let systemPath = "/etc/gestured/gestured.toml"

    /// The built-in default config, parsed.
    public static func builtIn() -> Configuration {
        do {
            return try load(text: defaultConfigText, file: "<built-in gestured.toml>")
        } catch {
            fatalError("the built-in config is invalid: \(error)")
        }
    }
}
