import Foundation
import GestureClient
import GestureConfig
import GestureCore
import GestureTools
import LinuxSystem
import Testing

/// `gesturectl shape record --from …` as a person runs it: what it prints on
/// stdout and stderr, its exit status, and what the table it prints teaches.
@Suite("gesturectl shape record")
struct ShapeRecordCommandTests {
    struct Run {
        var status: Int32
        var out: String
        var err: String
    }

    /// Runs the built gesturectl with `args`, stdout and stderr into files.
    static func gesturectl(_ args: [String]) throws -> Run {
        let exe = try #require(try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        let bin = URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("gesturectl").path
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "shape-record-test-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let outURL = dir.appendingPathComponent("out")
        let errURL = dir.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: bin)
        p.arguments = args
        p.environment = ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent"]
        p.standardOutput = try FileHandle(forWritingTo: outURL)
        p.standardError = try FileHandle(forWritingTo: errURL)
        try p.run()
        p.waitUntilExit()
        return Run(
            status: p.terminationStatus, out: try String(contentsOf: outURL, encoding: .utf8),
            err: try String(contentsOf: errURL, encoding: .utf8))
    }

    static let shipped = repoRoot + "/config/gestured.toml"
    static func dollar(_ name: String) -> String { fixturesDir + "/dollar1/s01/medium/" + name + ".xml" }

    /// Without --into, the table is printed for the config read: it names the
    /// config's recognizers, and loads after the config as gestured would load it.
    @Test func withoutIntoTheTableIsPrintedForTheConfig() throws {
        let r = try Self.gesturectl(
            ["shape", "record", "zed", "--config", Self.shipped, "--from"] + ["v02", "v03", "v04"].map(Self.dollar))
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasPrefix("# Taught by") && r.out.contains("[recognizer.zed]"))
        #expect(r.out.contains("requires_failure_of = [\"circle\", \"checkmark\", \"tickle\"]"))
        #expect(!r.err.contains("would not load"))
        #expect(r.err.contains("append it to \(Self.shipped)"))
        #expect(r.err.contains("--into"))
        let shipped = try String(contentsOfFile: Self.shipped, encoding: .utf8)
        let config = try ConfigLoader.load(text: shipped + "\n" + r.out, file: "gestured.toml")
        #expect(config.recognizers.contains { $0.name == "zed" })
    }

    /// The taught recognizer's bound, from the table `out` loaded after the shipped config.
    static func loadedBound(_ out: String, name: String = "zed") throws -> Double {
        let shipped = try String(contentsOfFile: shipped, encoding: .utf8)
        let config = try ConfigLoader.load(text: shipped + "\n" + out, file: "gestured.toml")
        let r = try #require(config.recognizers.first { $0.name == name })
        guard case .shape(let p) = r.parameters else { throw CancellationError() }
        return ShapeMatcher(examples: p.examples, options: p.matcherOptions).bound(maxDistance: p.maxDistance)
    }

    /// "taken within X of one": the bound the tool announces.
    static func announcedBound(_ err: String) -> Double? {
        guard let r = err.range(of: "a stroke is taken within ") else { return nil }
        return Double(err[r.upperBound...].prefix { $0 != " " })
    }

    /// The bound the tool announces is the one the recognizer loaded from its
    /// table uses: both of the examples as written, to 0.1 mm.
    @Test func theAnnouncedBoundIsTheLoadedRecognizers() throws {
        for (shape, numbers) in [
            ("v", ["02", "03", "04"]), ("triangle", ["02", "03", "04"]), ("star", ["01", "05", "09"]),
            ("pigtail", ["03", "06", "07"]), ("question_mark", ["02", "04", "08"]),
        ] {
            let r = try Self.gesturectl(
                ["shape", "record", "zed", "--config", Self.shipped, "--from"]
                    + numbers.map { Self.dollar(shape + $0) })
            #expect(r.status == 0, "\(shape): \(r.err)")
            guard r.status == 0 else { continue }
            let announced = try #require(Self.announcedBound(r.err), "\(r.err)")
            #expect(
                ShapeTeaching.hundredth(try Self.loadedBound(r.out)) == ShapeTeaching.hundredth(announced), "\(shape)")
        }
    }

    /// Three different swipes are not one shape: refused unless --force, and
    /// with --force their bound is kept to the cap.
    @Test func inconsistentExamplesAreRefusedUnlessForced() throws {
        let swipes = fixturesDir + "/phone/strokes.events"
        let refused = try Self.gesturectl(["shape", "record", "zed", "--config", Self.shipped, "--from", swipes])
        #expect(refused.status == 1)
        #expect(refused.out.isEmpty)
        #expect(refused.err.contains("not consistent"))
        #expect(refused.err.contains("--force"))
        let forced = try Self.gesturectl(
            ["shape", "record", "zed", "--force", "--config", Self.shipped, "--from", swipes])
        #expect(forced.status == 0, "\(forced.err)")
        let announced = try #require(Self.announcedBound(forced.err), "\(forced.err)")
        #expect(announced <= ShapeTeaching.boundCap)
        #expect(try Self.loadedBound(forced.out) <= ShapeTeaching.boundCap)
    }

    /// The texts say what the tool does: the rotation the table allows, no
    /// unit the distance does not have, a recording's problem with its path once
    /// and no option shape record lacks.
    @Test func theTextsSayWhatTheToolDoes() throws {
        let help = try Self.gesturectl(["shape", "record", "--help"])
        #expect(help.out.contains("15°") && !help.out.contains("30°"), "\(help.out)")
        let r = try Self.gesturectl(
            ["shape", "record", "zed", "--config", Self.shipped, "--from"] + ["v02", "v03", "v04"].map(Self.dollar))
        #expect(r.err.contains("consistency: largest distance "))
        #expect(!r.err.contains(" rad"))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("shape-record-text-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let notes = dir.appendingPathComponent("notes.txt").path
        try "E: 0.000001 0003 0039 1\n".write(toFile: notes, atomically: true, encoding: .utf8)
        let bad = try Self.gesturectl(["shape", "record", "zed", "--config", Self.shipped, "--from", notes])
        #expect(bad.status == 1)
        #expect(bad.err.components(separatedBy: notes).count == 2, "the path once: \(bad.err)")
        #expect(!bad.err.contains("--desc"))
        #expect(bad.err.contains("no device description"))
    }

    /// Circles taught as a shape beside the config's circle recognizer: the
    /// shape waits for it, so it would never fire, and the tool says so,
    /// naming the recognizers it waits for as the config names them.
    @Test func aShapeThatWouldNeverFireIsWarnedOf() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("shape-record-never-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("gestured.toml").path
        try "[recognizer.ring]\nkind = \"circle\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let r = try Self.gesturectl(
            ["shape", "record", "round", "--config", config, "--from"]
                + ["circle02", "circle03", "circle04"].map(Self.dollar))
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("example 0 is also taken by: ring"))
        #expect(r.err.contains("warning: every example is taken by ring, which 'round' waits for to fail"))
        #expect(r.err.contains("would never fire"))
        #expect(!r.err.contains("checkmark") && !r.err.contains("tickle"))
        #expect(r.out.contains("requires_failure_of = [\"ring\"]"))
    }

    /// --into a symbolic link adds the table to the file the link names and
    /// keeps the link; the file keeps its mode (and, run as root, its owner
    /// and group). A read-only file is refused and left as it was.
    @Test func intoWritesThroughALinkAndKeepsTheFilesModeAndOwner() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("shape-record-into-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let real = dir.appendingPathComponent("real.toml").path
        let link = dir.appendingPathComponent("link.toml").path
        try "[recognizer.ring]\nkind = \"circle\"\n".write(toFile: real, atomically: true, encoding: .utf8)
        #expect(chmod(real, 0o640) == 0)
        let owner: (uid: uid_t, gid: gid_t) = getuid() == 0 ? (65534, 65534) : (getuid(), getgid())
        #expect(chown(real, owner.uid, owner.gid) == 0)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.toml")
        let examples = ["v02", "v03", "v04"].map(Self.dollar)
        let r = try Self.gesturectl(["shape", "record", "zed", "--into", link, "--from"] + examples)
        #expect(r.status == 0, "\(r.err)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real.toml")
        let text = try String(contentsOfFile: real, encoding: .utf8)
        #expect(text.hasPrefix("[recognizer.ring]") && text.contains("[recognizer.zed]"))
        var st = stat()
        #expect(stat(real, &st) == 0)
        #expect(st.st_mode & 0o7777 == 0o640)
        #expect(st.st_uid == owner.uid && st.st_gid == owner.gid)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["link.toml", "real.toml"])

        let readOnly = dir.appendingPathComponent("read-only.toml").path
        try "[recognizer.ring]\nkind = \"circle\"\n".write(toFile: readOnly, atomically: true, encoding: .utf8)
        #expect(chmod(readOnly, 0o444) == 0)
        let refused = try Self.gesturectl(["shape", "record", "zed", "--into", readOnly, "--from"] + examples)
        #expect(refused.status == 1)
        #expect(refused.err.contains("read-only") && refused.err.contains("nothing written"), "\(refused.err)")
        #expect(!refused.err.contains("example 0"), "refused before any stroke is read: \(refused.err)")
        #expect(try String(contentsOfFile: readOnly, encoding: .utf8) == "[recognizer.ring]\nkind = \"circle\"\n")
    }

    /// --into holds the file it read, by its directory, until it writes: a file
    /// put in its place meanwhile (a link to another file, say) is left alone,
    /// and nothing is written. The recording comes through a FIFO, so that the
    /// swap happens while gesturectl is reading it.
    @Test func intoAFileReplacedWhileTaughtIsLeftAlone() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("shape-record-swap-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let real = dir.appendingPathComponent("gestured.toml").path
        let elsewhere = dir.appendingPathComponent("elsewhere").path
        let fifo = dir.appendingPathComponent("stroke.events").path
        try "[recognizer.ring]\nkind = \"circle\"\n".write(toFile: real, atomically: true, encoding: .utf8)
        try "# another file, not to be written\n".write(toFile: elsewhere, atomically: true, encoding: .utf8)
        try #require(mkfifo(fifo, 0o600) == 0)
        let exe = try #require(try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("gesturectl")
        p.arguments = ["shape", "record", "zed", "--count", "1", "--into", real, "--from", fifo]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        // It opens the FIFO once it has read --into: wait for that (a writer's
        // open fails with ENXIO until a reader is there).
        var writer: Int32 = -1
        let deadline = Date().addingTimeInterval(60)
        while writer < 0 && Date() < deadline && p.isRunning {
            writer = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            if writer < 0 { usleep(10_000) }
        }
        try #require(writer >= 0, "gesturectl never opened the recording")
        // Meanwhile someone puts a link to another file in its place.
        try #require(unlink(real) == 0 && symlink(elsewhere, real) == 0)
        let recording = try Data(
            contentsOf: URL(
                fileURLWithPath: fixturesDir + "/recordings/Atmel-maXTouch-Touchscreen.1-finger-drag-up-down.events"))
        _ = fcntl(writer, F_SETFL, 0)
        _ = recording.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
        close(writer)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 1)
        #expect(
            message.contains("was replaced while the shape was taught") && message.contains("is unchanged"),
            "\(message)")
        #expect(try String(contentsOfFile: elsewhere, encoding: .utf8) == "# another file, not to be written\n")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == [
                "elsewhere", "gestured.toml", "stroke.events",
            ])
    }

    /// --into a file in a directory that others may write to, or that belongs
    /// to another user, is refused before anything is read: they could swap
    /// the file while it is rewritten.
    @Test func intoADirectoryOthersControlIsRefused() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("shape-record-open-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("gestured.toml").path
        let text = "[recognizer.ring]\nkind = \"circle\"\n"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let examples = ["v02", "v03", "v04"].map(Self.dollar)
        try #require(chmod(dir.path, 0o777) == 0)
        let open = try Self.gesturectl(["shape", "record", "zed", "--into", file, "--from"] + examples)
        #expect(open.status == 1)
        #expect(open.err.contains("the directory \(dir.path) can be written by others (mode 777"), "\(open.err)")
        #expect(open.err.contains("nothing written"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == text)
        // Writable by its group, when that is the user's private group (umask
        // 002 on Debian): the user's own.
        var st = stat()
        try #require(chmod(dir.path, 0o775) == 0 && stat(dir.path, &st) == 0)
        if FileTrust().groupIsTheUserAlone(st.st_gid) {
            let mine = try Self.gesturectl(["shape", "record", "zed", "--into", file, "--from"] + examples)
            #expect(mine.status == 0, "\(mine.err)")
            try text.write(toFile: file, atomically: true, encoding: .utf8)
        }
        if getuid() == 0 {
            try #require(chmod(dir.path, 0o755) == 0 && chown(dir.path, 65534, 65534) == 0)
            let theirs = try Self.gesturectl(["shape", "record", "zed", "--into", file, "--from"] + examples)
            #expect(theirs.status == 1)
            #expect(theirs.err.contains("the directory \(dir.path) belongs to"), "\(theirs.err)")
            #expect(try String(contentsOfFile: file, encoding: .utf8) == text)
        }
    }

    /// A link in another user's directory is theirs to point anywhere: --into
    /// it is refused, though the file it names is in a directory of ours. And
    /// what is not a regular file is refused before it is opened.
    @Test(.enabled(if: getuid() == 0, "giving a directory away needs root"))
    func intoALinkInAnotherUsersDirectoryIsRefused() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("shape-record-link-\(getpid())")
        let theirs = dir.appendingPathComponent("theirs").path
        try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let ours = dir.appendingPathComponent("gestured.toml").path
        let text = "[recognizer.ring]\nkind = \"circle\"\n"
        try text.write(toFile: ours, atomically: true, encoding: .utf8)
        try #require(symlink(ours, theirs + "/link.toml") == 0 && chown(theirs, 65534, 65534) == 0)
        let examples = ["v02", "v03", "v04"].map(Self.dollar)
        let r = try Self.gesturectl(["shape", "record", "zed", "--into", theirs + "/link.toml", "--from"] + examples)
        #expect(r.status == 1)
        #expect(r.err.contains("the directory \(theirs) belongs to"), "\(r.err)")
        #expect(try String(contentsOfFile: ours, encoding: .utf8) == text)
        let device = try Self.gesturectl(["shape", "record", "zed", "--into", "/dev/null", "--from"] + examples)
        #expect(device.status == 1)
        #expect(device.err.contains("/dev/null is not a regular file"), "\(device.err)")
    }

    /// What the person asked for is what is taught, or nothing: fewer strokes
    /// than --count, or --device beside --from, is an error, not a warning.
    @Test func askedForMoreStrokesThanTheRecordingsHoldIsAnError() throws {
        let two = try Self.gesturectl(
            ["shape", "record", "zed", "--config", Self.shipped, "--from"] + ["v02", "v03"].map(Self.dollar))
        #expect(two.status == 1)
        #expect(two.out.isEmpty)
        #expect(two.err.contains("2 one-finger stroke(s), fewer than --count 3") && two.err.contains("--count 2"))
        let asked = try Self.gesturectl(
            ["shape", "record", "zed", "--count", "2", "--config", Self.shipped, "--from"]
                + ["v02", "v03"].map(Self.dollar))
        #expect(asked.status == 0, "\(asked.err)")
        #expect(asked.out.contains("[recognizer.zed]"))
        let both = try Self.gesturectl(
            ["shape", "record", "zed", "--device", "/dev/input/event0", "--from", Self.dollar("v02")])
        #expect(both.status != 0)
        #expect(both.err.contains("--device reads the touchscreen and --from reads recordings"))
    }

    /// evaluate --templates on strokes it cannot use says so, and fails.
    @Test func theTemplateProtocolOnStrokesItCannotUseIsAnError() throws {
        let r = try Self.gesturectl(["evaluate", "--templates", fixturesDir + "/strokes"])
        #expect(r.status == 1)
        #expect(r.out.isEmpty)
        #expect(r.err.contains("has no subject with more than 1 stroke(s) of one class"), "\(r.err)")
        let details = try Self.gesturectl(["evaluate", "--templates", "--details", fixturesDir + "/dollar1/s01"])
        #expect(details.status != 0)
        #expect(details.err.contains("--details goes without --templates"))
    }

    /// --into a file that is not there is an error that says what to do; the
    /// file is not made (it would hold the shape and no other recognizer).
    @Test func intoAFileThatIsNotThereIsAnError() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(getpid()).toml").path
        let r = try Self.gesturectl(
            ["shape", "record", "zed", "--into", missing, "--from"] + ["v02", "v03", "v04"].map(Self.dollar))
        #expect(r.status == 1)
        #expect(r.err.contains("no such file") && r.err.contains("copy the shipped gestured.toml"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: missing))
    }
}
