import ArgumentParser
import CLinux
import GestureConfig
import GestureCore
import GestureDaemon
import Glibc

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a config file: print each problem as FILE:LINE: KEY: MESSAGE and exit 1, or say it is fine."
    )

    @Argument(
        help:
            "The config file (default: the one gestured reads: $GESTURED_CONFIG, then /etc/gestured/gestured.toml).",
        completion: .file(extensions: ["toml"]))
    var file: String?

    @Flag(
        name: .long,
        help:
            "Print every recognizer kind's keys (type, range, default, meaning) as Markdown tables, and check nothing.")
    var keys = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Load the file this many more times, as reloads would, and print the heap in use before and after (a reload must not grow it).",
            valueName: "N"))
    var repeatLoads: Int?

    func validate() throws {
        if keys && (file != nil || repeatLoads != nil) {
            throw ValidationError("--keys takes no file and no --repeat-loads")
        }
    }

    /// Whether `user` may read `path` by its mode (the file itself; its
    /// directories are root's, as the trust check asks).
    static func readable(_ path: String, by user: passwd) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0 else { return true }  // loading says what is missing
        if user.pw_uid == 0 { return true }
        if st.st_uid == user.pw_uid { return st.st_mode & S_IRUSR != 0 }
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: 64)
        let inGroup =
            getgrouplist(user.pw_name, user.pw_gid, &groups, &count) >= 0
            && groups.prefix(Int(count)).contains(st.st_gid)
        return inGroup ? st.st_mode & S_IRGRP != 0 : st.st_mode & S_IROTH != 0
    }

    func run() throws {
        if keys {
            print(RecognizerParameters.referenceMarkdown(), terminator: "")
            return
        }
        guard let file = file ?? ConfigFile.resolve(explicit: nil) else {
            throw CleanExit.message(
                "gesturectl check: no config file (no $GESTURED_CONFIG, no \(ConfigLoader.systemPath)): gestured runs its built-in config; give a file to check",
                code: 1)
        }
        if let n = repeatLoads {
            guard n > 0 && n <= 1_000_000 else { throw ValidationError("--repeat-loads takes 1 to 1000000") }
            _ = ConfigFile.load(path: file)
            let before = mallinfo2().uordblks
            var started = timespec(), ended = timespec()
            clock_gettime(CLOCK_MONOTONIC, &started)
            var failed = 0
            for _ in 0..<n { if case .failure = ConfigFile.load(path: file) { failed += 1 } }
            clock_gettime(CLOCK_MONOTONIC, &ended)
            let after = mallinfo2().uordblks
            let us = Double(ended.tv_sec - started.tv_sec) * 1e6 + Double(ended.tv_nsec - started.tv_nsec) / 1e3
            print(
                "\(file): \(n) loads (\(failed) refused), \(Int(us / Double(n))) µs each; heap in use after the first: \(before) bytes, after \(n) more: \(after) bytes (\(Int(after) - Int(before)) growth)"
            )
        }
        // The system file as the service reads it: as the user `gestured`
        // (or root, without one), who refuses a file anyone else may change.
        if file == ConfigLoader.systemPath {
            let account = getpwnam("gestured")?.pointee
            let user = account?.pw_uid ?? 0
            if let problem = ConfigFile.trustProblem(path: file, trust: ConfigFile.daemonTrust(user: user)) {
                throw CleanExit.message("gesturectl check: gestured would refuse it: \(problem)", code: 1)
            }
            if let account, !Self.readable(file, by: account) {
                throw CleanExit.message(
                    "gesturectl check: gestured (user gestured) may not read \(file): give it mode 0644", code: 1)
            }
        }
        let c = try loadConfig(path: file)
        let names = c.recognizers.map { "\($0.name) (\($0.kind.rawValue))" }.joined(separator: ", ")
        print("\(file): ok: \(c.recognizers.count) recognizers: \(names); \(c.devices.count) device rule(s)")
    }
}
