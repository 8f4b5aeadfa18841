import GestureCore

/// The problems found in one file, each as file:line: key: message.
struct ConfigProblems {
    let file: String
    var errors: [ConfigError] = []

    init(file: String) { self.file = file }

    mutating func error(_ key: String, _ message: String, at position: SourcePosition) {
        errors.append(ConfigError(file: file, line: position.line, key: key, message: message))
    }
}

/// Reads typed values from one table of a config or actions file, remembering
/// which keys it was asked for and where they are written. Both loaders read
/// through it, so a wrong type or an out-of-range value is worded and placed the
/// same in either file: a value on its key's line is reported at the key, an
/// item of a list on a later line at the item.
struct TableReader {
    let table: TomlTable
    let path: String
    /// Where the table is written (its header).
    let tablePosition: SourcePosition
    /// The keys asked for, present or not: what the table may hold.
    var used: Set<String> = []
    /// Where each key asked for and present is written, by its full path.
    var positions: [String: SourcePosition] = [:]

    init(table: TomlTable, path: String, position: SourcePosition) {
        self.table = table
        self.path = path
        self.tablePosition = position
    }

    /// A key's full path, as errors name it (a key of the file's root table is its own path).
    func fullPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// Where a key is written, else the table's header.
    func position(of key: String) -> SourcePosition { table[key]?.keyPosition ?? tablePosition }

    /// The key's value, if it is there; the key counts as known either way.
    mutating func value(_ key: String) -> TomlNode? {
        used.insert(key)
        guard let m = table[key] else { return nil }
        positions[fullPath(key)] = m.keyPosition
        return m.node
    }

    /// Reports a problem with `key`'s value or one of its items: at the key when
    /// the node is on the key's line, else at the node.
    func fail(_ key: String, _ message: String, at node: TomlNode, _ problems: inout ConfigProblems) {
        problems.error(
            fullPath(key), message, at: node.position.line == position(of: key).line ? position(of: key) : node.position
        )
    }

    mutating func string(_ key: String, _ problems: inout ConfigProblems) -> String? {
        guard let v = value(key) else { return nil }
        guard let s = v.string else {
            fail(key, "expected a string, got \(v.described)", at: v, &problems)
            return nil
        }
        return s
    }

    @discardableResult
    mutating func stringValue(_ key: String, _ out: inout String, _ problems: inout ConfigProblems) -> Bool {
        guard let s = string(key, &problems) else { return false }
        out = s
        return true
    }

    /// True when the key is there as an integer, in range or not.
    @discardableResult
    mutating func int(_ key: String, _ out: inout Int, _ range: ClosedRange<Int>, _ problems: inout ConfigProblems)
        -> Bool
    {
        guard let v = value(key) else { return false }
        let expected = "expected an integer from \(range.lowerBound) to \(range.upperBound)"
        guard let i = v.int else {
            fail(key, "\(expected), got \(v.described)", at: v, &problems)
            return false
        }
        guard range.contains(i) else {
            fail(key, "\(expected), got \(i)", at: v, &problems)
            return true
        }
        out = i
        return true
    }

    /// True when the key is there as a number, in range or not.
    @discardableResult
    mutating func double(
        _ key: String, _ out: inout Double, _ range: ClosedRange<Double>, _ problems: inout ConfigProblems
    ) -> Bool {
        guard let v = value(key) else { return false }
        let expected =
            "expected a number from \(formatFixed(range.lowerBound, decimals: 2)) to \(formatFixed(range.upperBound, decimals: 2))"
        guard let d = v.number else {
            fail(key, "\(expected), got \(v.described)", at: v, &problems)
            return false
        }
        guard range.contains(d) else {
            fail(key, "\(expected), got \(formatBound(d))", at: v, &problems)
            return true
        }
        out = d
        return true
    }

    @discardableResult
    mutating func millis(
        _ key: String, _ out: inout Millis, _ range: ClosedRange<Double>, _ problems: inout ConfigProblems
    ) -> Bool {
        var d = out.value
        let given = double(key, &d, range, &problems)
        out = Millis(d)
        return given
    }

    @discardableResult
    mutating func bool(_ key: String, _ out: inout Bool, _ problems: inout ConfigProblems) -> Bool {
        guard let v = value(key) else { return false }
        guard let b = v.bool else {
            fail(key, "expected true or false, got \(v.described)", at: v, &problems)
            return false
        }
        out = b
        return true
    }

