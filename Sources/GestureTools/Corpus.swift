import FoundationEssentials
import GestureCore
import Glibc
import LinuxSystem

/// One labelled input of an accuracy run: a drawn stroke or an evemu recording.
public struct CorpusItem: Sendable {
    public enum Input: Sendable {
        case stroke(LabelledStroke)
        case recording(path: String)
    }
    public var label: String
    public var subject: String
    public var speed: String
    public var source: String
    /// True for a circle mirrored left-right: it counts toward circle recall only.
    public var mirrored = false
    public var input: Input

    public init(label: String, subject: String, speed: String, source: String, mirrored: Bool = false, input: Input) {
        self.label = label
        self.subject = subject
        self.speed = speed
        self.source = source
        self.mirrored = mirrored
        self.input = input
    }
}

/// Finds labelled inputs: $1-style stroke XML files, evemu recordings, and the
/// directories holding them (searched recursively, in name order).
///
/// A stroke's label is its file name without the number (`circle07.xml` → circle).
/// A recording's label comes from a sidecar `RECORDING.label` (its first word:
/// `circle`, `check`, `none`, …), else from the first `-`-separated word of its name
/// that is a known class (`finger-circle-fast.events` → circle); speed words
/// (`fast`, `medium`, `slow`) in the name give its speed. Unlabelled recordings are
/// skipped with a warning.
public enum Corpus {
    /// Classes a recording name may carry; the $1 set, the tickle set and `none`.
    public static let knownClasses: Set<String> = [
        "arrow", "caret", "check", "checkmark", "circle", "delete_mark", "left_curly_brace", "left_sq_bracket",
        "pigtail", "question_mark", "rectangle", "right_curly_brace", "right_sq_bracket", "star", "triangle",
        "v", "x", "tickle", "scrub", "wipe", "tap", "none",
    ]

    /// The recognizer kind a class is the positive example of, if any.
    public static func kind(ofClass label: String) -> GestureKind? {
        switch label {
        case "circle": .circle
        case "check", "checkmark": .checkmark
        case "tickle": .tickle
        case "tap": .tap
        default: nil
        }
    }

    public static func load(
        _ paths: [String], mirrorCircles: Bool = true,
        warn: (String) -> Void = { _ in }
    ) throws -> [CorpusItem] {
        var items: [CorpusItem] = []
        for path in paths {
            var isDir = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
                throw DollarXML.ParseError(description: "\(path): no such file or directory")
            }
            let files: [String]
            if isDir {
                var found: [String] = []
                try filesUnder(path) { if isStroke($0) || isRecording($0) { found.append($0) } }
                files = found.sorted()
            } else {
                files = [path]
            }
            for f in files {
                if isStroke(f) {
                    let s = try DollarXML.load(path: f)
                    items.append(
                        CorpusItem(label: s.label, subject: s.subject, speed: s.speed, source: f, input: .stroke(s)))
                    if mirrorCircles && kind(ofClass: s.label) == .circle {
                        items.append(
                            CorpusItem(
                                label: s.label, subject: s.subject, speed: s.speed, source: f + " (mirrored)",
                                mirrored: true, input: .stroke(s.mirrored)))
                    }
                } else if let (label, speed) = recordingLabel(f) {
                    items.append(
                        CorpusItem(
                            label: label, subject: "recordings", speed: speed, source: f, input: .recording(path: f)))
                } else if isRecording(f) {
                    warn("warning: \(f): no label (no \(f).label and no class word in its name); skipped")
                }
            }
        }
        return items
    }

    /// The items with `perturbation` applied to their strokes (recordings stay as they are).
    public static func perturbed(_ items: [CorpusItem], _ perturbation: Perturbation, pxPerMM: Double) -> [CorpusItem] {
        guard !perturbation.isNone else { return items }
        return items.enumerated().map { i, item in
            guard case .stroke(let s) = item.input else { return item }
            var out = item
            out.input = .stroke(perturbation.apply(to: s, index: i, pxPerMM: pxPerMM))
            return out
        }
    }

    static func isStroke(_ f: String) -> Bool { f.hasSuffix(".xml") }
    static func isRecording(_ f: String) -> Bool { f.hasSuffix(".events") || f.hasSuffix(".event") }

    /// The label and speed of a recording, from a sidecar or its name.
    public static func recordingLabel(_ path: String) -> (label: String, speed: String)? {
        guard isRecording(path) else { return nil }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let stem = name.split(separator: ".").first.map(String.init) ?? name
        let words = stem.split(separator: "-").map { $0.lowercased() }
        let speed = words.last { ["fast", "medium", "slow"].contains($0) } ?? "-"
        if let data = FileManager.default.contents(atPath: path + ".label") {
            let text = String(decoding: data, as: UTF8.self)
            let line = text.split(separator: "\n").map { $0.trimmingSpaces() }
                .first { !$0.isEmpty && !$0.hasPrefix("#") }
            if let word = line?.split(separator: " ").first { return (String(word), speed) }
        }
        guard let label = words.first(where: { knownClasses.contains($0) }) else { return nil }
        return (label == "checkmark" ? "check" : label, speed)
    }
}

extension StringProtocol {
    /// Without the spaces and tabs at either end.
    public func trimmingSpaces() -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}

/// Calls `visit` with the path of every file under the directory `path`, in
/// its subdirectories too (not through symbolic links to directories). A
/// directory that cannot be read is an error naming it.
func filesUnder(_ path: String, _ visit: (String) -> Void) throws(DollarXML.ParseError) {
    guard let dir = opendir(path) else {
        throw DollarXML.ParseError(description: "\(path): cannot list the directory: \(Errno.current)")
    }
    var subdirectories: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name == "." || name == ".." { continue }
        let full = path + "/" + name
        var st = stat()
        guard lstat(full, &st) == 0 else {
            let e = Errno.current
            closedir(dir)
            throw DollarXML.ParseError(description: "\(full): cannot read: \(e)")
        }
        switch st.st_mode & S_IFMT {
        case S_IFDIR: subdirectories.append(full)
        case S_IFREG, S_IFLNK: visit(full)
        default:
            // A FIFO in a corpus would wait for a writer, a device never end.
            closedir(dir)
            throw DollarXML.ParseError(description: "\(full): not a regular file; a corpus holds files")
        }
    }
    closedir(dir)
    for d in subdirectories { try filesUnder(d, visit) }
}
