import GestureCore
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

    /// Where lines go instead of stderr (tests read what was logged).
    private let output: ((String) -> Void)?

    public init(program: String, verbose: Bool = false) {
        self.program = program; self.verbose = verbose; output = nil
    }

    public init(program: String, verbose: Bool = false, output: @escaping (String) -> Void) {
        self.program = program; self.verbose = verbose; self.output = output
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
        if let output { output(line); return }
        // stderr unbuffered, one write per line; nothing to do if it fails.
        try? FileDescriptor.standardError.writeAll(line + "\n")
    }
}

/// Lets at most `burst` lines of one kind through per `window`; the first line
/// after a window in which some were held back says how many. Keeps a flood of
/// the same cause (a client reconnecting in a loop, `accept` failing on every
/// wakeup) from burying the journal, while the first lines still show it.
public struct LogLimiter: Sendable {
    public let burst: Int
    public let window: Millis
    private var windowStart: EventTime?
    private var passed = 0
    public private(set) var suppressed = 0

    public init(burst: Int, window: Millis) { self.burst = burst; self.window = window }

    /// The line to log now (with a note of what was held back), or nil to stay quiet.
    public mutating func admit(_ line: String, now: EventTime) -> String? {
        if let start = windowStart, now - start < window {
            guard passed < burst else { suppressed += 1; return nil }
            passed += 1
            return line
        }
        windowStart = now
        passed = 1
        let held = suppressed
        suppressed = 0
        guard held > 0 else { return line }
        return line + " (\(held) similar line\(held == 1 ? "" : "s") suppressed in the last \(window))"
    }
}

/// Makes text that came from outside (a client's process name, a device's
/// name) safe for one log line or one terminal line: control characters,
/// including newlines and the escape that starts terminal sequences, and
/// invisible format characters (bidi overrides, zero-width spaces) become
/// visible `\n`, `\t`, `\u{1b}`, `\u{202e}` escapes, and the result is cut at
/// `maxCharacters`. Bytes that were not UTF-8 were decoded as U+FFFD (�) and
/// stay so: visible, and no longer able to start a terminal sequence.
public func sanitizedForLog(_ text: some StringProtocol, maxCharacters: Int = 200) -> String {
    var out = ""
    var count = 0
    for scalar in text.unicodeScalars {
        if count >= maxCharacters { out += "…"; break }
        switch scalar.value {
        case 0x0A: out += "\\n"
        case 0x0D: out += "\\r"
        case 0x09: out += "\\t"
        case 0x5C: out += "\\\\"
        case 0x00..<0x20, 0x7F..<0xA0, 0x2028, 0x2029:
            // C0/C1 controls and line separators.
            out += "\\u{\(String(scalar.value, radix: 16))}"
        default:
            // Format characters are invisible or reorder what follows: bidi
            // overrides (U+202E), zero-width spaces and joiners (U+200B), marks.
            if scalar.properties.generalCategory == .format {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        count += 1
    }
    return out
}
