import GestureCore
import Glibc

/// Now on CLOCK_MONOTONIC, the clock input events are stamped with once
/// `libevdev_set_clock_id(CLOCK_MONOTONIC)` is set.
public func monotonicNow() -> EventTime {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return EventTime(microseconds: Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000)
}
