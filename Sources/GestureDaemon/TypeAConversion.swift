import GestureCore

/// Type A recordings (no slots) must be turned into slots before the decoder.
/// The live reader does it through libmtdev; so must replay.
public enum TypeAConversion {
    public static func convert(device: DeviceDescription, events: [RawEvent]) throws -> (DeviceDescription, [RawEvent]) {
        throw Replay.Failure("'\(device.name)' is a type A device (no ABS_MT_SLOT); replaying it needs libmtdev conversion, which this build lacks")
    }
}
