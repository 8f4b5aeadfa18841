/// The few evdev numbers the core decodes (linux/input-event-codes.h).
/// Kept here so the core needs no kernel headers; LinuxInput uses the same values.
public enum EV {
    public static let SYN: UInt16 = 0x00
    public static let KEY: UInt16 = 0x01
    public static let ABS: UInt16 = 0x03
}

public enum SYN {
    public static let REPORT: UInt16 = 0
    public static let MT_REPORT: UInt16 = 2
    public static let DROPPED: UInt16 = 3
}

public enum ABS {
    public static let X: UInt16 = 0x00
    public static let Y: UInt16 = 0x01
    public static let MT_SLOT: UInt16 = 0x2f
    public static let MT_TOUCH_MAJOR: UInt16 = 0x30
    public static let MT_POSITION_X: UInt16 = 0x35
    public static let MT_POSITION_Y: UInt16 = 0x36
    public static let MT_TOOL_TYPE: UInt16 = 0x37
    public static let MT_TRACKING_ID: UInt16 = 0x39
    /// ABS_MAX: the kernel sends no higher absolute axis code.
    public static let MAX: UInt16 = 0x3f
}

public enum BTN {
    public static let TOUCH: UInt16 = 0x14a
    public static let TOOL_PEN: UInt16 = 0x140
    public static let STYLUS: UInt16 = 0x14b
}

public enum MTTool {
    public static let finger: Int32 = 0
    public static let pen: Int32 = 1
    public static let palm: Int32 = 2
}

public enum InputProp {
    public static let direct: Int = 0x01
}

/// One kernel input event: what a `struct input_event` carries.
public struct RawEvent: Hashable, Sendable {
    public var time: EventTime
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(time: EventTime, type: UInt16, code: UInt16, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }
}

/// The pen tools whose proximity keeps a screen's touches from making gestures:
/// BTN_TOOL_PEN, BTN_TOOL_RUBBER, BTN_TOOL_BRUSH, BTN_TOOL_PENCIL,
/// BTN_TOOL_AIRBRUSH (0x140…0x144). A puck (BTN_TOOL_MOUSE, BTN_TOOL_LENS)
/// is not held over a screen.
public enum PenTool {
    public static let codes: ClosedRange<UInt16> = 0x140...0x144
    public static let pen: UInt16 = 0x140
    public static let rubber: UInt16 = 0x141
}
