import Foundation
import Testing

/// The `gestured` executable's command line, run as a user would.
@Suite("gestured command line")
struct GesturedCommandLineTests {
    struct Run { var status: Int32; var out: String; var err: String }

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
        return Run(status: p.terminationStatus, out: String(decoding: o, as: UTF8.self), err: String(decoding: e, as: UTF8.self))
    }

    @Test func versionAndHelp() throws {
        let v = try gestured(["--version"])
        #expect(v.status == 0)
        #expect(v.out.hasPrefix("gestured ") && v.out.contains("socket protocol"))
        let h = try gestured(["--help"])
        #expect(h.status == 0)
        for option in ["--stdout", "--config <FILE>", "--failures", "-v, --verbose", "--socket <PATH>", "--no-socket", "--version"] {
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
        let options = Set(help.split(separator: "\n").filter { $0.hasPrefix("  -") }.flatMap {
            $0.split(separator: " ").prefix { $0.hasPrefix("-") || $0.hasPrefix("<") }
                .filter { $0.hasPrefix("-") }.map { String($0.trimmingCharacters(in: [","])) }
        })
        #expect(options == ["--stdout", "--config", "--failures", "-v", "--verbose", "--trace", "--socket", "--no-socket",
                            "--control-group", "--version", "-h", "--help"])
        func file(_ name: String) throws -> String { try String(contentsOfFile: repoRoot + "/completions/" + name, encoding: .utf8) }
        let zsh = try file("_gestured"), fish = try file("gestured.fish")
        for o in options {
            let long = o.hasPrefix("--"), bare = o.drop { $0 == "-" }
            #expect(zsh.contains(long ? "\(o)[" : "-\(bare),") || zsh.contains("\(o)=[") || zsh.contains(",\(o)}"), "zsh: \(o)")
            #expect(fish.contains(long ? "-l \(bare) " : "-s \(bare) "), "fish: \(o)")
        }
        let bash = Process()
        bash.executableURL = URL(fileURLWithPath: "/bin/bash")
        bash.arguments = ["-c", "source \"$1\"; COMP_WORDS=(gestured -); COMP_CWORD=1; _gestured; printf '%s\\n' \"${COMPREPLY[@]}\"",
                          "bash", repoRoot + "/completions/gestured.bash"]
        let out = Pipe()
        bash.standardOutput = out
        try bash.run()
        let offered = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        bash.waitUntilExit()
        #expect(Set(offered.split(separator: "\n").map(String.init)) == options)
    }

    @Test func aBadConfigStopsTheDaemonBeforeItStartsWithFileLineAndKey() throws {
        let path = NSTemporaryDirectory() + "gestured-cli-\(getpid()).toml"
        try "[recognizer.c]\nkind = \"circle\"\nmax_sweep_deg = 200\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try gestured(["--config=\(path)", "--stdout", "--no-socket"])
        #expect(r.status == 1)
        #expect(r.err == "gestured: error (config): \(path):3: recognizer.c.max_sweep_deg: min_sweep_deg = 300 (the default) is above max_sweep_deg = 200; no circle could ever be recognized\n")
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
