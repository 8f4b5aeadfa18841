/// What a recognizer may be called. A name is what events carry, what scripts
/// filter on and what a subscriber sends back in its filter, so one rule serves
/// the config and the socket: visible, one line, no surrounding spaces, and no
/// format character (a U+200B that cannot be seen, a U+202E that turns what
/// follows around), so that two names that look the same are the same.
public enum RecognizerNames {
    public static func problem(_ name: String) -> String? {
        let scalars = name.unicodeScalars
        if name.isEmpty { return "a recognizer needs a name: [recognizer.NAME] with NAME not empty" }
        if scalars.allSatisfy(\.properties.isWhitespace) { return "a recognizer name must not be blank" }
        if scalars.contains(where: { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" }
        ) {
            return "a recognizer name must not contain control characters or line breaks"
        }
        if let f = scalars.first(where: { $0.properties.generalCategory == .format }) {
            return
                "a recognizer name must not contain invisible or reordering characters such as U+\(Profiles.hex4(f.value))"
        }
        if scalars.first!.properties.isWhitespace || scalars.last!.properties.isWhitespace {
            return "a recognizer name must not begin or end with a space"
        }
        if name == "all" { return "'all' is not a recognizer's name: `--trace all` means every recognizer" }
        return nil
    }
}
