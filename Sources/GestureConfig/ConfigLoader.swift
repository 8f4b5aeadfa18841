import GestureCore
import TOMLKit

/// A problem in a config file, with where it is and what was expected.
public struct ConfigError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    public var line: Int
    public var key: String
    public var message: String

    public init(file: String, line: Int, key: String, message: String) {
        self.file = file; self.line = line; self.key = key; self.message = message
    }
    public var description: String {
        key.isEmpty ? "\(file):\(line): \(message)" : "\(file):\(line): \(key): \(message)"
    }
}

/// Every problem found in one file.
public struct ConfigErrors: Error, CustomStringConvertible, Sendable {
    public var errors: [ConfigError]
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}

/// Reads gestured's TOML config into a validated `Configuration`.
///
/// Parsing is TOMLKit's (toml++), which reports syntax errors with their line;
/// meaning is ours: every key is checked for type and range, unknown keys are
/// errors (a typo must not silently fall back to a default), and relations are
/// checked for unknown names and require-to-fail cycles.
public enum ConfigLoader {
    public static func load(text: String, file: String) throws(ConfigErrors) -> Configuration {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let e as TOMLParseError {
            throw ConfigErrors(errors: [ConfigError(file: file, line: e.source.begin.line, key: "",
                                                    message: "TOML syntax: \(e.description)")])
        } catch {
            throw ConfigErrors(errors: [ConfigError(file: file, line: 1, key: "", message: "\(error)")])
        }
        var ctx = Context(file: file, lines: KeyLines(text: text))
        let config = ctx.read(table)
        if !ctx.errors.isEmpty { throw ConfigErrors(errors: ctx.errors.sorted { $0.line < $1.line }) }
        return config
    }
}

/// Finds the line of a key in the source text: TOMLKit gives values, not their
/// place, so the loader keeps its own map of `table.path.key` → line.
struct KeyLines {
    private var lines: [String: Int] = [:]

    init(text: String) {
        var table: [String] = []
        var arrayCounts: [String: Int] = [:]
        var n = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            n += 1
            let line = raw.drop(while: { $0 == " " || $0 == "\t" })
            if line.hasPrefix("[[") {
                let name = String(line.dropFirst(2).prefix(while: { $0 != "]" })).trimmed
                let index = arrayCounts[name, default: 0]
                arrayCounts[name] = index + 1
                table = name.split(separator: ".").map { String($0).trimmed.unquoted } + [String(index)]
                lines[table.joined(separator: ".")] = n
            } else if line.hasPrefix("[") {
                let name = String(line.dropFirst().prefix(while: { $0 != "]" })).trimmed
                table = name.split(separator: ".").map { String($0).trimmed.unquoted }
                lines[table.joined(separator: ".")] = n
            } else if let eq = line.firstIndex(of: "="), !line.hasPrefix("#") {
                let key = String(line[..<eq]).trimmed.unquoted
                let path = (table + [key]).joined(separator: ".")
                if lines[path] == nil { lines[path] = n }
            }
        }
    }

    func line(_ path: String) -> Int? { lines[path] }
}

private struct Context {
    let file: String
    let lines: KeyLines
    var errors: [ConfigError] = []

    mutating func error(_ path: String, _ message: String, table: String? = nil) {
        let line = lines.line(path) ?? table.flatMap { lines.line($0) } ?? 1
        errors.append(ConfigError(file: file, line: line, key: path, message: message))
    }

    mutating func read(_ root: TOMLTable) -> Configuration {
        var recognizers: [RecognizerConfig] = []
        var devices: [DeviceRule] = []
        for key in root.keys {
            switch key {
            case "recognizer":
                guard let t = root[key]?.table else { error(key, "expected tables [recognizer.NAME]"); continue }
                for name in t.keys {
                    guard let rt = t[name]?.table else {
                        error("recognizer.\(name)", "expected a table [recognizer.\(name)] with a kind"); continue
                    }
                    if let r = readRecognizer(name: name, rt) { recognizers.append(r) }
                }
            case "device":
                guard let arr = root[key]?.array else { error(key, "expected [[device]] entries"); continue }
                for (i, v) in arr.enumerated() {
                    guard let dt = v.table else { error("device.\(i)", "expected a table"); continue }
                    if let d = readDevice(index: i, dt) { devices.append(d) }
                }
            default:
                error(key, "unknown section; expected [recognizer.NAME] or [[device]]")
            }
        }
        // Keep the file's order of recognizers: it is the arena's order of delivery.
        recognizers.sort { (lines.line("recognizer.\($0.name)") ?? 0) < (lines.line("recognizer.\($1.name)") ?? 0) }
        let config = Configuration(recognizers: recognizers, devices: devices, source: file)
        for p in config.relationProblems() {
            error("recognizer.\(p.recognizer).\(p.key)", p.message, table: "recognizer.\(p.recognizer)")
        }
        return config
    }

