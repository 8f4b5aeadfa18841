import LinuxSystem

/// Whose fault a problem is, so the reader knows where to look (as libinput's
/// "kernel bug" / "client bug" / "libinput bug" messages do).
public enum Fault: String, Sendable {
    /// The kernel or the device: it vanished, sent garbage, has a bad udev property.
    case device = "device/kernel"
    /// The user's config file.
    case config
    /// The environment: permissions, missing udev, a closed stdout.
    case system
    /// A bug in gestured itself.
    case ours = "bug in gestured"
}

/// Logs to stderr, one line per message, prefixed with the program name, the
/// level and, for problems, whose fault it is.
public final class Logger {
    public let program: String
    public var verbose: Bool

    public init(program: String, verbose: Bool = false) {
        self.program = program; self.verbose = verbose
    }

    public func info(_ message: String) { write("\(program): \(message)") }

    public func debug(_ message: @autoclosure () -> String) {
        if verbose { write("\(program): debug: \(message())") }
    }

    public func warning(_ fault: Fault, _ message: String) {
        write("\(program): warning (\(fault.rawValue)): \(message)")
    }

    public func error(_ fault: Fault, _ message: String) {
        write("\(program): error (\(fault.rawValue)): \(message)")
    }

    private func write(_ line: String) {
        // stderr unbuffered, one write per line; nothing to do if it fails.
        try? FileDescriptor.standardError.writeAll(line + "\n")
    }
}
