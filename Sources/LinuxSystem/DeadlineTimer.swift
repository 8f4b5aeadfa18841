import CLinux
import GestureCore
import Glibc

/// One timerfd on CLOCK_MONOTONIC, armed at an absolute deadline: the one
/// timer of the daemon. With no deadline it is disarmed, so an idle daemon has
/// no periodic wakeups.
public final class DeadlineTimer {
    public let fd: FileDescriptor
    /// The deadline it is armed at, if any.
    public private(set) var deadline: EventTime?

    public init() throws(Errno) {
        let fd = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard fd >= 0 else { throw Errno.current }
        self.fd = FileDescriptor(rawValue: fd)
    }

    deinit { fd.close() }

    /// Arms the timer at `deadline` (absolute, CLOCK_MONOTONIC) or disarms it
    /// with nil. Does nothing when the deadline is unchanged. A deadline in the
    /// past fires at once.
    public func arm(at deadline: EventTime?) throws(Errno) {
        guard deadline != self.deadline else { return }
        var spec = itimerspec()
        if let deadline {
            // Zero would disarm: the earliest real deadline is 1 ns.
            let us = max(deadline.microseconds, 0)
            spec.it_value.tv_sec = Int(us / 1_000_000)
            spec.it_value.tv_nsec = Int(us % 1_000_000) * 1000
            if spec.it_value.tv_sec == 0 && spec.it_value.tv_nsec == 0 { spec.it_value.tv_nsec = 1 }
        }
        _ = try retryingOnInterrupt { timerfd_settime(fd.rawValue, Int32(TFD_TIMER_ABSTIME), &spec, nil) }
        self.deadline = deadline
    }

    /// Reads the expiry count after the fd polled readable; returns true if the
    /// timer had expired (false for a spurious wakeup after re-arming).
    @discardableResult
    public func acknowledge() -> Bool {
        var expirations: UInt64 = 0
        let n = withUnsafeMutableBytes(of: &expirations) { buf in
            try? fd.read(into: buf)
        }
        guard n == 8 else { return false }
        deadline = nil
        return true
    }
}
