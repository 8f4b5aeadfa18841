/// The range of one absolute axis, as `struct input_absinfo` reports it.
public struct AxisInfo: Hashable, Sendable {
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    /// Units per millimetre; 0 when the device does not say.
    public var resolution: Int32

    public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.minimum = minimum; self.maximum = maximum; self.fuzz = fuzz; self.flat = flat
        self.resolution = resolution
    }
    public var span: Int32 { maximum - minimum }
}

/// What the core needs to know of an input device, whether read from a kernel
/// node through libevdev or from a recording's description lines.
public struct DeviceDescription: Hashable, Sendable {
    public var name: String
    public var bus: UInt16 = 0
    public var vendor: UInt16 = 0
    public var product: UInt16 = 0
    public var version: UInt16 = 0
    /// Absolute axes by code.
    public var axes: [UInt16: AxisInfo] = [:]
    /// Key codes the device reports.
    public var keys: Set<UInt16> = []
    /// INPUT_PROP_* bits set.
    public var properties: Set<Int> = []

    public init(name: String) { self.name = name }

    public var hasSlots: Bool { axes[ABS.MT_SLOT] != nil }
    public var slotCount: Int { axes[ABS.MT_SLOT].map { Int($0.maximum) + 1 } ?? 1 }
    public var isMultitouch: Bool { axes[ABS.MT_POSITION_X] != nil && axes[ABS.MT_POSITION_Y] != nil }
    /// Type A: multitouch positions without slots (SYN_MT_REPORT framing).
    public var isTypeA: Bool { isMultitouch && !hasSlots }
    public var xAxis: AxisInfo? { axes[ABS.MT_POSITION_X] ?? axes[ABS.X] }
    public var yAxis: AxisInfo? { axes[ABS.MT_POSITION_Y] ?? axes[ABS.Y] }
    /// A pen or stylus node: it has pen tool keys. Such nodes are not touchscreens.
    public var isPen: Bool { keys.contains(BTN.TOOL_PEN) || keys.contains(BTN.STYLUS) }
    public var vendorProduct: String { hex4(vendor) + ":" + hex4(product) }
}

func hex4(_ v: UInt16) -> String {
    let s = String(v, radix: 16)
    return String(repeating: "0", count: max(0, 4 - s.count)) + s
}
