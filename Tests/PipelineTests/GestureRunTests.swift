import Foundation
import GestureClient
import GestureLisgd
import Testing

/// gesture-run: gesturectl hands `lisgd` (reading a device) and `actions` to it,
/// found beside gesturectl or in ../libexec/gestured, and runs everything else,
/// or everything when it is not there, itself, with the same messages.
@Suite("gesture-run")
struct GestureRunTests {
    @Test func actionsOptionsAreReadAsGesturectlReadsThem() throws {
        let a = try ActionsArguments.parse(["--file", "a.toml", "--max-running=3", "--socket=/run/s"])
        #expect(a == ActionsArguments(file: "a.toml", maxRunning: 3, socket: "/run/s"))
        #expect(try ActionsArguments.parse(["--check"]).check)
        #expect(try ActionsArguments.parse([]).batch)
        #expect(try !ActionsArguments.parse(["--no-batch"]).batch)
        #expect(try ActionsArguments.parse(["-h"]).help)
        #expect(try ActionsArguments.parse([]).socketPath(environment: ["GESTURED_SOCKET": "/tmp/x"]) == "/tmp/x")
        #expect(try ActionsArguments.parse(["--socket", "/a"]).socketPath(environment: ["GESTURED_SOCKET": "/tmp/x"]) == "/a")
        #expect(try ActionsArguments.parse([]).socketPath(environment: ["GESTURED_SOCKET": ""]) == "/run/gestured/events.sock")
        for (args, message) in [(["--max-running", "0"], "--max-running takes 1 to 64"), (["--file"], "missing value for '--file'"),
                                (["--bogus"], "unknown option '--bogus'"), (["--check=yes"], "unknown option '--check=yes'")] {
            #expect(throws: ActionsUsageError.self) { try ActionsArguments.parse(args) }
            do { _ = try ActionsArguments.parse(args) } catch { #expect(error.description == message) }
        }
    }

    @Test func lisgdGoesLeanOnlyToReadADevice() {
        #expect(LisgdLive.runsLean(["-d", "/dev/input/event3", "-g", "1,LR,*,*,R,echo --help", "-h", "1440", "-w", "720"]))
        #expect(!LisgdLive.runsLean([]), "no -g: an error, gesturectl's to say")
        for own in [["--print-config"], ["--print-config=actions"], ["--desc", "x.desc", "--print-config"],
                    ["--replay", "x.events"], ["--help"], ["-t"]] {
            #expect(!LisgdLive.runsLean(own + ["-g", "1,LR,*,*,R,true"]), "\(own)")
        }
    }

    struct Layout {
        let root: URL
        let gesturectl: String
        let gestureRun: String?
        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    /// The built binaries' directory.
    func binDir() throws -> URL {
        let exe = try #require(try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        return URL(fileURLWithPath: exe).deletingLastPathComponent()
    }

    /// gesturectl hard-linked into a directory of its own beside the build (a link,
    /// as /proc/self/exe names the path it was run by), with gesture-run beside it
    /// (`beside`), in ../libexec/gestured (`libexec`) or nowhere (`none`).
    func layout(_ kind: String, _ test: String) throws -> Layout {
        let bin = try binDir()
        for name in ["gesturectl", "gesture-run"] {
            try #require(FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent(name).path), "build \(name) first")
        }
        let root = bin.deletingLastPathComponent().appendingPathComponent("gesture-run-test-\(getpid())-\(test)-\(kind)")
        try? FileManager.default.removeItem(at: root)
        let dir = root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let ctl = dir.appendingPathComponent("gesturectl").path
        try FileManager.default.linkItem(atPath: bin.appendingPathComponent("gesturectl").path, toPath: ctl)
        var run: String?
        switch kind {
        case "beside": run = dir.appendingPathComponent("gesture-run").path
        case "libexec":
            let lib = root.appendingPathComponent("libexec/gestured")
            try FileManager.default.createDirectory(at: lib, withIntermediateDirectories: true)
            run = lib.appendingPathComponent("gesture-run").path
        default: break
        }
        if let run { try FileManager.default.linkItem(atPath: bin.appendingPathComponent("gesture-run").path, toPath: run) }
        return Layout(root: root, gesturectl: ctl, gestureRun: run)
    }

    func start(_ exe: String, _ args: [String], stderr: Pipe) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        p.environment = ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = stderr
        try p.run()
        return p
    }

    func run(_ exe: String, _ args: [String]) throws -> (status: Int32, err: String) {
        let err = Pipe()
        let p = try start(exe, args, stderr: err)
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: e, as: UTF8.self))
    }

    /// `gesturectl actions` against no daemon waits and retries: the process that
    /// does so is gesture-run when it is installed (still named gesturectl, argv as
    /// typed), gesturectl itself when not; it says the same either way.
    @Test(arguments: ["beside", "libexec", "none"])
    func actionsRunsInGestureRunWhenInstalled(kind: String) throws {
        let l = try layout(kind, "actions")
        defer { l.remove() }
        let file = l.root.appendingPathComponent("actions.toml").path
        try "[[action]]\nname = \"tap\"\nexec = \"true\"\n".write(toFile: file, atomically: true, encoding: .utf8)
        let socket = l.root.appendingPathComponent("no.sock").path
        let err = Pipe()
        let p = try start(l.gesturectl, ["actions", "--file", file, "--socket", socket], stderr: err)
        let expected = l.gestureRun ?? l.gesturectl
        var exe = ""
        var cmdline = ""
        var comm = ""
        // gesture-run renames itself a moment after the exec: wait for that too.
        for _ in 0..<200 {
            exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(p.processIdentifier)/exe")) ?? ""
            cmdline = procFile("/proc/\(p.processIdentifier)/cmdline")
            comm = procFile("/proc/\(p.processIdentifier)/comm")
            if exe == expected && !cmdline.isEmpty && comm == "gesturectl\n" { break }
            usleep(50_000)
        }
        #expect(exe == expected)
        #expect(comm == "gesturectl\n")
        #expect(cmdline.split(separator: "\0").map(String.init)
                == [l.gesturectl, "actions", "--file", file, "--socket", socket])
        usleep(300_000)
        // SIGKILL: a test thread may have SIGTERM blocked, and the child inherits that.
        kill(p.processIdentifier, SIGKILL)
        let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(e.hasPrefix("gesturectl: \(socket) does not exist: is gestured running?"), "\(e)")
    }

    /// Subscribers (`subscribe`, `actions`) run in SCHED_BATCH, so that the daemon
    /// writes to all of them before any runs; `--no-batch` keeps the normal
    /// policy. Both wait here for a daemon that is not there.
    @Test func subscribersRunAsBatch() throws {
        let l = try layout("beside", "batch")
        defer { l.remove() }
        let file = l.root.appendingPathComponent("actions.toml").path
        try "[[action]]\nname = \"tap\"\nexec = \"true\"\n".write(toFile: file, atomically: true, encoding: .utf8)
        let socket = l.root.appendingPathComponent("no.sock").path
        for (args, expected) in [(["subscribe", "--socket", socket], 3), (["subscribe", "--no-batch", "--socket", socket], 0),
                                 (["actions", "--file", file, "--socket", socket], 3),
                                 (["actions", "--no-batch", "--file", file, "--socket", socket], 0)] {
            let err = Pipe()
            let p = try start(l.gesturectl, args, stderr: err)
            var policy = -1
            for _ in 0..<100 {
                // It sets its policy as it starts: wait for it, at most 5 s.
                policy = schedulingPolicy(p.processIdentifier)
                if policy == expected { break }
                usleep(50_000)
            }
            kill(p.processIdentifier, SIGKILL)
            _ = err.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            #expect(policy == expected, "\(args)")
        }
    }

    /// The scheduling policy of a process (field 41 of /proc/PID/stat); -1 if unknown.
    func schedulingPolicy(_ pid: pid_t) -> Int {
        let stat = procFile("/proc/\(pid)/stat")
        guard let close = stat.lastIndex(of: ")") else { return -1 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // Fields after the command start at 3 (state).
        return fields.count > 38 ? Int(fields[38]) ?? -1 : -1
    }

    /// gesturectl lisgd's messages and exit statuses are the same from gesture-run;
    /// what gesture-run does not take stays gesturectl's.
    @Test func lisgdSaysTheSameFromEitherBinary() throws {
        let lean = try layout("beside", "lisgd"), full = try layout("none", "lisgd")
        defer { lean.remove(); full.remove() }
        for args in [["lisgd", "-d", "/nonexistent/touchscreen", "-g", "1,LR,*,*,R,true"],
                     ["lisgd", "-d", "/dev/null", "-g", "1,LR,*,*,R,true", "-v"], ["lisgd", "-t", "x"]] {
            let a = try run(lean.gesturectl, args), b = try run(full.gesturectl, args)
            #expect(a.status == 1 && a.status == b.status, "\(args)")
            #expect(!a.err.isEmpty && a.err == b.err, "\(args)")
        }
        let direct = try run(try #require(lean.gestureRun), ["lisgd", "-g", "1,LR,*,*,R,true", "--print-config"])
        #expect(direct.status == 64)
        #expect(direct.err.contains("gesturectl's own"))
        let printed = try run(lean.gesturectl, ["lisgd", "--desc", "/nonexistent.desc", "--print-config"])
        #expect(printed.status == 1 && printed.err.hasPrefix("gesturectl lisgd: "))
    }
}

/// A /proc file's text, read with read(2): Foundation's file reading leaks a
/// buffer on files of no size (procfs), which LeakSanitizer reports.
func procFile(_ path: String) -> String {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n <= 0 { break }
        bytes += buffer[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}
