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
    /// profile` takes, `status` shows and a config's `profiles` lists: ASCII
    /// letters, digits, `_`, `-` and `.`, beginning with a letter or a digit.
    /// Nothing else, so that no two names that differ look alike (a Cyrillic
    /// `е` in `dеfault`, an invisible U+200B, a U+202E that turns the rest
    /// around) and every name can be read and typed as it is.
    public static func nameProblem(_ name: String) -> String? {
        if name.isEmpty { return "a profile name must not be empty" }
        if name.utf8.count > maxNameBytes {
            return "a profile name is at most \(maxNameBytes) bytes, this one is \(name.utf8.count)"
        }
        for (i, scalar) in name.unicodeScalars.enumerated() {
            let letterOrDigit = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
            if letterOrDigit || (i > 0 && (scalar == "_" || scalar == "-" || scalar == ".")) { continue }
            let found =
                scalar.isASCII && scalar.value > 0x20 && scalar.value < 0x7F
                ? "'\(scalar)'" : "U+\(hex4(scalar.value))"
            return
                "a profile name is made of ASCII letters, digits, '_', '-' and '.', and begins with a letter or a digit; found \(found) at character \(i + 1)"
        }
        return nil
    }

    static func hex4(_ v: UInt32) -> String {
        let digits = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