    mutating func readRecognizer(name: String, _ t: TOMLTable) -> RecognizerConfig? {
        let base = "recognizer.\(name)"
        var r = Reader(table: t, path: base)
        guard let kindName = r.string("kind", &self) else {
            if t["kind"] == nil {
                error(base, "missing 'kind' (one of: \(GestureKind.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return nil
        }
        guard let kind = GestureKind(rawValue: kindName) else {
            error("\(base).kind", "unknown kind '\(kindName)'; expected one of: \(GestureKind.allCases.map(\.rawValue).joined(separator: ", "))")
            return nil
        }
        var params = RecognizerParameters.defaults(for: kind)
        switch params {
        case .tap(var p):
            r.int("taps", &p.taps, 1...10, &self)
            r.int("fingers", &p.fingers, 1...10, &self)
            r.double("max_movement_mm", &p.maxMovementMM, 0.1...100, &self)
            r.millis("max_duration_ms", &p.maxDuration, 10...10_000, &self)
            r.millis("multi_tap_window_ms", &p.multiTapWindow, 10...5_000, &self)
            r.double("multi_tap_slop_mm", &p.multiTapSlopMM, 0.1...200, &self)
            params = .tap(p)
        case .pan(var p):
            r.int("min_fingers", &p.minFingers, 1...10, &self)
            r.int("max_fingers", &p.maxFingers, 1...10, &self)
            r.double("start_threshold_mm", &p.startThresholdMM, 0...100, &self)
            if p.minFingers > p.maxFingers {
                error("\(base).min_fingers", "min_fingers \(p.minFingers) > max_fingers \(p.maxFingers)")
            }
            params = .pan(p)
        case .circle(var p):
            r.double("tolerance", &p.tolerance, 0.01...1, &self)
            r.double("min_radius_mm", &p.minRadiusMM, 0...500, &self)
            r.double("min_sweep_deg", &p.minSweepDegrees, 90...720, &self)
            r.double("max_sweep_deg", &p.maxSweepDegrees, 180...1440, &self)
            r.double("inner_box_fraction", &p.innerBoxFraction, 0...1, &self)
            r.double("min_box_coverage", &p.minBoxCoverage, 0...1, &self)
            r.double("max_end_gap", &p.maxEndGap, 0...4, &self)
            r.double("max_corner_share", &p.maxCornerShare, 0.2...1, &self)
            r.millis("max_duration_ms", &p.maxDuration, 100...60_000, &self)
            params = .circle(p)
        case .checkmark(var p):
            r.double("min_arm_ratio", &p.minArmRatio, 0.1...20, &self)
            r.double("max_arm_ratio", &p.maxArmRatio, 0.1...50, &self)
            r.double("min_rise_ratio", &p.minRiseRatio, 0...50, &self)
            r.double("min_length_mm", &p.minLengthMM, 0...500, &self)
            r.double("first_arm_min_deg", &p.firstArmMinDegrees, -90...180, &self)
            r.double("first_arm_max_deg", &p.firstArmMaxDegrees, -90...180, &self)
            r.double("second_arm_min_deg", &p.secondArmMinDegrees, -90...180, &self)
            r.double("second_arm_max_deg", &p.secondArmMaxDegrees, -90...180, &self)
            r.double("max_arm_bend", &p.maxArmBend, 1...10, &self)
            r.millis("max_duration_ms", &p.maxDuration, 100...60_000, &self)
            params = .checkmark(p)
        case .tickle(var p):
            r.int("reversals", &p.reversals, 1...50, &self)
            r.double("min_travel_mm", &p.minTravelMM, 0.5...200, &self)
            r.millis("max_stroke_ms", &p.maxStrokeDuration, 20...5_000, &self)
            r.double("max_vertical_ratio", &p.maxVerticalRatio, 0...10, &self)
            params = .tickle(p)
        case .swipe(var p):
            r.int("fingers", &p.fingers, 1...10, &self)
            r.double("min_distance_mm", &p.minDistanceMM, 1...1000, &self)
            r.double("min_speed_mm_s", &p.minSpeedMMPerS, 0...10_000, &self)
            r.millis("max_duration_ms", &p.maxDuration, 50...10_000, &self)
            r.double("max_angle_deg", &p.maxAngleDegrees, 1...45, &self)
            var dirs: [String] = []
            r.strings("directions", &dirs, &self)
            if !dirs.isEmpty {
                var set = Set<SwipeRecognizer.Direction>()
                for d in dirs {
                    if let v = SwipeRecognizer.Direction(rawValue: d) { set.insert(v) }
                    else { error("\(base).directions", "unknown direction '\(d)'; expected left, right, up, down") }
                }
                p.directions = set
            }
            params = .swipe(p)
        case .longPress(var p):
            r.int("fingers", &p.fingers, 1...10, &self)
            r.millis("min_duration_ms", &p.minDuration, 50...10_000, &self)
            r.double("max_movement_mm", &p.maxMovementMM, 0.1...100, &self)
            params = .longPress(p)
        case .pinch(var p):
            r.double("start_scale_delta", &p.startScaleDelta, 0.01...2, &self)
            params = .pinch(p)
        case .rotate(var p):
            r.double("start_deg", &p.startDegrees, 1...180, &self)
            params = .rotate(p)
        }
        var config = RecognizerConfig(name: name, parameters: params)
        r.strings("requires_failure_of", &config.requiresFailureOf, &self)
        r.strings("simultaneous_with", &config.simultaneousWith, &self)
        r.bool("can_prevent", &config.canPrevent, &self)
        r.bool("can_be_prevented", &config.canBePrevented, &self)
        r.strings("devices", &config.filter.devices, &self)
        var region: [Double] = []
        if r.doubles("region", &region, count: 4, &self) {
            if region[0] < region[2] && region[1] < region[3] && region.allSatisfy({ (0...1).contains($0) }) {
                config.filter.region = Box(minX: region[0], minY: region[1], maxX: region[2], maxY: region[3])
            } else {
                error("\(base).region", "expected [x0, y0, x1, y1] within 0…1 with x0 < x1 and y0 < y1")
            }
        }
        r.rejectUnknown(&self, what: "a \(kind.rawValue) recognizer")
        return config
    }

    mutating func readDevice(index: Int, _ t: TOMLTable) -> DeviceRule? {
        var r = Reader(table: t, path: "device.\(index)")
        var match = DeviceMatch()
        var s = ""
        if r.stringValue("match", &s, &self) { match.name = s }
        if r.stringValue("vendor_product", &s, &self) {
            let parts = s.split(separator: ":")
            if parts.count == 2, parts.allSatisfy({ $0.count == 4 && UInt16($0, radix: 16) != nil }) {
                match.vendorProduct = s.lowercased()
            } else {
                error("device.\(index).vendor_product", "expected \"vvvv:pppp\" in hex, got \"\(s)\"")
            }
        }
        if r.stringValue("syspath", &s, &self) { match.syspath = s }
        var rule = DeviceRule(match: match)
        var size: [Double] = []
        if r.doubles("size_mm", &size, count: 2, &self) {
            if size.allSatisfy({ $0 > 0 && $0 < 5000 }) { rule.sizeMM = Point(x: size[0], y: size[1]) }
            else { error("device.\(index).size_mm", "expected [width, height] in mm, both > 0") }
        }
        var rotation = 0
        r.int("rotation", &rotation, 0...270, &self)
        if let rot = Rotation(rawValue: rotation) { rule.rotation = rot }
        else { error("device.\(index).rotation", "expected 0, 90, 180 or 270, got \(rotation)") }
        var use = true
        if r.bool("use", &use, &self) { rule.use = use }
        r.rejectUnknown(&self, what: "a [[device]] entry")
        if match.name == nil && match.vendorProduct == nil && match.syspath == nil {
            error("device.\(index)", "a [[device]] entry needs match, vendor_product or syspath")
            return nil
        }
        return rule
    }
}

/// Reads typed keys from one table, remembering which it used.
private struct Reader {
    let table: TOMLTable
    let path: String
    var used: Set<String> = []

    init(table: TOMLTable, path: String) { self.table = table; self.path = path }

    private mutating func value(_ key: String) -> TOMLValueConvertible? {
        used.insert(key)
        return table[key]
    }

    mutating func string(_ key: String, _ ctx: inout Context) -> String? {
        guard let v = value(key) else { return nil }
        guard let s = v.string else { ctx.error("\(path).\(key)", "expected a string, got \(v.type)"); return nil }
        return s
    }

    @discardableResult
    mutating func stringValue(_ key: String, _ out: inout String, _ ctx: inout Context) -> Bool {
        guard let s = string(key, &ctx) else { return false }
        out = s
        return true
    }

    mutating func int(_ key: String, _ out: inout Int, _ range: ClosedRange<Int>, _ ctx: inout Context) {
        guard let v = value(key) else { return }
        guard let i = v.int else { ctx.error("\(path).\(key)", "expected an integer from \(range.lowerBound) to \(range.upperBound), got \(v.type) \(v.debugDescription)"); return }
        guard range.contains(i) else { ctx.error("\(path).\(key)", "expected an integer from \(range.lowerBound) to \(range.upperBound), got \(i)"); return }
        out = i
    }

    mutating func double(_ key: String, _ out: inout Double, _ range: ClosedRange<Double>, _ ctx: inout Context) {
        guard let v = value(key) else { return }
        guard let d = v.double ?? v.int.map(Double.init) else {
            ctx.error("\(path).\(key)", "expected a number from \(formatFixed(range.lowerBound, decimals: 2)) to \(formatFixed(range.upperBound, decimals: 2)), got \(v.type) \(v.debugDescription)"); return
        }
        guard range.contains(d) else {
            ctx.error("\(path).\(key)", "expected a number from \(formatFixed(range.lowerBound, decimals: 2)) to \(formatFixed(range.upperBound, decimals: 2)), got \(d)"); return
        }
        out = d
    }

    mutating func millis(_ key: String, _ out: inout Millis, _ range: ClosedRange<Double>, _ ctx: inout Context) {
        var d = out.value
        double(key, &d, range, &ctx)
        out = Millis(d)
    }

    @discardableResult
    mutating func bool(_ key: String, _ out: inout Bool, _ ctx: inout Context) -> Bool {
        guard let v = value(key) else { return false }
        guard let b = v.bool else { ctx.error("\(path).\(key)", "expected true or false, got \(v.type)"); return false }
        out = b
        return true
    }

    mutating func strings(_ key: String, _ out: inout [String], _ ctx: inout Context) {
        guard let v = value(key) else { return }
        if let s = v.string { out = [s]; return }
        guard let arr = v.array else { ctx.error("\(path).\(key)", "expected a list of names, got \(v.type)"); return }
        var list: [String] = []
        for item in arr {
            guard let s = item.string else { ctx.error("\(path).\(key)", "expected a list of names, found \(item.type)"); return }
            list.append(s)
        }
        out = list
    }

    mutating func doubles(_ key: String, _ out: inout [Double], count: Int, _ ctx: inout Context) -> Bool {
        guard let v = value(key) else { return false }
        guard let arr = v.array else { ctx.error("\(path).\(key)", "expected a list of \(count) numbers, got \(v.type)"); return false }
        var list: [Double] = []
        for item in arr {
            guard let d = item.double ?? item.int.map(Double.init) else {
                ctx.error("\(path).\(key)", "expected a list of \(count) numbers, found \(item.type)"); return false
            }
            list.append(d)
        }
        guard list.count == count else { ctx.error("\(path).\(key)", "expected \(count) numbers, got \(list.count)"); return false }
        out = list
        return true
    }

    func rejectUnknown(_ ctx: inout Context, what: String) {
        for key in table.keys where !used.contains(key) {
            ctx.error("\(path).\(key)", "unknown key for \(what); known keys: \(used.sorted().joined(separator: ", "))")
        }
    }
}

extension String {
    var trimmed: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
        return String(s)
    }
    var unquoted: String {
        if count >= 2, (hasPrefix("\"") && hasSuffix("\"")) || (hasPrefix("'") && hasSuffix("'")) {
            return String(dropFirst().dropLast())
        }
        return self
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
