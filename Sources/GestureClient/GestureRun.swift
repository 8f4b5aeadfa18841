import Glibc

/// The lean executable for gesturectl's long-running commands (`lisgd` reading a
/// device, `actions`): built without Foundation and argument-parser, so it runs
/// in about half the memory of gesturectl's image (docs/DESIGN.md, "gesture-run").
public enum GestureRun {
    public static let name = "gesture-run"

    /// gesture-run beside this executable, then in ../libexec/gestured/ from
    /// its directory (where `make install` puts it); nil if neither is there.
    public static func path() -> String? {
        guard let dir = executableDirectory() else { return nil }
        for candidate in [dir + "/" + name, dir + "/../libexec/gestured/" + name] where access(candidate, X_OK) == 0 {
            return candidate
        }
        return nil
    }

    /// gesturectl, for gesture-run started as `lisgd` (a link to it): beside
    /// it, then in ../../bin/ from libexec/gestured/; nil if neither is there.
    public static func gesturectlPath() -> String? {
        guard let dir = executableDirectory() else { return nil }
        for candidate in [dir + "/gesturectl", dir + "/../../bin/gesturectl"] where access(candidate, X_OK) == 0 {
            return candidate
        }
        return nil
    }

    /// The directory of the running executable, links resolved.
    static func executableDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let exe = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = exe.lastIndex(of: "/") else { return nil }
        return String(exe[..<slash])
    }

    /// Replaces this process with `path`, with these arguments; returns only if
    /// it cannot be run.
    public static func exec(path: String, _ arguments: [String]) {
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        _ = execv(path, argv)
        for p in argv { free(p) }
    }

    /// Replaces this process with gesture-run, with the same arguments (argv[0]
    /// too, so `ps` shows the command as typed); the same process, so its parent,
    /// its PR_SET_PDEATHSIG and its descriptors stay. Returns only if gesture-run
    /// is not there or cannot be run, and the caller runs the command itself.
    public static func exec(_ arguments: [String]) {
        guard let path = path() else { return }
        exec(path: path, arguments)
    }
}
