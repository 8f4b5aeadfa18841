/// Runtime profiles: each recognizer belongs to the profiles its config lists
/// (`profiles = ["default", "locked"]`); the daemon has one active profile,
/// switched at runtime (`gesturectl profile NAME`), or is paused, and only the
/// recognizers of the active profile take part in a touch sequence.
public enum Profiles {
    /// The profile the daemon starts with, and the one a recognizer belongs to
    /// unless its config says otherwise.
    public static let defaultName = "default"
    /// Names are short: `status` and `hello` carry them.
    public static let maxNameBytes = 64

    /// Why `name` cannot name a profile, or nil. A name is what `gesturectl
    /// profile` takes and `status` shows: visible, one line, no surrounding spaces.
    public static func nameProblem(_ name: String) -> String? {
        let scalars = name.unicodeScalars
        if name.isEmpty { return "a profile name must not be empty" }
        if name.utf8.count > maxNameBytes { return "a profile name is at most \(maxNameBytes) bytes, this one is \(name.utf8.count)" }
        if scalars.allSatisfy(\.properties.isWhitespace) { return "a profile name must not be blank" }
        if scalars.contains(where: { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" }) {
            return "a profile name must not contain control characters or line breaks"
        }
        if scalars.first!.properties.isWhitespace || scalars.last!.properties.isWhitespace {
            return "a profile name must not begin or end with a space"
        }
        return nil
    }
}
