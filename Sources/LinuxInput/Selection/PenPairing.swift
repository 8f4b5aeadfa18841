/// Which pen node belongs to which touchscreen: the tablet node of the same
/// physical device, as libinput pairs them for touch arbitration
/// (`tablet_setup_touch_arbitration`: same `libinput_device_group`). Pure, from
/// udev's properties and syspaths.
public enum PenPairing {
    /// The udev property libinput's device groups come from (set by its
    /// `libinput-device-group` helper, or by a local udev rule).
    public static let groupProperty = "LIBINPUT_DEVICE_GROUP"

    /// A pen/stylus node: udev tags it ID_INPUT_TABLET, and it is neither a
    /// touchscreen nor a tablet's pad of buttons.
    public static func isPen(_ node: InputNode) -> Bool {
        node.isEventNode && node.isInitialized && node.flag("ID_INPUT_TABLET") && !node.flag("ID_INPUT_TABLET_PAD")
            && !node.flag("ID_INPUT_TOUCHSCREEN")
    }

    /// The device that holds the node's `inputN`: `/sys/devices/…/0018:056A:5146.0001`
    /// for `/sys/devices/…/0018:056A:5146.0001/input/input7/event5`. Virtual
    /// devices (uinput) share one parent for all of them: none.
    public static func parent(of node: InputNode) -> String? {
        let parts = node.syspath.split(separator: "/")
        guard
            let i = parts.indices.dropLast().last(where: { parts[$0] == "input" && parts[$0 + 1].hasPrefix("input") })
        else { return nil }
        let parent = "/" + parts[..<i].joined(separator: "/")
        if parent.isEmpty || parent == "/sys/devices/virtual" || parent.hasPrefix("/sys/devices/virtual/") {
            return nil
        }
        return parent
    }

    /// The two nodes are one physical device: the same LIBINPUT_DEVICE_GROUP when
    /// both have one, else the same parent device.
    public static func sameDevice(_ a: InputNode, _ b: InputNode) -> Bool {
        if let ga = a.properties[groupProperty], let gb = b.properties[groupProperty], !ga.isEmpty, !gb.isEmpty {
            return ga == gb
        }
        guard let pa = parent(of: a), let pb = parent(of: b) else { return false }
        return pa == pb
    }

    /// `pen` is the pen of the touchscreen `screen`.
    public static func pairs(screen: InputNode, pen: InputNode) -> Bool {
        isPen(pen) && screen.syspath != pen.syspath && sameDevice(screen, pen)
    }
}
