import GestureCore
import Glibc
import LinuxSystem

/// sd_notify(3) without libsystemd: one datagram per message to the socket in
/// `$NOTIFY_SOCKET` (a path, or `@name` in the abstract namespace). Outside
/// systemd there is no socket and every call does nothing.
public final class SystemdNotifier {
    public let socketPath: String?
    private let fd: Int32
    /// Half of `$WATCHDOG_USEC`, when systemd expects keep-alive pings from us.
    public let watchdogInterval: Millis?
    private let log: Logger

    public init(environment: [String: String], log: Logger) {
        self.log = log
        if let usec = environment["WATCHDOG_USEC"].flatMap(Int64.init), usec > 0,
            environment["WATCHDOG_PID"].flatMap(Int32.init).map({ $0 == getpid() }) ?? true
        {
            watchdogInterval = Millis(Double(usec) / 2000)
        } else {
            watchdogInterval = nil
        }
        if let path = environment["NOTIFY_SOCKET"], path.hasPrefix("/") || path.hasPrefix("@") {
            socketPath = path
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        } else {
            socketPath = nil
            fd = -1
        }
        // Nothing we start should talk to systemd in our name.
        unsetenv("NOTIFY_SOCKET")
        unsetenv("WATCHDOG_USEC")
        unsetenv("WATCHDOG_PID")
    }

    deinit { if fd >= 0 { close(fd) } }

    public var isActive: Bool { fd >= 0 }

    /// Sends `KEY=value` lines as one datagram.
    public func send(_ lines: String...) {
        guard fd >= 0, let socketPath else { return }
        let message = Array(lines.joined(separator: "\n").utf8)
        do {
            let n = try SocketSys.withAddress(socketPath) { addr, len in
                message.withUnsafeBytes {
                    sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT), addr, len)
                }
            }
            if n < 0 { log.warning(.system, "sd_notify to \(socketPath): \(String(cString: strerror(errno)))") }
        } catch {
            log.warning(.system, "sd_notify: \(error)")
        }
    }

    public func ready(status: String) { send("READY=1", "STATUS=\(status)") }
    public func status(_ s: String) { send("STATUS=\(s)") }
    public func stopping() { send("STOPPING=1", "STATUS=stopping") }
    public func watchdog() { send("WATCHDOG=1") }
    /// RELOADING=1 carries the CLOCK_MONOTONIC time, as systemd ≥ 253 wants it.
    public func reloading() {
        send("RELOADING=1", "MONOTONIC_USEC=\(monotonicNow().microseconds)", "STATUS=reloading the configuration")
    }
}
