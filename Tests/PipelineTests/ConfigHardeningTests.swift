import Foundation
import GestureConfig
import GestureCore
import GestureDaemon
import LinuxSystem
import Testing

/// Files that must be refused (or warned about) rather than half-read or
/// silently given a meaning the user did not write.
@Suite("config: what must not be accepted")
struct ConfigHardeningTests {
    func errors(_ text: String) -> [ConfigError] { configErrors(text, file: "test.toml") }
    func errors(bytes: [UInt8]) -> [ConfigError] { configErrors(bytes: bytes, file: "test.toml") }

    @Test func textAfterANulByteIsNotIgnored() {
        let e = errors("[recognizer.t]\nkind = \"tap\"\n\0\n[recognizer.u]\nkind = \"lasso\"\n")
        #expect(e.map(\.line) == [3])
        #expect(e.first?.message.hasPrefix("NUL byte") == true)
        // A NUL inside a string is refused as well: names travel to logs and sockets.
        #expect(errors("[recognizer.t]\nkind = \"tap\"\ndevices = [\"a\0b\"]\n").map(\.line) == [3])
    }

    @Test func invalidUTF8IsAnErrorNamingItsLine() {
        var bytes = Array("[recognizer.t]\nkind = \"tap\"\n# caf".utf8)
        bytes += [0xe9, 0x0a]  // Latin-1 é
        bytes += Array("taps = 2\n".utf8)
        let e = errors(bytes: bytes)
        #expect(e.map(\.description) == ["test.toml:3: invalid UTF-8 (byte 0xE9 at column 6); save the file as UTF-8"])
        // Overlong encodings and surrogates are not UTF-8 either.
        #expect(errors(bytes: Array("a = \"".utf8) + [0xc0, 0xaf, 0x22]).map(\.line) == [1])
        #expect(errors(bytes: Array("\n\na = \"".utf8) + [0xed, 0xa0, 0x80, 0x22]).map(\.line) == [3])
        // Valid multi-byte text is fine.
        #expect(errors(bytes: Array("[recognizer.t] # café ✓ 👍\nkind = \"tap\"\n".utf8)).isEmpty)
    }

    @Test func aFileWithInvalidUTF8IsRefusedByTheDaemonsLoader() throws {
        let path = try temporaryFile(Array("[recognizer.t]\nkind = \"tap\"\n".utf8) + [0xff] + Array("\n".utf8))
        defer { unlink(path) }
        guard case .failure(let f) = ConfigFile.load(path: path) else {
            Issue.record("loaded")
            return
        }
        #expect(f.description == "\(path):3: invalid UTF-8 (byte 0xFF at column 1); save the file as UTF-8")
    }

    /// Every pair of parameters bounding one quantity, written crossed (each one
    /// within its own range), is an error naming the key.
    @Test(arguments: GestureKind.allCases)
    func crossedMinimumAndMaximumAreErrors(kind: GestureKind) {
        for b in RecognizerParameters.defaults(for: kind).bounds {
            let text = """
                [recognizer.r]
                kind = "\(kind.rawValue)"
                \(b.lowerKey) = \(toml(b.upper))
                \(b.upperKey) = \(toml(b.lower))
                """
            let e = errors(text)
            #expect(e.count == 1, "\(kind) \(b.lowerKey)")
            #expect(e.first?.key == "recognizer.r.\(b.lowerKey)")
            #expect(e.first?.line == 3)
            #expect(e.first?.message.contains("is above \(b.upperKey)") == true)
        }
    }

