import CLibudev
import Glibc

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

    public init(
        syspath: String, sysname: String, devnode: String? = nil, devnum: UInt64 = 0,
        isInitialized: Bool = true, properties: [String: String] = [:], name: String = "",
        vendor: UInt16 = 0, product: UInt16 = 0
    ) {
        self.syspath = syspath
        self.sysname = sysname
        self.devnode = devnode
        self.devnum = devnum
        self.isInitialized = isInitialized
        self.properties = properties
        self.name = name
        self.vendor = vendor
        self.product = product
    }

    public var isEventNode: Bool { sysname.hasPrefix("event") }
    public func flag(_ property: String) -> Bool { properties[property] == "1" }
}

/// A udev add/remove/change from the monitor.
public struct InputNodeEvent: Sendable {
    public enum Action: String, Sendable { case add, remove, change, bind, unbind, other }
    public var action: Action
    public var node: InputNode
    public init(action: Action, node: InputNode) {
        self.action = action
        self.node = node
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
        name = ""
        vendor = 0
        product = 0
        if let parent = udev_device_get_parent_with_subsystem_devtype(dev, "input", nil) {
            name = str(udev_device_get_sysattr_value(parent, "name")) ?? ""
            vendor =
                str(udev_device_get_sysattr_value(parent, "id/vendor")).flatMap {
                    UInt16($0.trimmingNewline, radix: 16)
                } ?? 0
            product =
                str(udev_device_get_sysattr_value(parent, "id/product")).flatMap {
                    UInt16($0.trimmingNewline, radix: 16)
                } ?? 0
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
