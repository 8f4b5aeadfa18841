import CTomlShim

/// Where something is written in a file: 1-based line and column.
struct SourcePosition: Sendable, Equatable, Comparable {
    var line: Int
    var column: Int

    static func < (a: SourcePosition, b: SourcePosition) -> Bool {
        a.line != b.line ? a.line < b.line : a.column < b.column
    }
}

/// A parsed TOML value with where it is written.
struct TomlNode: Sendable {
    enum Value: Sendable {
        case table(TomlTable)
        case array([TomlNode])
        case string(String)
        case integer(Int64)
        case float(Double)
        case boolean(Bool)
        case date, time, dateTime
    }

    var value: Value
    var position: SourcePosition

    var table: TomlTable? { if case .table(let t) = value { t } else { nil } }
    var array: [TomlNode]? { if case .array(let a) = value { a } else { nil } }
    var string: String? { if case .string(let s) = value { s } else { nil } }
    var bool: Bool? { if case .boolean(let b) = value { b } else { nil } }
    var int: Int? { if case .integer(let i) = value { Int(exactly: i) } else { nil } }
    /// A float, or an integer read as a number.
    var number: Double? {
        switch value {
        case .float(let d): d
        case .integer(let i): Double(i)
        default: nil
        }
    }

    /// The type's name, for messages.
    var typeName: String {
        switch value {
        case .table: "a table"
        case .array: "a list"
        case .string: "string"
        case .integer: "integer"
        case .float: "float"
        case .boolean: "boolean"
        case .date: "a date"
        case .time: "a time"
        case .dateTime: "a date-time"
        }
    }

    /// The type and, for a scalar, its value as written in TOML, for messages.
    var described: String {
        switch value {
        case .string(let s): "string \(tomlQuoted(s))"
        case .integer(let i): "integer \(i)"
        case .float(let d): "float \(d)"
        case .boolean(let b): "boolean \(b)"
        default: typeName
        }
    }
}

/// One `key = value` of a table, with where the key is written.
struct TomlMember: Sendable {
    var key: String
    var keyPosition: SourcePosition
    var node: TomlNode
}

/// A table's members in the order they are written.
struct TomlTable: Sendable {
    var members: [TomlMember]

    subscript(key: String) -> TomlMember? { members.first { $0.key == key } }
}

/// A syntax error, as toml++ reports it.
struct TomlSyntaxError: Error, Sendable {
    var position: SourcePosition
    var message: String
}

enum Toml {
    /// Parses UTF-8 TOML with toml++ into a tree that keeps every key's and
    /// value's position. The C side is freed before this returns.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Result<TomlTable, TomlSyntaxError> {
        guard let doc = ctoml_parse(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count) else {
            return .failure(TomlSyntaxError(position: SourcePosition(line: 1, column: 1), message: "out of memory"))
        }
        defer { ctoml_free(doc) }
        if let error = doc.pointee.error {
            return .failure(
                TomlSyntaxError(position: position(doc.pointee.error_position), message: String(cString: error)))
        }
        let nodes = UnsafeBufferPointer(start: doc.pointee.nodes, count: doc.pointee.node_count)
        guard !nodes.isEmpty, case .table(let root) = node(nodes, 0).value else {
            return .success(TomlTable(members: []))
        }
        return .success(root)
    }

    private static func position(_ p: ctoml_position) -> SourcePosition {
        SourcePosition(line: max(1, Int(p.line)), column: max(1, Int(p.column)))
    }

    private static func text(_ p: UnsafePointer<CChar>?, _ count: Int) -> String {
        guard let p, count > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: p, count: count), as: UTF8.self)
    }

    /// The shim bounds nesting (toml++ refuses more than 256 levels), so this
    /// recursion is bounded too.
    private static func node(_ nodes: UnsafeBufferPointer<ctoml_node>, _ i: Int) -> TomlNode {
        let n = nodes[i]
        let children = Int(n.first_child)..<(Int(n.first_child) + Int(n.child_count))
        let value: TomlNode.Value
        switch n.kind {
        case CTOML_TABLE:
            value = .table(
                TomlTable(
                    members: children.map { c in
                        TomlMember(
                            key: text(nodes[c].key, nodes[c].key_length), keyPosition: position(nodes[c].key_position),
                            node: node(nodes, c))
                    }))
        case CTOML_ARRAY: value = .array(children.map { node(nodes, $0) })
        case CTOML_STRING: value = .string(text(n.string, n.string_length))
        case CTOML_INTEGER: value = .integer(n.integer)
        case CTOML_FLOAT: value = .float(n.number)
        case CTOML_BOOLEAN: value = .boolean(n.boolean != 0)
        case CTOML_DATE: value = .date
        case CTOML_TIME: value = .time
        default: value = .dateTime
        }
        return TomlNode(value: value, position: position(n.position))
    }
}

/// A string as a TOML basic string: quoted, with control characters escaped.
public func tomlQuoted(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
        switch u {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        case "\r": out += "\\r"
        default:
            if u.value < 0x20 || u.value == 0x7f || (0x80..<0xa0).contains(u.value) {
                let hex = String(u.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                out.unicodeScalars.append(u)
            }
        }
    }
    return out + "\""
}

/// A key as written in a dotted TOML path: bare when it can be, quoted otherwise.
func tomlKey(_ key: String) -> String {
    let bare =
        !key.isEmpty
        && key.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c == 0x5f || c == 0x2d
        }
    return bare ? key : tomlQuoted(key)
}
