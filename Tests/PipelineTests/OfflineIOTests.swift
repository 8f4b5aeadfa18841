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
}
