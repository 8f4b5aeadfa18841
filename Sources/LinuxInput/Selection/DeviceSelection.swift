import GestureCore

/// Why a node of the input subsystem is not used.
public enum SkipReason: Hashable, Sendable, CustomStringConvertible {
    /// `inputN`, `mouseN`, `jsN`: only `eventN` nodes carry evdev.
    case notAnEventNode
    /// udev has not run its rules yet; its "add" comes later.
    case uninitialized
    /// A `[[device]]` rule says `use = false`.
    case deniedByConfig(rule: String)
    /// A pen, stylus or tablet node (ID_INPUT_TABLET, or pen tool keys).
    case pen
    /// udev does not tag it ID_INPUT_TOUCHSCREEN; what it is instead.
    case notATouchscreen(kind: String)
    /// No X/Y axes to read positions from.
    case noPositionAxes
    /// The node could not be opened or read.
    case cannotOpen(String)
    /// gestured's uinput twin of an exclusive device (NODE): the apps read it,
    /// gestured reads the device itself.
    case exclusiveTwin(of: String)

    public var description: String {
        switch self {
        case .notAnEventNode: "not an event node"
        case .uninitialized: "not initialized by udev yet"
        case .deniedByConfig(let rule): "denied by config (\(rule))"
        case .pen: "pen/tablet node"
        case .notATouchscreen(let kind): "not a touchscreen (\(kind))"
        case .noPositionAxes: "no X/Y axes"
        case .cannotOpen(let why): "cannot open: \(why)"
        case .exclusiveTwin(let node): "gestured's twin of \(node) (exclusive)"
        }
    }

    /// A short machine-readable word for `--json`.
    public var code: String {
        switch self {
        case .notAnEventNode: "not-event-node"
        case .uninitialized: "uninitialized"
        case .deniedByConfig: "denied-by-config"
        case .pen: "pen"
        case .notATouchscreen: "not-touchscreen"
        case .noPositionAxes: "no-position-axes"
        case .cannotOpen: "cannot-open"
        case .exclusiveTwin: "exclusive-twin"
        }
    }
}

/// Which input nodes the daemon uses: udev's classification plus the config's
/// `[[device]]` allow (`use = true`) and deny (`use = false`) rules, matched by
/// name, vendor:product or syspath. Pure, so it is tested without /dev/input;
/// the daemon and `gesturectl devices` share it.
public enum DeviceSelection {
    /// The part decided from udev alone, before opening the node.
    public static func check(_ node: InputNode, configuration: Configuration) -> SkipReason? {
        guard node.isEventNode else { return .notAnEventNode }
        guard node.isInitialized else { return .uninitialized }
        let rule = configuration.rule(for: node.matchDescription, syspath: node.syspath)
        if let rule, rule.use == false { return .deniedByConfig(rule: rule.match.summary) }
        // udev's heuristics tag some older touchscreens (BTN_TOUCH, no
        // INPUT_PROP_DIRECT, no pen tools: N-Trig) as both tablet and
        // touchscreen; those are touchscreens, and the pen-key check after
        // opening catches real pens.
        if node.flag("ID_INPUT_TABLET_PAD") { return .pen }
        if node.flag("ID_INPUT_TABLET") && !node.flag("ID_INPUT_TOUCHSCREEN") { return .pen }
        if !node.flag("ID_INPUT_TOUCHSCREEN") && rule?.use != true {
            return .notATouchscreen(kind: node.udevKind)
        }
        return nil
    }

    /// The part decided from what libevdev reports once the node is open.
    public static func check(_ device: DeviceDescription) -> SkipReason? {
        if device.isPen { return .pen }
        if device.xAxis == nil || device.yAxis == nil { return .noPositionAxes }
        return nil
    }
}

extension InputNode {
    /// Name and ids as a `DeviceDescription`, for matching config rules before
    /// the node is opened.
    public var matchDescription: DeviceDescription {
        var d = DeviceDescription(name: name)
        d.vendor = vendor
        d.product = product
        return d
    }

    /// What udev thinks this node is, in words, from its ID_INPUT_* tags.
    public var udevKind: String {
        let kinds: [(String, String)] = [
            ("ID_INPUT_KEYBOARD", "keyboard"), ("ID_INPUT_MOUSE", "mouse"),
            ("ID_INPUT_TOUCHPAD", "touchpad"), ("ID_INPUT_JOYSTICK", "joystick"),
            ("ID_INPUT_ACCELEROMETER", "accelerometer"), ("ID_INPUT_SWITCH", "switch"),
            ("ID_INPUT_POINTINGSTICK", "pointing stick"), ("ID_INPUT_TRACKBALL", "trackball"),
        ]
        let found = kinds.filter { flag($0.0) }.map(\.1)
        if !found.isEmpty { return found.joined(separator: ", ") }
        if flag("ID_INPUT_KEY") { return "keys" }
        return flag("ID_INPUT") ? "no ID_INPUT_TOUCHSCREEN" : "not an input device udev classified"
    }
}

extension DeviceMatch {
    /// The rule as the user wrote it, for messages.
    public var summary: String {
        var parts: [String] = []
        if let name { parts.append("match = \"\(name)\"") }
        if let vendorProduct { parts.append("vendor_product = \"\(vendorProduct)\"") }
        if let syspath { parts.append("syspath = \"\(syspath)\"") }
        return parts.joined(separator: ", ")
    }
}
