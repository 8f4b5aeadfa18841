/// The range of one absolute axis, as `struct input_absinfo` reports it.
public struct AxisInfo: Hashable, Sendable {
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    /// Units per millimetre; 0 when the device does not say.
    public var resolution: Int32

    public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }
    /// `maximum - minimum`, in 64 bits: a device may declare any 32-bit range,
    /// and −2³¹…2³¹−1 does not fit in 32. An inverted range (maximum below
    /// minimum) has no span: 0.
    public var span: Int64 { max(0, Int64(maximum) - Int64(minimum)) }
    /// True when the axis has a usable range.
    public var isUsable: Bool { maximum > minimum }
    /// True when `value` lies in the declared range.
    @inline(__always)
    public func contains(_ value: Int32) -> Bool { value >= minimum && value <= maximum }
    /// `value` brought into the declared range.
    @inline(__always)
    public func clamp(_ value: Int32) -> Int32 { maximum > minimum ? min(max(value, minimum), maximum) : minimum }
    /// Where `value` lies in the declared range, 0…1 (values outside it are
    /// clamped to its ends; an axis without a range gives 0).
    @inline(__always)
    public func fraction(_ value: Int32) -> Double {
        guard maximum > minimum else { return 0 }
        return Double(Int64(clamp(value)) - Int64(minimum)) / Double(span)
    }
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
    /// Slots the device declares (ABS_MT_SLOT's maximum + 1), at least 1.
    public var slotCount: Int { axes[ABS.MT_SLOT].map { max(1, Int($0.maximum) + 1) } ?? 1 }
    public var isMultitouch: Bool { axes[ABS.MT_POSITION_X] != nil && axes[ABS.MT_POSITION_Y] != nil }
    /// Type A: multitouch positions without slots (SYN_MT_REPORT framing).
    public var isTypeA: Bool { isMultitouch && !hasSlots }
    public var xAxis: AxisInfo? { axes[ABS.MT_POSITION_X] ?? axes[ABS.X] }
    public var yAxis: AxisInfo? { axes[ABS.MT_POSITION_Y] ?? axes[ABS.Y] }
    /// A pen or stylus node: it has pen tool keys. Such nodes are not touchscreens.
    public var isPen: Bool { keys.contains(BTN.TOOL_PEN) || keys.contains(BTN.STYLUS) }
    public var vendorProduct: String { hex4(vendor) + ":" + hex4(product) }

    /// What is odd about the position axes, for a warning: an empty or inverted
    /// range (every position on that axis reads as its minimum edge) or a
    /// negative resolution (ignored, as none). Nil when nothing is.
    public var axisProblems: String? {
        var problems: [String] = []
        for (label, axis) in [("X", xAxis), ("Y", yAxis)] {
            guard let axis else { continue }
            if !axis.isUsable {
                problems.append(
                    "its \(label) axis has no range (\(axis.minimum)…\(axis.maximum)); positions on it read as 0")
            }
            if axis.resolution < 0 {
                problems.append("its \(label) axis reports a negative resolution (\(axis.resolution)); ignored")
            }
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }
}

func hex4(_ v: UInt16) -> String {
    let s = String(v, radix: 16)
    return String(repeating: "0", count: max(0, 4 - s.count)) + s
}
