import CLibudev
import Glibc
import LinuxSystem

/// What udev says about one node of the `input` subsystem, copied out of the
/// `udev_device` so nothing outlives its reference.
public struct InputNode: Hashable, Sendable {
    /// `/sys/devices/…/input/input7/event5`: the identity used to dedupe.
    public var syspath: String
    /// `event5`, `input7`, `mouse0`…
    public var sysname: String
    /// `/dev/input/event5`, when the node has one.
    public var devnode: String?
    /// The character device number (`dev_t`), 0 when there is none.
    public var devnum: UInt64
    /// Whether udev has run its rules over it (and set ID_INPUT_*).
    public var isInitialized: Bool
    /// The udev properties (ID_INPUT_TOUCHSCREEN, LIBINPUT_CALIBRATION_MATRIX…).
    public var properties: [String: String]
    /// Name and ids of the parent input device (sysfs `name`, `id/vendor`, `id/product`).
    public var name: String
    public var vendor: UInt16
    public var product: UInt16

    public init(syspath: String, sysname: String, devnode: String? = nil, devnum: UInt64 = 0,
                isInitialized: Bool = true, properties: [String: String] = [:], name: String = "",
                vendor: UInt16 = 0, product: UInt16 = 0) {
        self.syspath = syspath; self.sysname = sysname; self.devnode = devnode; self.devnum = devnum
        self.isInitialized = isInitialized; self.properties = properties; self.name = name
        self.vendor = vendor; self.product = product
    }

    public var isEventNode: Bool { sysname.hasPrefix("event") }
    public func flag(_ property: String) -> Bool { properties[property] == "1" }
}

/// A udev add/remove/change from the monitor.
public struct InputNodeEvent: Sendable {
    public enum Action: String, Sendable { case add, remove, change, bind, unbind, other }
    public var action: Action
    public var node: InputNode
}

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
               let dev = udev_device_new_from_syspath(handle, path) {
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
        if r < 0 { udev_monitor_unref(m); throw Errno(rawValue: -r) }
        r = udev_monitor_enable_receiving(m)
        if r < 0 { udev_monitor_unref(m); throw Errno(rawValue: -r) }
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
        return .event(InputNodeEvent(action: InputNodeEvent.Action(rawValue: actionName) ?? .other,
                                     node: InputNode(dev)))
    }
}

extension InputNode {
    init(_ dev: OpaquePointer) {
        func str(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }
        syspath = str(udev_device_get_syspath(dev)) ?? ""
        sysname = str(udev_device_get_sysname(dev)) ?? ""
        devnode = str(udev_device_get_devnode(dev))
        devnum = UInt64(udev_device_get_devnum(dev))
        isInitialized = udev_device_get_is_initialized(dev) > 0
        var props: [String: String] = [:]
        var entry = udev_device_get_properties_list_entry(dev)
        while let current = entry {
            if let k = str(udev_list_entry_get_name(current)) {
                props[k] = str(udev_list_entry_get_value(current)) ?? ""
            }
            entry = udev_list_entry_get_next(current)
        }
        properties = props
        // The event node's parent (inputN) carries the name and ids in sysfs.
        name = ""; vendor = 0; product = 0
        if let parent = udev_device_get_parent_with_subsystem_devtype(dev, "input", nil) {
            name = str(udev_device_get_sysattr_value(parent, "name")) ?? ""
            vendor = str(udev_device_get_sysattr_value(parent, "id/vendor")).flatMap { UInt16($0.trimmingNewline, radix: 16) } ?? 0
            product = str(udev_device_get_sysattr_value(parent, "id/product")).flatMap { UInt16($0.trimmingNewline, radix: 16) } ?? 0
        }
        if name.isEmpty, let n = props["NAME"] { name = n.unquotedName }
    }
}

extension String {
    var trimmingNewline: String {
        var s = Substring(self)
        while let l = s.last, l == "\n" || l == " " { s = s.dropLast() }
        return String(s)
    }
    /// udev's NAME property is quoted: `"Atmel maXTouch"`.
    var unquotedName: String {
        count >= 2 && hasPrefix("\"") && hasSuffix("\"") ? String(dropFirst().dropLast()) : self
    }
}
