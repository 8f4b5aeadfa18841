import CLibudev
import Glibc
import LinuxSystem

/// A netlink monitor of udev's `input` events. Create it (and so start
/// listening) before enumerating, so that nothing added in between is missed.
public final class UdevMonitor {
    let handle: OpaquePointer
    public let udev: Udev

    public init(udev: Udev) throws(Errno) {
        self.udev = udev
        guard let m = udev_monitor_new_from_netlink(udev.handle, "udev") else { throw Errno.current }
        handle = m
        var r = udev_monitor_filter_add_match_subsystem_devtype(m, "input", nil)
        if r < 0 {
            udev_monitor_unref(m)
            throw Errno(rawValue: -r)
        }
        r = udev_monitor_enable_receiving(m)
        if r < 0 {
            udev_monitor_unref(m)
            throw Errno(rawValue: -r)
        }
    }

    deinit { udev_monitor_unref(handle) }

    /// The monitor's socket, non-blocking: poll it for readability.
    public var fileDescriptor: FileDescriptor { FileDescriptor(rawValue: udev_monitor_get_fd(handle)) }

    public enum Received: Sendable {
        case event(InputNodeEvent)
        /// Nothing more to read now.
        case drained
        /// The kernel dropped messages (ENOBUFS): the caller must re-enumerate.
        case overflow
        case failed(Errno)
    }

    /// Throws away every message queued on the socket, unread. After a receive
    /// error that would recur, this is what keeps the level-triggered descriptor
    /// from polling readable forever; what was lost is recovered by listing
    /// the devices again. At most `limit` messages, so a flood cannot hold the loop.
    @discardableResult
    public func discardPending(limit: Int = 1024) -> Int {
        FileDescriptor(rawValue: udev_monitor_get_fd(handle)).discardDatagrams(limit: limit)
    }

    /// Receives one message without blocking.
    public func receive() -> Received {
        errno = 0
        guard let dev = udev_monitor_receive_device(handle) else {
            let e = Errno.current
            switch e {
            case .noBufferSpace: return .overflow
            case .wouldBlock, Errno(rawValue: 0): return .drained
            case .interrupted: return .drained
            default: return .failed(e)
            }
        }
        defer { udev_device_unref(dev) }
        let actionName = udev_device_get_action(dev).map { String(cString: $0) } ?? "other"
        return .event(
            InputNodeEvent(
                action: InputNodeEvent.Action(rawValue: actionName) ?? .other,
                node: InputNode(dev)))
    }
}
