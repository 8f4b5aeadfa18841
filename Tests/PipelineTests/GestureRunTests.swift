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
        #expect(
            try ActionsArguments.parse(["--socket", "/a"]).socketPath(environment: ["GESTURED_SOCKET": "/tmp/x"])
                == "/a")
        #expect(
            try ActionsArguments.parse([]).socketPath(environment: ["GESTURED_SOCKET": ""])
                == "/run/gestured/events.sock")
        for (args, message) in [
            (["--max-running", "0"], "--max-running takes 1 to 64"), (["--file"], "missing value for '--file'"),
            (["--bogus"], "unknown option '--bogus'"), (["--check=yes"], "unknown option '--check=yes'"),
        ] {
            #expect(throws: ActionsUsageError.self) { try ActionsArguments.parse(args) }
            do { _ = try ActionsArguments.parse(args) } catch { #expect(error.description == message) }
        }
    }

    @Test func lisgdGoesLeanOnlyToReadADevice() {
        #expect(
            LisgdLive.runsLean(["-d", "/dev/input/event3", "-g", "1,LR,*,*,R,echo --help", "-h", "1440", "-w", "720"]))
        #expect(!LisgdLive.runsLean([]), "no -g: an error, gesturectl's to say")
        for own in [
            ["--print-config"], ["--print-config=actions"], ["--desc", "x.desc", "--print-config"],
            ["--replay", "x.events"], ["--help"], ["-t"],
        ] {
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

    /// gesturectl links FoundationEssentials, not Foundation, whose ICU data
    /// (36 MB of `.rodata`, `icudt…`) made the packaged gesturectl 58.7 MB.
    /// One `import Foundation` in its modules would link all of it again.
    @Test func gesturectlCarriesNoICUData() throws {
        let path = try binDir().appendingPathComponent("gesturectl").path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        try #require(fd >= 0, "build gesturectl first")
        defer { close(fd) }
        var st = stat()
        try #require(fstat(fd, &st) == 0)
        let size = Int(st.st_size)
        let map = try #require(mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0))
        try #require(map != MAP_FAILED)
        defer { munmap(map, size) }
        let bytes = UnsafeRawBufferPointer(start: map, count: size)
        let needle = Array("icudt".utf8)
        var found = false
        var i = 0
        while i + needle.count <= size, !found {
            guard let hit = memchr(map + i, Int32(needle[0]), size - i) else { break }
            i = hit - map
            found = i + needle.count <= size && needle.indices.allSatisfy { bytes[i + $0] == needle[$0] }
            i += 1
        }
        #expect(!found, "gesturectl (\(size / 1_000_000) MB) carries ICU data: something imports Foundation")
    }

    /// gesturectl hard-linked into a directory of its own beside the build (a link,
    /// as /proc/self/exe names the path it was run by), with gesture-run beside it
    /// (`beside`), in ../libexec/gestured (`libexec`) or nowhere (`none`).
    func layout(_ kind: String, _ test: String) throws -> Layout {
        let bin = try binDir()
        for name in ["gesturectl", "gesture-run"] {
            try #require(
                FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent(name).path),
                "build \(name) first")
        }
        let root = bin.deletingLastPathComponent().appendingPathComponent(
            "gesture-run-test-\(getpid())-\(test)-\(kind)")
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
        if let run {
            try FileManager.default.linkItem(atPath: bin.appendingPathComponent("gesture-run").path, toPath: run)
        }
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
        var exe = "", cmdline = "", comm = ""
        // exec changes /proc/PID/exe first; gesture-run renames itself after
        // that. Wait for all three (generously: the machine may be busy).
        _ = waitFor(seconds: 60) {
            exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(p.processIdentifier)/exe")) ?? ""
            cmdline = procFile("/proc/\(p.processIdentifier)/cmdline")
            comm = procFile("/proc/\(p.processIdentifier)/comm")
            return exe == expected && !cmdline.isEmpty && comm == "gesturectl\n"
        }
        #expect(exe == expected)
        #expect(comm == "gesturectl\n")
        #expect(
            cmdline.split(separator: "\0").map(String.init)
                == [l.gesturectl, "actions", "--file", file, "--socket", socket])
        // It says why it waits, then waits: read until it has said so.
        let message = "gesturectl: \(socket) does not exist: gestured is not listening"
        let e = readUntil(err.fileHandleForReading.fileDescriptor, contains: message, seconds: 60)
        // SIGKILL: a test thread may have SIGTERM blocked, and the child inherits that.
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        #expect(e.hasPrefix(message), "\(e)")
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
        for (args, expected) in [
            (["subscribe", "--socket", socket], 3), (["subscribe", "--no-batch", "--socket", socket], 0),
            (["actions", "--file", file, "--socket", socket], 3),
            (["actions", "--no-batch", "--file", file, "--socket", socket], 0),
        ] {
            let err = Pipe()
            let p = try start(l.gesturectl, args, stderr: err)
            var policy = -1
            // It sets its policy as it starts: wait for it, generously.
            _ = waitFor(seconds: 60) {
                policy = schedulingPolicy(p.processIdentifier)
                return policy == expected
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
        defer {
            lean.remove()
            full.remove()
        }
        for args in [
            ["lisgd", "-d", "/nonexistent/touchscreen", "-g", "1,LR,*,*,R,true"],
            ["lisgd", "-d", "/dev/null", "-g", "1,LR,*,*,R,true", "-v"], ["lisgd", "-t", "x"],
        ] {
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

/// gesturectl lisgd, from either binary, with arguments as raw bytes (Process
/// takes text, which would replace bytes that are not UTF-8).
@Suite("gesturectl lisgd: arguments")
struct LisgdArgumentTests {
    @Test func aCommandThatIsNotUTF8IsAUsageError() throws {
        let t = GestureRunTests()
        let l = try t.layout("beside", "utf8")
        defer { l.remove() }
        let bad: [UInt8] = Array("1,LR,*,*,R,echo caf".utf8) + [0xE9]
        let expected = "gesturectl lisgd: the value of -g (argument 4) is not UTF-8 (byte 0xE9 at byte 20)"
        let ctl = try spawnRaw(
            l.gesturectl,
            [
                Array("lisgd".utf8), Array("-d".utf8), Array("/nonexistent/touchscreen".utf8),
                Array("-g".utf8), bad,
            ])
        #expect(ctl.status == 1)
        #expect(ctl.err.hasPrefix(expected), "\(ctl.err)")
        let run = try spawnRaw(try #require(l.gestureRun), [Array("lisgd".utf8), Array("-g".utf8), bad])
        #expect(run.status == 1)
        #expect(run.err.hasPrefix("gesturectl lisgd: the value of -g (argument 2) is not UTF-8"), "\(run.err)")
    }

    /// --print-config without a readable screen says what to give: -d, or
    /// --desc, but not -d again when the node given with it is the one missing.
    @Test func printConfigWithoutAScreenSaysWhatToGive() throws {
        let t = GestureRunTests()
        let l = try t.layout("beside", "hint")
        defer { l.remove() }
        let given = try t.run(
            l.gesturectl, ["lisgd", "-d", "/nonexistent/touchscreen", "-g", "1,LR,*,*,R,true", "--print-config"])
        #expect(given.status == 1)
        #expect(given.err.contains("/nonexistent/touchscreen"), "\(given.err)")
        #expect(given.err.contains("give its description with --desc FILE instead"), "\(given.err)")
        #expect(given.err.components(separatedBy: "with -d").count == 2, "-d said once: \(given.err)")
        // Without -d, lisgd's default node; on a machine that has one, it is read.
        guard !FileManager.default.fileExists(atPath: LisgdOptions().device) else { return }
        let none = try t.run(l.gesturectl, ["lisgd", "-g", "1,LR,*,*,R,true", "--print-config"])
        #expect(none.status == 1)
        #expect(none.err.contains("give its node with -d, or its description with --desc FILE"), "\(none.err)")
    }

    @Test func moreBindingsThanTakenIsAUsageError() throws {
        let t = GestureRunTests()
        let l = try t.layout("beside", "cap")
        defer { l.remove() }
        let args =
            ["lisgd", "-d", "/nonexistent/touchscreen"]
            + (0...LisgdOptions.maxBindings).flatMap { ["-g", "1,LR,*,*,R,echo \($0)"] }
        let r = try t.run(l.gesturectl, args)
        #expect(r.status == 1)
        #expect(
            r.err
                == "gesturectl lisgd: 1001 -g bindings; at most 1000 are taken (each becomes a recognizer that every touch goes through, and their config must stay within gestured's 1 MiB)\n"
        )
    }
}

/// Runs `exe` with these arguments as bytes; its exit status and stderr.
func spawnRaw(_ exe: String, _ arguments: [[UInt8]]) throws -> (status: Int32, err: String) {
    var fds: [Int32] = [0, 0]
    try #require(pipe(&fds) == 0)
    let words = ([Array(exe.utf8)] + arguments).map { bytes -> UnsafeMutablePointer<CChar>? in
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        for (i, b) in bytes.enumerated() { p[i] = CChar(bitPattern: b) }
        p[bytes.count] = 0
        return p
    }
    defer { for w in words { w?.deallocate() } }
    var argv = words + [nil]
    var env: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/bin:/bin"), strdup("HOME=/nonexistent"), nil]
    defer { for e in env { free(e) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
    posix_spawn_file_actions_addclose(&actions, fds[0])
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, exe, &actions, nil, &argv, &env)
    close(fds[1])
    defer { close(fds[0]) }
    try #require(rc == 0)
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
        if n <= 0 { break }
        bytes += buffer[0..<n]
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return ((status >> 8) & 0xFF, String(decoding: bytes, as: UTF8.self))
}

/// Polls `condition` every 20 ms for at most `seconds`; whether it came true.
func waitFor(seconds: Double, _ condition: () -> Bool) -> Bool {
    let end = monotonicSeconds() + seconds
    while monotonicSeconds() < end {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}

/// What a pipe brought until it holds `text` (or ended, or `seconds` passed).
func readUntil(_ fd: Int32, contains text: String, seconds: Double) -> String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    let end = monotonicSeconds() + seconds
    while monotonicSeconds() < end && !String(decoding: bytes, as: UTF8.self).contains(text) {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, 100) >= 0 else { break }
        if p.revents == 0 { continue }
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n <= 0 { break }
        bytes += buffer[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
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
