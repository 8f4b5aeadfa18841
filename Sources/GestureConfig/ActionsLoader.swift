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
            return reader.problems.errors.isEmpty
                ? .success(result) : .failure(ConfigLoader.sorted(reader.problems.errors))
        }
    }
}

/// Reads an actions file's tables through the config's `TableReader`, key by
/// key in the order they are written.
private struct ActionsReader {
    var problems: ConfigProblems

    init(file: String) { problems = ConfigProblems(file: file) }

    mutating func read(_ root: TomlTable) -> ActionsFile {
        var out = ActionsFile(actions: [], file: problems.file)
        var r = TableReader(table: root, path: "", position: SourcePosition(line: 1, column: 1))
        for member in root.members {
            switch member.key {
            case "max_running":
                var n = 0
                r.int("max_running", &n, 1...ActionsFile.maxRunningLimit, &problems)
                if n > 0 { out.maxRunning = n }  // 0: refused (the range starts at 1)
            case "action":
                guard let list = member.node.array, list.allSatisfy({ $0.table != nil }) else {
                    problems.error(
                        "action", "expected [[action]] tables (two brackets), got \(member.node.typeName)",
                        at: member.keyPosition)
                    continue
                }
                for (i, node) in list.enumerated() {
                    if let a = readAction(node.table!, path: "action.\(i)", at: node.position) { out.actions.append(a) }
                }
            default:
                problems.error(
                    tomlKey(member.key), "unknown key; an actions file holds max_running and [[action]] tables",
                    at: member.keyPosition)
            }
        }
        if out.actions.isEmpty && problems.errors.isEmpty {
            out.warnings.append("\(problems.file):1: no [[action]] tables: no command will run")
        }
        return out
    }

    mutating func readAction(_ t: TomlTable, path: String, at position: SourcePosition) -> ActionsFile.Action? {
        let errorsBefore = problems.errors.count
        var r = TableReader(table: t, path: path, position: position)
        var exec: String?
        var action = ActionsFile.Action(exec: "", line: position.line)
        for m in t.members {
            switch m.key {
            case "exec":
                let v = r.value("exec")!
                guard let s = v.string else {
                    r.fail("exec", "expected the command as a string, got \(v.described)", at: v, &problems)
                    continue
                }
                if s.unicodeScalars.allSatisfy(\.properties.isWhitespace) {
                    r.fail("exec", "an empty command; write the command to run through /bin/sh -c", at: v, &problems)
                } else if s.utf8.contains(0) {
                    r.fail("exec", "the command contains a NUL character, which no command line can", at: v, &problems)
                } else {
                    exec = s
                }
            case "name":
                action.names = r.stringList("name", what: "recognizer names", &problems) { name in
                    name.isEmpty ? "an empty name matches no recognizer" : nil
                }
            case "kind":
                let known = GestureKind.allCases.map(\.rawValue)
                action.kinds = r.stringList("kind", what: "kinds", &problems) {
                    known.contains($0) ? nil : "unknown kind '\($0)'; expected one of: \(known.joined(separator: ", "))"
                }.compactMap(GestureKind.init(rawValue:))
            case "state":
                let known = ActionsFile.states.map(\.rawValue)
                action.states = r.stringList("state", what: "states", &problems) {
                    known.contains($0)
                        ? nil : "unknown state '\($0)'; expected one of: \(known.joined(separator: ", "))"
                }.compactMap(GestureState.init(rawValue:))
            case "direction":
                let known = ActionsFile.directions
                action.directions = r.stringList("direction", what: "directions", &problems) {
                    known.contains($0)
                        ? nil : "unknown direction '\($0)'; expected one of: \(known.joined(separator: ", "))"
                }
            case "edge":
                let known = ActionsFile.edges
                action.edges = r.stringList("edge", what: "edges", &problems) { edge in
                    if known.contains(edge) { return nil }
                    if edge == Edge.none.rawValue {
                        return
                            "events carry no edge \"none\" (a recognizer with edge = \"none\" sends no edge field); match it by its name"
                    }
                    return "unknown edge '\(edge)'; expected one of: \(known.joined(separator: ", "))"
                }
            case "fingers":
                action.fingers = r.integerList("fingers", range: 1...10, &problems)
            default:
                problems.error(
                    "\(path).\(tomlKey(m.key))",
                    "unknown key for an [[action]]; known keys: \(ActionsLoader.actionKeys.joined(separator: ", "))",
                    at: m.keyPosition)
            }
        }
        if exec == nil && t["exec"] == nil {
            problems.error(path, "an [[action]] needs exec, the command to run", at: position)
        }
        guard let exec, problems.errors.count == errorsBefore else { return nil }
        action.exec = exec
        return action
    }
}