    /// A string or a list of strings, each with where it is written. False when
    /// the key is absent or wrong.
    mutating func strings(_ key: String, _ out: inout [(String, SourcePosition)], _ problems: inout ConfigProblems)
        -> Bool
    {
        guard let v = value(key) else { return false }
        if let s = v.string {
            out = [(s, position(of: key))]
            return true
        }
        guard let arr = v.array else {
            fail(key, "expected a list of names, got \(v.described)", at: v, &problems)
            return false
        }
        var list: [(String, SourcePosition)] = []
        for item in arr {
            guard let s = item.string else {
                fail(key, "expected a list of names, found \(item.described)", at: item, &problems)
                return false
            }
            list.append((s, item.position))
        }
        out = list
        return true
    }

    /// A list of names, none of them empty.
    mutating func names(_ key: String, _ out: inout [String], _ problems: inout ConfigProblems) {
        var list: [(String, SourcePosition)] = []
        guard strings(key, &list, &problems) else { return }
        if let empty = list.first(where: { $0.0.isEmpty }) {
            problems.error(fullPath(key), "an empty name matches nothing useful; remove it", at: empty.1)
            return
        }
        out = list.map(\.0)
    }

    mutating func doubles(_ key: String, _ out: inout [Double], count: Int, _ problems: inout ConfigProblems) -> Bool {
        guard let v = value(key) else { return false }
        guard let arr = v.array else {
            fail(key, "expected a list of \(count) numbers, got \(v.described)", at: v, &problems)
            return false
        }
        var list: [Double] = []
        for item in arr {
            guard let d = item.number else {
                fail(key, "expected a list of \(count) numbers, found \(item.described)", at: item, &problems)
                return false
            }
            list.append(d)
        }
        guard list.count == count else {
            fail(key, "expected \(count) numbers, got \(list.count)", at: v, &problems)
            return false
        }
        out = list
        return true
    }

    /// A string or a non-empty list of strings (`what` names them), each
    /// passing `check` (which returns what is wrong, or nil), without repeats.
    /// Empty when anything is wrong or the key is absent.
    mutating func stringList(
        _ key: String, what: String, _ problems: inout ConfigProblems,
        check: (String) -> String?
    ) -> [String] {
        guard let v = value(key) else { return [] }
        let items: [TomlNode]
        if v.string != nil {
            items = [v]
        } else if let list = v.array {
            items = list
        } else {
            fail(key, "expected a string or a list of \(what), got \(v.described)", at: v, &problems)
            return []
        }
        if items.isEmpty {
            fail(key, "an empty list would match nothing; leave the key out to match any", at: v, &problems)
            return []
        }
        var out: [String] = []
        var ok = true
        for item in items {
            guard let s = item.string else {
                fail(key, "expected a string or a list of \(what), found \(item.described)", at: item, &problems)
                ok = false
                continue
            }
            if let problem = check(s) {
                fail(key, problem, at: item, &problems)
                ok = false
                continue
            }
            if !out.contains(s) { out.append(s) }
        }
        return ok ? out : []
    }

    /// An integer or a non-empty list of integers, each in `range`, without
    /// repeats. Empty when anything is wrong or the key is absent.
    mutating func integerList(_ key: String, range: ClosedRange<Int>, _ problems: inout ConfigProblems) -> [Int] {
        guard let v = value(key) else { return [] }
        let expected = "expected an integer from \(range.lowerBound) to \(range.upperBound) or a list of them"
        let items = v.array ?? [v]
        if items.isEmpty {
            fail(key, "an empty list would match nothing; leave the key out to match any", at: v, &problems)
            return []
        }
        var out: [Int] = []
        var ok = true
        for item in items {
            guard let n = item.int, range.contains(n) else {
                fail(key, "\(expected), got \(item.described)", at: item, &problems)
                ok = false
                continue
            }
            if !out.contains(n) { out.append(n) }
        }
        return ok ? out : []
    }

    /// Every key in the table that nobody asked for is an error; `known` lists
    /// the keys in the message (by default those asked for, sorted).
    func rejectUnknown(_ problems: inout ConfigProblems, what: String, known: [String]? = nil) {
        let known = known ?? used.sorted()
        for m in table.members where !used.contains(m.key) {
            problems.error(
                fullPath(tomlKey(m.key)), "unknown key for \(what); known keys: \(known.joined(separator: ", "))",
                at: m.keyPosition)
        }
    }
}
