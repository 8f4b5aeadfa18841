import CLibudev
import Glibc
import LinuxSystem

/// The libudev context. One per process is enough; it is not thread-safe.
public final class Udev {
    let handle: OpaquePointer

    public init() throws(Errno) {
        guard let h = udev_new() else { throw Errno.current }
        handle = h
    }

    deinit { udev_unref(handle) }

    /// Every node of the `input` subsystem udev knows now, initialized or not.
    public func enumerateInput() throws(Errno) -> [InputNode] {
        guard let e = udev_enumerate_new(handle) else { throw Errno.current }
        defer { udev_enumerate_unref(e) }
        var r = udev_enumerate_add_match_subsystem(e, "input")
        if r < 0 { throw Errno(rawValue: -r) }
        r = udev_enumerate_scan_devices(e)
        if r < 0 { throw Errno(rawValue: -r) }
        var nodes: [InputNode] = []
        var entry = udev_enumerate_get_list_entry(e)
        while let current = entry {
            if let path = udev_list_entry_get_name(current),
                let dev = udev_device_new_from_syspath(handle, path)
            {
                nodes.append(InputNode(dev))
                udev_device_unref(dev)
            }
            entry = udev_list_entry_get_next(current)
        }
        return nodes
    }

    /// The syspath of the character device with this number, as udev sees it now.
    public func syspath(ofCharacterDevice devnum: UInt64) -> String? {
        guard let dev = udev_device_new_from_devnum(handle, CChar(UInt8(ascii: "c")), dev_t(devnum)) else {
            return nil
        }
        defer { udev_device_unref(dev) }
        return udev_device_get_syspath(dev).map { String(cString: $0) }
    }

    /// The node at a syspath, if it still exists.
    public func node(syspath: String) -> InputNode? {
        guard let dev = udev_device_new_from_syspath(handle, syspath) else { return nil }
        defer { udev_device_unref(dev) }
        return InputNode(dev)
    }
}
