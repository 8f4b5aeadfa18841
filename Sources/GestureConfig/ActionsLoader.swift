import GestureCore

/// Reads an `actions.toml` into an `ActionsFile`, as strictly as the daemon's
/// config: the same text checks before parsing (UTF-8, no NUL, at most
/// `ConfigLoader.maxFileBytes`), toml++ through the same shim, unknown keys and
/// wrong types are errors, and every error names file:line: key.
///
/// ```toml
/// max_running = 4
///
/// [[action]]
/// kind = "swipe"
/// direction = ["left", "right"]
/// exec = "notify-send \"swipe $GESTURE_DIRECTION\""
/// ```
public enum ActionsLoader {
    public static func load(text: String, file: String) throws(ConfigErrors) -> ActionsFile {
        var text = text
        return try text.withUTF8 { load(UnsafeRawBufferPointer($0), file: file) }.get()
    }

    public static func load(bytes: [UInt8], file: String) throws(ConfigErrors) -> ActionsFile {
        try bytes.withUnsafeBytes { load($0, file: file) }.get()
    }

    /// The keys an `[[action]]` takes.
    public static let actionKeys = ["exec", "name", "kind", "state", "direction", "fingers", "edge"]

    static func load(_ bytes: UnsafeRawBufferPointer, file: String) -> Result<ActionsFile, ConfigErrors> {
        ConfigLoader.parseChecked(bytes, file: file, what: "an actions file").flatMap { root in
            var reader = ActionsReader(file: file)
            let result = reader.read(root)
            return reader.errors.isEmpty ? .success(result) : .failure(ConfigLoader.sorted(reader.errors))
        }
    }
}

private struct ActionsReader {
    let file: String
    var errors: [ConfigError] = []

    init(file: String) { self.file = file }

    mutating func error(_ key: String, _ message: String, at position: SourcePosition) {
        errors.append(ConfigError(file: file, line: position.line, key: key, message: message))
    }

    mutating func read(_ root: TomlTable) -> ActionsFile {
        var out = ActionsFile(actions: [], file: file)
        for member in root.members {
            let key = tomlKey(member.key)
            switch member.key {
            case "max_running":
                let range = 1...ActionsFile.maxRunningLimit
                let expected = "expected an integer from \(range.lowerBound) to \(range.upperBound)"
                if let n = member.node.int, range.contains(n) {
                    out.maxRunning = n
                } else if let n = member.node.int {
                    error(key, "\(expected), got \(n)", at: member.keyPosition)
                } else {
                    error(key, "\(expected), got \(member.node.described)", at: member.keyPosition)
                }
            case "action":
                guard let list = member.node.array, list.allSatisfy({ $0.table != nil }) else {
                    error(key, "expected [[action]] tables (two brackets), got \(member.node.typeName)", at: member.keyPosition)
                    continue
                }
                for (i, node) in list.enumerated() {
                    if let a = readAction(node.table!, path: "action.\(i)", at: node.position) { out.actions.append(a) }
                }
            default:
                error(key, "unknown key; an actions file holds max_running and [[action]] tables", at: member.keyPosition)
            }
        }
        if out.actions.isEmpty && errors.isEmpty {
            out.warnings.append("\(file):1: no [[action]] tables: no command will run")
        }
        return out
    }

