import Glibc

/// How a subscriber asks to be scheduled.
public enum SubscriberScheduling {
    /// Puts the calling process in SCHED_BATCH (children it starts go back to
    /// the normal policy: SCHED_RESET_ON_FORK). A batch process is woken by the
    /// daemon's writes like any other but does not preempt the daemon: gestured
    /// writes to every subscriber of a turn and goes back to sleep, and the
    /// subscribers run then, instead of each one taking the CPU from the daemon
    /// in the middle of its writes (on one CPU, a context switch per subscriber
    /// per turn). Unprivileged; on failure nothing changes.
    @discardableResult
    public static func batch() -> Bool {
        var p = sched_param(sched_priority: 0)
        return sched_setscheduler(0, schedBatch | schedResetOnFork, &p) == 0
    }

    // The kernel's ABI (uapi/linux/sched.h); glibc declares them only under _GNU_SOURCE.
    private static let schedBatch: Int32 = 3
    private static let schedResetOnFork: Int32 = 0x4000_0000
}