    @Test func theBoundedPairsAreTheOnesTheRecognizersHave() {
        let pairs = GestureKind.allCases.flatMap { kind in
            RecognizerParameters.defaults(for: kind).bounds.map { "\(kind.rawValue): \($0.lowerKey) ≤ \($0.upperKey)" }
        }
        #expect(
            pairs == [
                "pan: min_fingers ≤ max_fingers",
                "circle: min_sweep_deg ≤ max_sweep_deg",
                "checkmark: min_arm_ratio ≤ max_arm_ratio",
                "checkmark: first_arm_min_deg ≤ first_arm_max_deg",
                "checkmark: second_arm_min_deg ≤ second_arm_max_deg",
            ])
        // The defaults themselves are consistent.
        #expect(GestureKind.allCases.allSatisfy { RecognizerParameters.defaults(for: $0).crossedBounds.isEmpty })
    }

    @Test func aMaximumBelowTheDefaultMinimumSaysSo() {
        let e = errors(
            """
            [recognizer.c]
            kind = "circle"
            max_sweep_deg = 200
            """)
        #expect(
            e.map(\.description) == [
                "test.toml:3: recognizer.c.max_sweep_deg: min_sweep_deg = 260 (the default) is above max_sweep_deg = 200; no circle could ever be recognized"
            ])
        // Equal bounds are a narrow range, not an error.
        #expect(errors("[recognizer.c]\nkind = \"circle\"\nmin_sweep_deg = 360\nmax_sweep_deg = 360\n").isEmpty)
    }

    @Test func anEmptyDirectionListIsAnError() {
        let e = errors(
            """
            [recognizer.s]
            kind = "swipe"
            directions = []
            """)
        #expect(e.map(\.line) == [3])
        #expect(e.first?.key == "recognizer.s.directions")
        #expect(e.first?.message.hasPrefix("an empty list would recognize no swipe") == true)
    }

    @Test func aBadDirectionInAListOverSeveralLinesNamesItsOwnLine() {
        let e = errors(
            """
            [recognizer.s]
            kind = "swipe"
            directions = [
              "left",
              "sideways",
            ]
            """)
        #expect(
            e.map(\.description) == [
                "test.toml:5: recognizer.s.directions: unknown direction 'sideways'; expected left, right, up, down, up_left, up_right, down_left, down_right"
            ])
    }

    @Test func emptyAndBlankNamesAreErrors() {
        let e = errors(
            """
            [recognizer.""]
            kind = "tap"

            [recognizer."   "]
            kind = "tap"

            [recognizer." tap"]
            kind = "tap"
            """)
        #expect(e.map(\.line) == [1, 4, 7])
        #expect(e.map(\.key) == [#"recognizer."""#, #"recognizer."   ""#, #"recognizer." tap""#])
        #expect(e[0].message.contains("not empty"))
        #expect(e[1].message.contains("blank"))
        #expect(e[2].message.contains("begin or end with a space"))
    }

    @Test func aQuotedNameWithADotGetsTheRightLine() throws {
        let e = errors(
            """
            [recognizer.a]
            kind = "tap"

            # a name with a dot is a name, not a path
            [recognizer."double.tap"]
            kind = "tap"
            taps = 0
            """)
        #expect(
            e.map(\.description) == [
                #"test.toml:7: recognizer."double.tap".taps: expected an integer from 1 to 10, got 0"#
            ])
        let c = try ConfigLoader.load(
            text: """
                [recognizer."double.tap"]
                kind = "tap"
                taps = 2

                [recognizer.tap]
                kind = "tap"
                requires_failure_of = ["double.tap"]
                """, file: "test.toml")
        #expect(c.recognizers.map(\.name) == ["double.tap", "tap"])
        #expect(c.recognizers[1].requiresFailureOf == ["double.tap"])
    }

    @Test func aNameWithANewlineIsRefusedOnItsOwnLine() {
        let e = errors(
            """
            [recognizer.a]
            kind = "tap"
            [recognizer."x\\ny"]
            kind = "tap"
            taps = 0
            """)
        #expect(e.map(\.line) == [3, 5])
        #expect(e[0].key == #"recognizer."x\ny""#)
        #expect(e[0].message.contains("line breaks"))
    }

    /// Names that cannot be told apart from another by eye are not names: the
    /// same rule refuses them in a subscriber's filter.
    @Test func aNameWithAnInvisibleOrReorderingCharacterIsRefused() {
        let e = errors(
            """
            [recognizer."t\\u200bap"]
            kind = "tap"

            [recognizer."\\u202epat"]
            kind = "tap"
            """)
        #expect(e.map(\.line) == [1, 4])
        #expect(
            e.map(\.message) == [
                "a recognizer name must not contain invisible or reordering characters such as U+200B",
                "a recognizer name must not contain invisible or reordering characters such as U+202E",
            ])
    }

    @Test func relationErrorsNameTheLineOfAQuotedName() {
        let e = errors(
            """
            [recognizer.a]
            kind = "tap"

            [recognizer."b.c"]
            kind = "tap"
            simultaneous_with = ["ghost"]
            """)
        #expect(e.map(\.line) == [6])
        #expect(e.first?.key == #"recognizer."b.c".simultaneous_with"#)
    }

    @Test func anEmptyFileLoadsWithAWarning() throws {
        let empty = try ConfigLoader.load(text: "", file: "test.toml")
        #expect(empty.recognizers.isEmpty)
        #expect(
            empty.warnings == [
                "test.toml:1: no [recognizer.NAME] tables: no gesture will be recognized (the built-in recognizers apply only when there is no config file)"
            ])
        let rulesOnly = try ConfigLoader.load(text: "[[device]]\nmatch = \"Atmel\"\nuse = false\n", file: "test.toml")
        #expect(rulesOnly.devices.count == 1)
        #expect(rulesOnly.warnings.count == 1)
        #expect(ConfigLoader.builtIn().warnings.isEmpty)
    }

    @Test func emptyMatchStringsAreErrors() {
        let e = errors(
            """
            [recognizer.t]
            kind = "tap"
            devices = ["ELAN", ""]

            [[device]]
            match = ""
            use = false
            """)
        #expect(e.map(\.key) == ["recognizer.t.devices", "device.0.match"])
        #expect(e.map(\.line) == [3, 6])
    }

    @Test func aHugeTextIsRefusedBeforeParsing() {
        let text =
            "[recognizer.t]\nkind = \"tap\"\n" + String(repeating: "# padding\n", count: ConfigLoader.maxFileBytes / 10)
        let e = errors(text)
        #expect(e.map(\.line) == [1])
        #expect(e.first?.message.contains("at most 1048576 bytes (1 MiB)") == true)
    }

    @Test func aHugeFileIsRefusedByItsSize() throws {
        let path = try temporaryFile(Array(String(repeating: "# padding\n", count: 200_000).utf8))
        defer { unlink(path) }
        guard case .failure(let f) = ConfigFile.load(path: path) else {
            Issue.record("loaded")
            return
        }
        #expect(f.description == "\(path):1: the file is 2000000 bytes; a config may be at most 1048576 bytes (1 MiB)")
        // A device, which has no size, is not read at all.
        guard case .failure(let z) = ConfigFile.load(path: "/dev/zero") else {
            Issue.record("loaded")
            return
        }
        #expect(z.description == "/dev/zero: is a character device, not a regular file; only a regular file is read")
    }

    /// A FIFO put where the config was read as an empty file (opened
    /// non-blocking, no writer): 0 recognizers. Anything but a regular file is
    /// refused, saying what it is; a symbolic link to a regular file is fine.
    @Test func onlyARegularFileIsRead() throws {
        let path = try temporaryFile(Array("[recognizer.t]\nkind = \"tap\"\n".utf8))
        defer { unlink(path) }
        let fifo = path + ".fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        guard case .failure(let f) = ConfigFile.load(path: fifo) else {
            Issue.record("a FIFO was loaded")
            return
        }
        #expect(f.description == "\(fifo): is a FIFO (named pipe), not a regular file; only a regular file is read")
        guard case .failure(let d) = ConfigFile.load(path: "/tmp") else {
            Issue.record("a directory was loaded")
            return
        }
        #expect(d.description == "/tmp: is a directory, not a regular file; only a regular file is read")
        guard case .failure(let n) = ConfigFile.load(path: "/dev/null") else {
            Issue.record("/dev/null was loaded")
            return
        }
        #expect(n.description.contains("is a character device"))
        let link = path + ".link"
        try #require(symlink(path, link) == 0)
        defer { unlink(link) }
        guard case .success(let c) = ConfigFile.load(path: link) else {
            Issue.record("a link to a file was refused")
            return
        }
        #expect(c.recognizers.map(\.name) == ["t"])
    }

    @Test func thousandsOfProblemsAreSummarised() {
        let text = (0..<1000).map { "[recognizer.r\($0)]\nkind = \"tap\"\ntaps = 0\n" }.joined()
        do {
            _ = try ConfigLoader.load(text: text, file: "test.toml")
            Issue.record("loaded")
        } catch {
            #expect(error.errors.count == 1000)
            let lines = error.description.split(separator: "\n")
            #expect(lines.count == 51)
            #expect(lines.last == "test.toml: … and 950 more problems")
        }
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let deepKey = "[" + Array(repeating: "a", count: 50_000).joined(separator: ".") + "]\n"
        #expect(errors(deepKey).first?.message.contains("nested too deep") == true)
        let deepList = "x = " + String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(errors(deepList).first?.message.contains("nested more than") == true)
        // Dots in numbers, strings and comments are not key parts.
        let floats =
            "[recognizer.t]\nkind = \"tap\"\ndevices = [\"" + String(repeating: ".", count: 100) + "\"] # "
            + String(repeating: "...", count: 40) + "\n[[device]]\nmatch = \"x\"\nsize_mm = [1.5, 2.5]\n"
        #expect(errors(floats).isEmpty)
    }

    /// toml++ asserts that a table header starts with a key character; `[é]`
    /// broke that and aborted the process.
    @Test func aHeaderStartingWithANonASCIILetterIsAnErrorNotAnAbort() {
        for text in ["[é]\n", "[[\u{FFFD}devices]]\nmatch = \"x\"\n", "[recognizer.t]\nkind = \"tap\"\n[ ü.x]\n"] {
            let e = errors(text)
            #expect(e.count == 1, "\(text)")
            #expect(e.first?.message.hasPrefix("TOML syntax") == true)
        }
        #expect(errors("[recognizer.t]\nkind = \"tap\"\n[ ü.x]\n").first?.line == 3)
    }

    @Test func syntaxErrorsGiveLineAndColumn() {
        let e = errors(
            """
            [recognizer.a]
            kind = "tap"
            taps = = 2
            """)
        #expect(
            e.map(\.description) == [
                "test.toml:3: TOML syntax at column 8: Error while parsing value: could not determine value type"
            ])
    }

    @Test func aMissingFileSaysWhy() {
        guard case .failure(let f) = ConfigFile.load(path: "/nonexistent/gestured.toml") else {
            Issue.record("loaded")
            return
        }
        #expect(f.description == "/nonexistent/gestured.toml: cannot open: No such file or directory")
    }

    /// Integers as integers (a finger count must not be written 2.0).
    func toml(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }

    func temporaryFile(_ bytes: [UInt8]) throws -> String {
        var template = Array("/tmp/gestured-config-test-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        try #require(fd >= 0)
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        try #require(written == bytes.count)
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}

/// The daemon's config decides every user's gestures: a file, or a directory on
/// the way to it, that someone other than root or the daemon's user may change
/// is refused before it is read, saying what to fix.
@Suite("config: whom the daemon trusts")
struct ConfigTrustTests {
    let text = Array("[recognizer.t]\nkind = \"tap\"\n".utf8)

    /// A fresh directory of root's (mode 0755) under /tmp, holding gestured.toml.
    func place() throws -> (dir: String, file: String) {
        var template = Array("/tmp/config-trust-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        let dir = String(cString: try #require(made))
        chmod(dir, 0o755)
        let file = dir + "/gestured.toml"
        #expect(
            FileManager.default.createFile(atPath: file, contents: Data(text), attributes: [.posixPermissions: 0o644]))
        return (dir, file)
    }

    func refusal(_ path: String, user: uid_t = 0) -> String? {
        if case .failure(let f) = ConfigFile.load(path: path, trust: ConfigFile.daemonTrust(user: user)) {
            return f.description
        }
        return nil
    }

    @Test func aFileOfRootsIsLoaded() throws {
        try #require(geteuid() == 0, "needs root to give files away")
        let p = try place()
        defer { try? FileManager.default.removeItem(atPath: p.dir) }
        #expect(refusal(p.file) == nil)
        // As the daemon's own user (not root), its own file too.
        chown(p.file, 65534, 65534)
        chown(p.dir, 65534, 65534)
        #expect(refusal(p.file, user: 65534) == nil)
    }

    @Test func aFileOthersMayChangeIsRefused() throws {
        try #require(geteuid() == 0, "needs root to give files away")
        let p = try place()
        defer { try? FileManager.default.removeItem(atPath: p.dir) }
        chmod(p.file, 0o666)
        #expect(
            refusal(p.file)
                == "\(p.file) can be written by anyone (mode 0666, owner root): whoever may change it decides every user's gestures. Check what it holds, then fix it with: chmod go-w \(p.file)"
        )
        chmod(p.file, 0o644)
        chown(p.file, 65534, 65534)
        let nobody = FileTrust.userName(65534)
        #expect(
            refusal(p.file)
                == "\(p.file) belongs to \(nobody) (mode 0644), not to root: whoever may change it decides every user's gestures. Check what it holds, then fix it with: chown root \(p.file)"
        )
        // Nor may the daemon's user trust another user's file.
        #expect(refusal(p.file, user: 65533)?.contains("not to root or ") == true)
    }

    @Test func aDirectoryOthersMayChangeIsRefused() throws {
        try #require(geteuid() == 0, "needs root to give files away")
        let p = try place()
        defer { try? FileManager.default.removeItem(atPath: p.dir) }
        chmod(p.dir, 0o777)
        #expect(refusal(p.file)?.hasPrefix("the directory \(p.dir) of \(p.file) can be written by anyone") == true)
        chmod(p.dir, 0o755)
        chown(p.dir, 65534, 65534)
        #expect(refusal(p.file)?.hasPrefix("the directory \(p.dir) of \(p.file) belongs to ") == true)
        // Through a link, the directory of the file it leads to counts too.
        chown(p.dir, 0, 0)
        let other = try place()
        defer { try? FileManager.default.removeItem(atPath: other.dir) }
        chown(p.dir, 65534, 65534)
        let link = other.dir + "/link.toml"
        symlink(p.file, link)
        #expect(refusal(link)?.contains("the directory \(p.dir) of \(link)") == true)
    }
}