    mutating func readAction(_ t: TomlTable, path: String, at position: SourcePosition) -> ActionsFile.Action? {
        let errorsBefore = errors.count
        var exec: String?
        var action = ActionsFile.Action(exec: "", line: position.line)
        for m in t.members {
            let key = "\(path).\(tomlKey(m.key))"
            switch m.key {
            case "exec":
                guard let s = m.node.string else {
                    error(key, "expected the command as a string, got \(m.node.described)", at: m.keyPosition); continue
                }
                if s.unicodeScalars.allSatisfy(\.properties.isWhitespace) {
                    error(key, "an empty command; write the command to run through /bin/sh -c", at: m.keyPosition)
                } else if s.utf8.contains(0) {
                    error(key, "the command contains a NUL character, which no command line can", at: m.keyPosition)
                } else {
                    exec = s
                }
            case "name":
                action.names = strings(m, key: key, what: "recognizer names") { name in
                    name.isEmpty ? "an empty name matches no recognizer" : nil
                }
            case "kind":
                let known = GestureKind.allCases.map(\.rawValue)
                action.kinds = strings(m, key: key, what: "kinds") { known.contains($0) ? nil : "unknown kind '\($0)'; expected one of: \(known.joined(separator: ", "))" }
                    .compactMap(GestureKind.init(rawValue:))
            case "state":
                let known = ActionsFile.states.map(\.rawValue)
                action.states = strings(m, key: key, what: "states") { known.contains($0) ? nil : "unknown state '\($0)'; expected one of: \(known.joined(separator: ", "))" }
                    .compactMap(GestureState.init(rawValue:))
            case "direction":
                let known = ActionsFile.directions
                action.directions = strings(m, key: key, what: "directions") { known.contains($0) ? nil : "unknown direction '\($0)'; expected one of: \(known.joined(separator: ", "))" }
            case "edge":
                let known = ActionsFile.edges
                action.edges = strings(m, key: key, what: "edges") { edge in
                    if known.contains(edge) { return nil }
                    if edge == Edge.none.rawValue {
                        return "events carry no edge \"none\" (a recognizer with edge = \"none\" sends no edge field); match it by its name"
                    }
                    return "unknown edge '\(edge)'; expected one of: \(known.joined(separator: ", "))"
                }
            case "fingers":
                action.fingers = integers(m, key: key, range: 1...10)
            default:
                error(key, "unknown key for an [[action]]; known keys: \(ActionsLoader.actionKeys.joined(separator: ", "))", at: m.keyPosition)
            }
        }
        if exec == nil && t["exec"] == nil {
            error(path, "an [[action]] needs exec, the command to run", at: position)
        }
        guard let exec, errors.count == errorsBefore else { return nil }
        action.exec = exec
        return action
    }

    /// A string or a non-empty list of strings, each passing `check` (which
    /// returns what is wrong, or nil). Empty when anything is wrong.
    mutating func strings(_ m: TomlMember, key: String, what: String, check: (String) -> String?) -> [String] {
        let items: [TomlNode]
        if m.node.string != nil {
            items = [m.node]
        } else if let list = m.node.array {
            items = list
        } else {
            error(key, "expected a string or a list of \(what), got \(m.node.described)", at: m.keyPosition)
            return []
        }
        if items.isEmpty {
            error(key, "an empty list would match nothing; leave the key out to match any", at: m.keyPosition)
            return []
        }
        var out: [String] = []
        var ok = true
        for item in items {
            // An item on the key's own line is reported at the key; one on a later line, at itself.
            let at = item.position.line == m.keyPosition.line ? m.keyPosition : item.position
            guard let s = item.string else {
                error(key, "expected a string or a list of \(what), found \(item.described)", at: at); ok = false; continue
            }
            if let problem = check(s) { error(key, problem, at: at); ok = false; continue }
            if !out.contains(s) { out.append(s) }
        }
        return ok ? out : []
    }

    /// An integer or a non-empty list of integers, each in `range`.
    mutating func integers(_ m: TomlMember, key: String, range: ClosedRange<Int>) -> [Int] {
        let expected = "expected an integer from \(range.lowerBound) to \(range.upperBound) or a list of them"
        let items: [TomlNode]
        if m.node.array == nil { items = [m.node] } else { items = m.node.array! }
        if items.isEmpty {
            error(key, "an empty list would match nothing; leave the key out to match any", at: m.keyPosition)
            return []
        }
        var out: [Int] = []
        var ok = true
        for item in items {
            let at = item.position.line == m.keyPosition.line ? m.keyPosition : item.position
            guard let n = item.int, range.contains(n) else {
                error(key, "\(expected), got \(item.described)", at: at); ok = false; continue
            }
            if !out.contains(n) { out.append(n) }
        }
        return ok ? out : []
    }
}
