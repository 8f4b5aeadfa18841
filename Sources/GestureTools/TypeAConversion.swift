import GestureCore
import GestureDaemon
import LinuxInput

/// Type A recordings (no slots) must be turned into slots before the decoder.
/// The live reader does it through libmtdev; so does replay, with the same
/// converter set up from the recorded description.
public enum TypeAConversion {
    public static func convert(device: DeviceDescription, events: [RawEvent]) throws -> (DeviceDescription, [RawEvent])
    {
        do {
            return try convertTypeA(events: events, device: device)
        } catch {
            throw Replay.Failure("'\(device.name)' is a type A device; libmtdev could not be set up for it: \(error)")
        }
    }
}
