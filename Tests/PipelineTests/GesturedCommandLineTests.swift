import Foundation
import Testing

/// The `gestured` executable's command line, run as a user would.
@Suite("gestured command line")
struct GesturedCommandLineTests {
    struct Run {
        var status: Int32
        var out: String
        var err: String
    }

    /// Runs the gestured built beside this test bundle.
    func gestured(_ args: [String]) throws -> Run {
        let dir = try #require(try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        let exe = URL(fileURLWithPath: dir).deletingLastPathComponent().appendingPathComponent("gestured").path
        try #require(FileManager.default.isExecutableFile(atPath: exe), "build gestured first: \(exe)")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        p.environment = ["PATH": "/usr/bin:/bin"]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Run(
            status: p.terminationStatus, out: String(decoding: o, as: UTF8.self),
            err: String(decoding: e, as: UTF8.self))
    }

    @Test func versionAndHelp() throws {
        let v = try gestured(["--version"])
        #expect(v.status == 0)
        #expect(v.out.hasPrefix("gestured ") && v.out.contains("socket protocol"))
        let h = try gestured(["--help"])
        #expect(h.status == 0)
        for option in [
            "--stdout", "--config <FILE>", "--failures", "-v, --verbose", "--socket <PATH>", "--no-socket", "--version",
        ] {
            #expect(h.out.contains(option), "\(option) missing from --help")
        }
    }

    @Test func usageErrorsExit64WithTheReason() throws {
        let unknown = try gestured(["--stdout", "--bogus"])
        #expect(unknown.status == 64)
        #expect(unknown.err.hasPrefix("Error: Unknown option '--bogus'\nUsage: gestured "))
        let missing = try gestured(["--config"])
        #expect(missing.status == 64)
        #expect(missing.err.contains("Missing value for '--config <FILE>'"))
        let nowhere = try gestured(["--no-socket"])
        #expect(nowhere.status == 64)
        #expect(nowhere.err.contains("--no-socket needs --stdout"))
    }

    /// The hand-written completions (completions/) offer exactly the options
    /// `gestured --help` lists, in every shell; bash is run to show it.
    @Test func completionsOfferEveryOptionOfHelp() throws {
        let help = try gestured(["--help"]).out
        // "  -v, --verbose   Log…", "  --config <FILE>   Config…": the words before the description.
        let options = Set(
            help.split(separator: "\n").filter { $0.hasPrefix("  -") }.flatMap {
                $0.split(separator: " ").prefix { $0.hasPrefix("-") || $0.hasPrefix("<") }
                    .filter { $0.hasPrefix("-") }.map { String($0.trimmingCharacters(in: [","])) }
            })
        #expect(
            options == [
                "--stdout", "--config", "--failures", "-v", "--verbose", "--trace", "--socket", "--no-socket",
                "--control-group", "--version", "-h", "--help",
            ])
        func file(_ name: String) throws -> String {
            try String(contentsOfFile: repoRoot + "/completions/" + name, encoding: .utf8)
        }
        let zsh = try file("_gestured"), fish = try file("gestured.fish")
        for o in options {
            let long = o.hasPrefix("--"), bare = o.drop { $0 == "-" }
            #expect(
                zsh.contains(long ? "\(o)[" : "-\(bare),") || zsh.contains("\(o)=[") || zsh.contains(",\(o)}"),
                "zsh: \(o)")
            #expect(fish.contains(long ? "-l \(bare) " : "-s \(bare) "), "fish: \(o)")
        }
        let bash = Process()
        bash.executableURL = URL(fileURLWithPath: "/bin/bash")
        bash.arguments = [
            "-c", "source \"$1\"; COMP_WORDS=(gestured -); COMP_CWORD=1; _gestured; printf '%s\\n' \"${COMPREPLY[@]}\"",
            "bash", repoRoot + "/completions/gestured.bash",
        ]
        let out = Pipe()
        bash.standardOutput = out
        try bash.run()
        let offered = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        bash.waitUntilExit()
        #expect(Set(offered.split(separator: "\n").map(String.init)) == options)
    }

    /// A gestured left running, its log read as it comes.
    final class RunningDaemon {
        let process = Process()
        let log = Pipe()
        private(set) var text = ""

        init(_ args: [String]) throws {
            let dir = try #require(try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            let exe = URL(fileURLWithPath: dir).deletingLastPathComponent().appendingPathComponent("gestured").path
            process.executableURL = URL(fileURLWithPath: exe)
            process.arguments = args
            process.environment = ["PATH": "/usr/bin:/bin"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = log
            try process.run()
        }

        /// Reads the log until it holds `what` (at most `seconds`).
        func waitFor(_ what: String, seconds: Double = 30) -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while !text.contains(what) {
                let left = end.timeIntervalSinceNow
                guard left > 0 else { return false }
                guard readSome(timeoutMS: Int32(min(left, 1) * 1000)) else { return text.contains(what) }
            }
            return true
        }

        /// Takes what the log holds now, so that the daemon never waits on a full pipe.
        func drain() { while readSome(timeoutMS: 0, once: true) {} }

        /// One read of the log if it has something within `timeoutMS`; false at its end.
        private func readSome(timeoutMS: Int32, once: Bool = false) -> Bool {
            let fd = log.fileHandleForReading.fileDescriptor
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, timeoutMS) > 0 else { return !once }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return false }
            text += String(decoding: chunk[0..<n], as: UTF8.self)
            return true
        }

        func stop() {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// A config replaced by a FIFO used to reload as an empty file: the daemon
    /// ran on with 0 recognizers. Now the reload is refused and says why.
    @Test func aConfigReplacedByAFIFOIsRefusedOnReload() throws {
        let dir = NSTemporaryDirectory() + "gestured-fifo-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/gestured.toml"
        try "[recognizer.t]\nkind = \"tap\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(["--config=\(path)", "--stdout", "--no-socket"])
        defer { daemon.stop() }
        #expect(daemon.waitFor("running with \(path): 1 recognizers"), "\(daemon.text)")
        // Moved into place, as an editor saves: the watcher reloads it.
        try #require(mkfifo(dir + "/next", 0o600) == 0)
        try #require(rename(dir + "/next", path) == 0)
        #expect(
            daemon.waitFor("\(path) changed: \(path) has errors; keeping the previous configuration"), "\(daemon.text)")
        #expect(daemon.text.contains("\(path): is a FIFO (named pipe), not a regular file"))
        #expect(!daemon.text.contains("0 recognizers"))
    }

    /// Rewritten in place a thousand times (truncated, then written a
    /// recognizer at a time) while the daemon watches it: it loads whole
    /// versions only, never one cut short.
    @Test func aConfigRewrittenInPlaceIsReloadedOnlyWhole() throws {
        let dir = NSTemporaryDirectory() + "gestured-rewrite-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/gestured.toml"
        func blocks(_ count: Int) -> [String] { (1...count).map { "[recognizer.t\($0)]\nkind = \"tap\"\n" } }
        func rewrite(_ count: Int) {
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            for block in blocks(count) { _ = Array(block.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }
            close(fd)
        }
        rewrite(3)
        let daemon = try RunningDaemon(["--config=\(path)", "--stdout", "--no-socket"])
        defer { daemon.stop() }
        #expect(daemon.waitFor("running with \(path): 3 recognizers"), "\(daemon.text)")
        for i in 0..<1000 {
            rewrite(i % 2 == 0 ? 5 : 3)
            daemon.drain()
        }
        rewrite(7)
        #expect(daemon.waitFor("loaded \(path): 7 recognizers"), "\(daemon.text.suffix(2000))")
        let loaded = daemon.text.split(separator: "\n").compactMap { line -> Int? in
            guard let r = line.range(of: "loaded \(path): ") else { return nil }
            return Int(line[r.upperBound...].prefix { $0.isNumber })
        }
        #expect(Set(loaded).isSubset(of: [3, 5, 7]), "loaded \(Set(loaded).sorted()) recognizers")
        #expect(!daemon.text.contains("has errors"), "a half-written file was read")
    }

    @Test func aBadConfigStopsTheDaemonBeforeItStartsWithFileLineAndKey() throws {
        let path = NSTemporaryDirectory() + "gestured-cli-\(getpid()).toml"
        try "[recognizer.c]\nkind = \"circle\"\nmax_sweep_deg = 200\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try gestured(["--config=\(path)", "--stdout", "--no-socket"])
        #expect(r.status == 1)
        #expect(
            r.err
                == "gestured: error (config): \(path):3: recognizer.c.max_sweep_deg: min_sweep_deg = 260 (the default) is above max_sweep_deg = 200; no circle could ever be recognized\n"
        )
    }

    /// A control group that does not exist is a mistake to say at once, not a
    /// daemon in which no group may control.
    @Test func anUnknownControlGroupStopsTheDaemonBeforeItStarts() throws {
        let r = try gestured(["--stdout", "--no-socket", "--control-group", "no-such-group-\(getpid())"])
        #expect(r.status == 1)
        #expect(r.err == "gestured: error (config): --control-group no-such-group-\(getpid()): no such group\n")
        let empty = try gestured(["--stdout", "--no-socket", "--control-group="])
        #expect(empty.status == 64)
        #expect(empty.err.contains("'--control-group' takes a group's name"))
    }
}
