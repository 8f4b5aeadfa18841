/// Makes text that came from outside (a client's process name, a device's
/// name) safe for one log line or one terminal line: control characters,
/// including newlines and the escape that starts terminal sequences, and
/// invisible format characters (bidi overrides, zero-width spaces) become
/// visible `\n`, `\t`, `\u{1b}`, `\u{202e}` escapes, and the result is cut at
/// `maxCharacters`. Bytes that were not UTF-8 were decoded as U+FFFD (�) and
/// stay so: visible, and no longer able to start a terminal sequence.
public func sanitizedForLog(_ text: some StringProtocol, maxCharacters: Int = 200) -> String {
    var out = ""
    var count = 0
    for scalar in text.unicodeScalars {
        if count >= maxCharacters {
            out += "…"
            break
        }
        switch scalar.value {
        case 0x0A: out += "\\n"
        case 0x0D: out += "\\r"
        case 0x09: out += "\\t"
        case 0x5C: out += "\\\\"
        case 0x00..<0x20, 0x7F..<0xA0, 0x2028, 0x2029:
            // C0/C1 controls and line separators.
            out += "\\u{\(String(scalar.value, radix: 16))}"
        default:
            // Format characters are invisible or reorder what follows: bidi
            // overrides (U+202E), zero-width spaces and joiners (U+200B), marks.
            if scalar.properties.generalCategory == .format {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        count += 1
    }
    return out
}
