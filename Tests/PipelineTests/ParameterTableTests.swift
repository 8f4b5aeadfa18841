import Foundation
import GestureConfig
import GestureCore
import Testing

/// Each recognizer kind's keys are written once, in its table (`ParameterKey`):
/// the loader, the bounds check and the docs all follow it.
@Suite("parameter tables")
struct ParameterTableTests {
    func errors(_ text: String) -> [String] { configMessages(text, file: "t.toml") }

    static let begin = "<!-- recognizer parameters: begin (generated: gesturectl check --keys) -->\n"
    static let end = "<!-- recognizer parameters: end -->"

    @Test func theReadmesTableIsTheCodes() throws {
        let readme = try String(contentsOfFile: repoRoot + "/README.md", encoding: .utf8)
        guard let b = readme.range(of: Self.begin), let e = readme.range(of: Self.end) else {
            Issue.record("README.md has no generated table of recognizer parameters")
            return
        }
        let table = String(readme[b.upperBound..<e.lowerBound])
        #expect(
            table == "\n" + RecognizerParameters.referenceMarkdown(),
            "README.md's table differs from the code's: paste `gesturectl check --keys` between the markers")
    }

    /// The keys listed for every kind are keys the loader takes: all of them
    /// set on one recognizer load without an error.
    @Test func theKeysOfEveryKindAreTheLoaders() {
        let values: [String: String] = [
            "requires_failure_of": "[\"b\"]", "simultaneous_with": "[\"b\"]", "can_prevent": "false",
            "can_be_prevented": "false", "devices": "[\"panel\"]", "region": "[0.0, 0.0, 0.5, 0.5]",
            "edge": "\"left\"", "edge_mm": "6", "edge_range": "[0.2, 0.8]", "edge_at": "\"start_or_end\"",
            "profiles": "[\"default\", \"locked\"]", "consume": "true",
        ]
        #expect(Set(RecognizerParameters.commonKeys.map(\.key)) == Set(values.keys))
        let keys = RecognizerParameters.commonKeys.map { "\($0.key) = \(values[$0.key] ?? "")" }
        let text =
            "[recognizer.a]\nkind = \"swipe\"\n" + keys.joined(separator: "\n") + "\n[recognizer.b]\nkind = \"tap\"\n"
        #expect(errors(text) == [])
    }

    @Test func theDocumentedDefaultConfigShowsEveryKey() {
        // Every key of a kind is set or shown commented out in a table of that kind.
        var shown: [String: Set<String>] = [:]
        var kind = ""
        // A shape has no default (its examples are a person's strokes): the example
        // config with one shows its keys.
        let shapeExample =
            (try? String(contentsOfFile: repoRoot + "/config/examples/taught-shape.toml", encoding: .utf8)) ?? ""
        for line in (defaultConfigText + "\n" + shapeExample).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("[") {
                kind = ""
                continue
            }
            let text = line.drop { $0 == "#" || $0 == " " }
            guard let eq = text.firstIndex(of: "=") else { continue }
            let key = text[..<eq].trimmingCharacters(in: .whitespaces)
            guard key.allSatisfy({ $0.isLowercase || $0 == "_" }), !key.isEmpty else { continue }
            if key == "kind" && !line.hasPrefix("#") {
                kind = text[text.index(after: eq)...].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["\""]
                )
            } else if !kind.isEmpty {
                shown[kind, default: []].insert(key)
            }
        }
        for k in GestureKind.allCases {
            let keys = Set(RecognizerParameters.reference(for: k).map(\.key))
            #expect(
                keys.subtracting(shown[k.rawValue] ?? []).isEmpty,
                "config/gestured.toml does not show \(keys.subtracting(shown[k.rawValue] ?? []).sorted()) for \(k.rawValue)"
            )
        }
    }

    @Test func everyKeyOfEveryKindIsReadAndRangeChecked() {
        // A key without a default (a shape's examples) is written after the key tested.
        func required(_ kind: GestureKind, except key: String = "") -> String {
            RecognizerParameters.reference(for: kind).filter { $0.type == "list of strokes" && $0.key != key }.map {
                "\($0.key) = [[[0, 0], [10, 0], [20, 0], [10, 10], [0, 20]]]\n"
            }.joined()
        }
        for kind in GestureKind.allCases {
            for row in RecognizerParameters.reference(for: kind) {
                let header = "[recognizer.r]\nkind = \"\(kind.rawValue)\"\n\(row.key) = "
                let rest = required(kind, except: row.key)
                switch row.type {
                case "integer", "number", "ms":
                    // The default as written in the table is accepted; a string is not.
                    let value = row.defaultValue
                    #expect(errors(header + value + "\n" + rest).isEmpty, "\(kind.rawValue).\(row.key) = \(value)")
                    let wrong = errors(header + "\"x\"\n" + rest)
                    #expect(
                        wrong.count == 1 && wrong[0].hasPrefix("t.toml:3: recognizer.r.\(row.key): expected "),
                        "\(wrong)")
                    // Above the range's top: refused, naming the range.
                    let top = row.range.split(separator: "–").last.map(String.init) ?? ""
                    let above = errors(header + top + "1\n" + rest)
                    #expect(above.count == 1 && above[0].contains("from "), "\(kind.rawValue).\(row.key): \(above)")
                case "list of strokes":
                    #expect(errors(header + "1\n" + rest).first?.contains("recognizer.r.\(row.key): expected") == true)
                default:
                    #expect(
                        errors(header + "[1]\n" + rest).first?.contains("recognizer.r.\(row.key): expected") == true)
                }
            }
            // An unknown key names every key of the kind.
            let unknown = errors("[recognizer.r]\nkind = \"\(kind.rawValue)\"\nbogus = 1\n" + required(kind))
            for row in RecognizerParameters.reference(for: kind) {
                #expect(unknown.first?.contains(row.key) == true, "\(kind.rawValue): \(unknown)")
            }
        }
    }

    @Test func minimumMaximumPairsComeFromTheTable() {
        func range(_ row: ParameterReference) -> (String, String) {
            let ends = row.range.split(separator: "–").map(String.init)
            return (ends[0], ends[1])
        }
        var pairs: [String] = []
        for kind in GestureKind.allCases {
            let rows = RecognizerParameters.reference(for: kind)
            for row in rows {
                guard let upperKey = row.atMost, let upper = rows.first(where: { $0.key == upperKey }) else { continue }
                pairs.append("\(row.key)/\(upperKey)")
                // The lower key at the top of its range, the upper at the bottom of its own.
                let lo = range(row).1, hi = range(upper).0
                let e = errors("[recognizer.r]\nkind = \"\(kind.rawValue)\"\n\(row.key) = \(lo)\n\(upperKey) = \(hi)\n")
                #expect(
                    e == [
                        "t.toml:3: recognizer.r.\(row.key): \(row.key) = \(lo) is above \(upperKey) = \(hi); no \(kind.rawValue) could ever be recognized"
                    ])
            }
        }
        #expect(
            pairs == [
                "min_fingers/max_fingers", "min_sweep_deg/max_sweep_deg", "min_arm_ratio/max_arm_ratio",
                "first_arm_min_deg/first_arm_max_deg", "second_arm_min_deg/second_arm_max_deg",
            ])
    }
}
