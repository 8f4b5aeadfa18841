import GestureCore

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

    /// Where lines go instead of stderr (tests read what was logged).
    private let output: ((String) -> Void)?

    public init(program: String, verbose: Bool = false) {
        self.program = program
        self.verbose = verbose
        output = nil
    }

    public init(program: String, verbose: Bool = false, output: @escaping (String) -> Void) {
        self.program = program
        self.verbose = verbose
        self.output = output
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
        if let output {
            output(line)
            return
        }
        // stderr unbuffered, one write per line; nothing to do if it fails.
        try? FileDescriptor.standardError.writeAll(line + "\n")
    }
}

/// Lets at most `burst` lines of one kind through per `window`; the first line
/// after a window in which some were held back says how many. Keeps a flood of
/// the same cause (a client reconnecting in a loop, `accept` failing on every
/// wakeup, udev errors, control requests) from burying the journal, while the
/// first lines still show it. The one rate limit of the daemon and its clients.
public struct LogLimiter: Sendable {
    public let burst: Int
    public let window: Millis
    private var windowStart: EventTime?
    private var passed = 0
    public private(set) var suppressed = 0

    public init(burst: Int, window: Millis) {
        self.burst = burst
        self.window = window
    }

    /// Whether a line may go out now, and how many were held back before it.
    public enum Verdict: Equatable, Sendable { case allowed(suppressedBefore: Int), suppressed }

    /// Counts one line at `now`: allowed (with the number held back since the
    /// last one allowed, when a new window begins) or suppressed.
    public mutating func allow(at now: EventTime) -> Verdict {
        if let start = windowStart, now - start < window {
            guard passed < burst else {
                suppressed += 1
                return .suppressed
            }
            passed += 1
            return .allowed(suppressedBefore: 0)
        }
        windowStart = now
        passed = 1
        defer { suppressed = 0 }
        return .allowed(suppressedBefore: suppressed)
    }

    /// The line to log now (with a note of what was held back), or nil to stay quiet.
    public mutating func admit(_ line: String, now: EventTime) -> String? {
        guard case .allowed(let held) = allow(at: now) else { return nil }
        guard held > 0 else { return line }
        return line + " (\(held) similar line\(held == 1 ? "" : "s") suppressed in the last \(window))"
    }
}
