import GestureConfig
import GestureCore
import Testing

/// `profiles = [...]` in a recognizer table: which runtime profiles it takes part in.
@Suite("config: profiles")
struct ProfileConfigTests {
    func load(_ text: String) throws(ConfigErrors) -> Configuration {
        try ConfigLoader.load(text: text, file: "phone.toml")
    }
    func errors(_ text: String) -> [String] { configMessages(text, file: "phone.toml") }

    @Test func withoutTheKeyARecognizerIsInTheDefaultProfile() throws {
        let c = try load(
            """
            [recognizer.t]
            kind = "tap"
            """)
        #expect(c.recognizers[0].filter.profiles == ["default"])
        #expect(ConfigLoader.builtIn().recognizers.allSatisfy { $0.filter.profiles == ["default"] })
    }

    @Test func listedProfilesAreRead() throws {
        let c = try load(
            """
            [recognizer.unlock]
            kind = "swipe"
            profiles = ["locked", "default", "locked"]

            [recognizer.only_locked]
            kind = "tap"
            profiles = "locked"
            """)
        #expect(c.recognizers[0].filter.profiles == ["locked", "default"], "a repeated name counts once")
        #expect(c.recognizers[1].filter.profiles == ["locked"], "one name may stand alone")
    }

    @Test func badProfilesNameFileLineAndKey() {
        #expect(
            errors(
                """
                [recognizer.t]
                kind = "tap"
                profiles = []
                """) == [
                    "phone.toml:3: recognizer.t.profiles: an empty list puts the recognizer in no profile, so it would never take part; list its profiles, or leave the key out for [\"default\"]"
                ])
        #expect(
            errors(
                """
                [recognizer.t]
                kind = "tap"
                profiles = [
                    "default",
                    "",
                ]
                """) == ["phone.toml:5: recognizer.t.profiles: a profile name must not be empty"])
        #expect(
            errors(
                """
                [recognizer.t]
                kind = "tap"
                profiles = ["default", 3]
                """) == ["phone.toml:3: recognizer.t.profiles: expected a list of names, found integer 3"])
        #expect(
            errors(
                """
                [recognizer.t]
                kind = "tap"
                profiles = true
                """) == ["phone.toml:3: recognizer.t.profiles: expected a list of names, got boolean true"])
        #expect(
            errors(
                """
                [recognizer.t]
                kind = "tap"
                profiles = [" locked", "a\\tb", "d\\u0435fault", "default\\u200b", "\\u202elocked"]
                """) == [
                    "phone.toml:3: recognizer.t.profiles: a profile name is made of ASCII letters, digits, '_', '-' and '.', and begins with a letter or a digit; found U+0020 at character 1",
                    "phone.toml:3: recognizer.t.profiles: a profile name is made of ASCII letters, digits, '_', '-' and '.', and begins with a letter or a digit; found U+0009 at character 2",
                    "phone.toml:3: recognizer.t.profiles: a profile name is made of ASCII letters, digits, '_', '-' and '.', and begins with a letter or a digit; found U+0435 at character 2",
                    "phone.toml:3: recognizer.t.profiles: a profile name is made of ASCII letters, digits, '_', '-' and '.', and begins with a letter or a digit; found U+200B at character 8",
                    "phone.toml:3: recognizer.t.profiles: a profile name is made of ASCII letters, digits, '_', '-' and '.', and begins with a letter or a digit; found U+202E at character 1",
                ], "what the socket refuses, a config cannot define")
        let long = String(repeating: "x", count: 65)
        #expect(
            errors(
                """
                [recognizer.t]
                kind = "tap"
                profiles = ["\(long)"]
                """) == ["phone.toml:3: recognizer.t.profiles: a profile name is at most 64 bytes, this one is 65"])
    }
}
