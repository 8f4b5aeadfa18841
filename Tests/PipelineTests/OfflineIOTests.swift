import Foundation
import Testing

/// What gesturectl's offline commands do with files they cannot read and
/// output they cannot write: an error naming it and status 1, never a hang,
/// never success with the output lost.
@Suite("gesturectl: unreadable inputs, unwritable output")
struct OfflineIOTests {
    var bin: String {
        get throws {
            let exe = try #require(try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("gesturectl").path
        }
    }

    /// Runs gesturectl with stdout to `output` (or a temporary file), stderr to
    /// a temporary file; killed if it has not ended within a minute.
    func run(_ args: [String], output: String? = nil) throws -> (status: Int32, err: String, timedOut: Bool) {
        let dir = NSTemporaryDirectory() + "offline-io-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = output ?? dir + "/out", err = dir + "/err"
        if output == nil { _ = FileManager.default.createFile(atPath: out, contents: nil) }
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try bin)
        p.arguments = args
        p.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        p.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        let ended = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in ended.signal() }
        try p.run()
        let timedOut = ended.wait(timeout: .now() + 60) == .timedOut
        if timedOut {
            p.terminate()
            ended.wait()
        }
        return (p.terminationStatus, try String(contentsOfFile: err, encoding: .utf8), timedOut)
    }

    @Test func aFIFOOrADeviceAmongTheStrokesIsRefusedNotRead() throws {
        let dir = NSTemporaryDirectory() + "offline-io-in-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A FIFO with no writer: reading it would wait for ever.
        #expect(mkfifo(dir + "/star01.xml", 0o644) == 0)
        let fifo = try run(["evaluate", dir + "/star01.xml"])
        #expect(!fifo.timedOut)
        #expect(fifo.status == 1)
        #expect(fifo.err.contains("star01.xml: is a FIFO (named pipe), not a regular file"), "\(fifo.err)")
        // /dev/zero would never end.
        #expect(symlink("/dev/zero", dir + "/circle01.xml") == 0)
        let zero = try run(["evaluate", dir + "/circle01.xml"])
        #expect(!zero.timedOut)
        #expect(zero.status == 1)
        #expect(zero.err.contains("circle01.xml: is a character device, not a regular file"), "\(zero.err)")
        // FIFOs in a directory of strokes and recordings: the corpus holds files.
        #expect(mkfifo(dir + "/circle-1.events", 0o644) == 0)
        let corpus = try run(["evaluate", dir])
        #expect(!corpus.timedOut)
        #expect(corpus.status == 1)
        #expect(corpus.err.contains(": not a regular file; a corpus holds files"), "\(corpus.err)")
    }

    @Test func outputThatCannotBeWrittenIsAnError() throws {
        try #require(geteuid() == 0, "needs root to make a full device")
        let dir = NSTemporaryDirectory() + "offline-io-out-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // /dev/full (major 1, minor 7): every write fails with ENOSPC. Made
        // here when the system has none (a container).
        var st = stat()
        var full = "/dev/full"
        if stat(full, &st) != 0 || st.st_mode & S_IFMT != S_IFCHR {
            full = dir + "/full"
            try #require(mknod(full, S_IFCHR | 0o666, dev_t(1 << 8 | 7)) == 0, "mknod: \(errno)")
        }
        let r = try run(["evaluate", repoRoot + "/Tests/fixtures/dollar1/s01/fast"], output: full)
        #expect(!r.timedOut)
        #expect(r.status == 1)
        #expect(r.err.contains("gesturectl: cannot write to standard output: No space left on device"), "\(r.err)")
        // What print left in stdio's buffer, written at exit.
        let keys = try run(["check", "--keys"], output: full)
        #expect(keys.status == 1)
        #expect(keys.err.hasPrefix("gesturectl: cannot write to standard output:"), "\(keys.err)")
        // explain's picture, written in place (the device stays a device).
        let stroke = repoRoot + "/Tests/fixtures/dollar1/s01/fast/circle01.xml"
        let e = try run(["explain", "--svg", full, stroke])
        #expect(e.status == 1)
        #expect(e.err.contains("gesturectl explain: cannot write \(full): No space left on device"), "\(e.err)")
        #expect(stat(full, &st) == 0 && st.st_mode & S_IFMT == S_IFCHR)
    }

    /// A device description given where the recording goes, or a directory:
    /// an error naming the file, not silence and status 0.
    @Test func aDescriptionOrADirectoryIsNoRecording() throws {
        let desc = repoRoot + "/Tests/fixtures/recordings/Atmel-maXTouch-Touchscreen.desc"
        let svg = NSTemporaryDirectory() + "offline-io-\(getpid()).svg"
        defer { try? FileManager.default.removeItem(atPath: svg) }
        for args in [["replay", desc], ["explain", "--svg", svg, desc]] {
            let r = try run(args)
            #expect(r.status == 1)
            #expect(r.err.contains("\(desc): no events (E: lines), only a device description"), "\(r.err)")
            #expect(!r.err.contains("warning"), "\(r.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: svg))
        // The same description beside a recording is what it is for.
        let taps = repoRoot + "/Tests/fixtures/recordings/Atmel-maXTouch-Touchscreen.1-finger-fast-taps.events"
        #expect(try run(["replay", "--desc", desc, taps]).status == 0)
        let dir = repoRoot + "/Tests/fixtures/recordings"
        let d = try run(["replay", dir])
        #expect(d.status == 1)
        #expect(d.err.contains("\(dir): cannot read: Is a directory"), "\(d.err)")
    }

    /// A stroke file whose points are off any screen (infinite, NaN, 1e154
    /// pixels) or whose times are not times: an error naming the file and the
    /// point, not a picture that never ends. A stroke as wide as a screen can
    /// be is drawn, its grid coarser.
    @Test func aStrokeOffAnyScreenIsAnErrorAndAWideOneIsDrawn() throws {
        let dir = NSTemporaryDirectory() + "offline-io-far-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func stroke(_ points: [(String, String, String)]) -> String {
            "<Gesture Name=\"v\">\n"
                + points.map { "<Point X=\"\($0.0)\" Y=\"\($0.1)\" T=\"\($0.2)\"/>\n" }.joined() + "</Gesture>\n"
        }
        let bad: [(String, String)] = [
            ("inf", "off any screen"), ("nan", "off any screen"), ("-7.6e154", "off any screen"),
            ("100001", "off any screen"),
        ]
        for (i, (x, message)) in bad.enumerated() {
            let file = dir + "/v0\(i).xml"
            try stroke([("10", "10", "1000"), (x, "40", "1010"), ("40", "10", "1020")])
                .write(toFile: file, atomically: true, encoding: .utf8)
            for args in [["explain", "--svg", dir + "/out.svg", file], ["evaluate", file]] {
                let r = try run(args)
                #expect(!r.timedOut, "\(args)")
                #expect(r.status == 1, "\(args): \(r.err)")
                #expect(r.err.contains("\(file): a <Point> \(message)"), "\(r.err)")
                #expect(r.err.contains("X=\"\(x)\""), "\(r.err)")
            }
        }
        let late = dir + "/v9.xml"
        try stroke([("10", "10", "1000"), ("20", "40", "inf"), ("40", "10", "1020")])
            .write(toFile: late, atomically: true, encoding: .utf8)
        let t = try run(["evaluate", late])
        #expect(t.status == 1)
        #expect(t.err.contains("\(late): a <Point> whose T is not a time in ms"), "\(t.err)")
        // As wide and tall as a stroke may be: 100,000 pixels, 22 m at 4.5 per mm.
        let wide = dir + "/wide01.xml"
        try stroke([("0", "0", "1000"), ("99999", "50000", "1010"), ("-99999", "99999", "1020"), ("5", "5", "1030")])
            .write(toFile: wide, atomically: true, encoding: .utf8)
        let svg = dir + "/wide.svg"
        let w = try run(["explain", "--svg", svg, wide])
        #expect(!w.timedOut)
        #expect(w.status == 0, "\(w.err)")
        let picture = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(picture.contains("grid: 1000 mm"))
        #expect(picture.components(separatedBy: "<line").count - 1 <= 210)
    }
}
