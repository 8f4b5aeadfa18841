import CLibevdev
import GestureCore
import Glibc
import LinuxSystem

/// The uinput copy of an exclusive touchscreen that the compositor reads
/// instead of it: made by libevdev from the opened device (same name, IDs,
/// properties, axes with their ranges and resolution, slots), plus
/// ABS_MT_TOOL_TYPE when the device lacks it, so that a touch can end as a
/// palm (`TwinRelay.withToolType`). The device itself is grabbed (EVIOCGRAB):
/// its events come to gestured alone.
///
/// Both go with gestured's descriptors: when it exits, is killed or crashes,
/// the kernel drops the grab and destroys the twin, and the compositor sees
/// the touchscreen itself again, with the twin's touches ended by its removal.
public final class UinputTwin {
    private let uidev: OpaquePointer
    private let device: EvdevDevice
    /// The twin's input device in sysfs (`/sys/devices/virtual/input/inputN`):
    /// its event node is gestured's own and never opened as a touchscreen.
    public let syspath: String?
    public let devnode: String?
    private var destroyed = false
    private var buffer: [input_event] = []

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var step: String
        public var errno: Errno
        public var description: String { "\(step): \(errno)" }
    }

    /// Makes the twin of `device`, then grabs the device. Nothing is left
    /// behind when either fails.
    public init(of device: EvdevDevice) throws(Failure) {
        self.device = device
        let dev = device.libevdev
        if libevdev_has_event_code(dev, UInt32(EV.ABS), UInt32(ABS.MT_SLOT)) != 0
            && libevdev_has_event_code(dev, UInt32(EV.ABS), UInt32(ABS.MT_TOOL_TYPE)) == 0
        {
            var tool = input_absinfo(value: 0, minimum: 0, maximum: MTTool.palm, fuzz: 0, flat: 0, resolution: 0)
            // Only libevdev's copy learns the axis: the kernel never sends it for this device.
            _ = libevdev_enable_event_code(dev, UInt32(EV.ABS), UInt32(ABS.MT_TOOL_TYPE), &tool)
        }
        var ui: OpaquePointer?
        let rc = libevdev_uinput_create_from_device(dev, Int32(LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue), &ui)
        guard rc == 0, let ui else { throw Failure(step: "create the uinput twin", errno: Errno(rawValue: -rc)) }
        let grab = libevdev_grab(dev, LIBEVDEV_GRAB)
        if grab != 0 {
            libevdev_uinput_destroy(ui)
            throw Failure(step: "grab the device (EVIOCGRAB)", errno: Errno(rawValue: -grab))
        }
        uidev = ui
        syspath = libevdev_uinput_get_syspath(ui).map { String(cString: $0) }
        devnode = libevdev_uinput_get_devnode(ui).map { String(cString: $0) }
        buffer.reserveCapacity(64)
    }

    deinit { destroy() }

    /// Writes a run of events (whole frames) in one write(2): the kernel
    /// delivers each frame to the twin's readers at its SYN_REPORT.
    public func write(_ events: [RawEvent]) throws(Errno) {
        guard !destroyed, !events.isEmpty else { return }
        buffer.removeAll(keepingCapacity: true)
        for e in events {
            var ev = input_event()
            ev.type = e.type
            ev.code = e.code
            ev.value = e.value
            buffer.append(ev)
        }
        let fd = FileDescriptor(rawValue: libevdev_uinput_get_fd(uidev))
        let failure = buffer.withUnsafeBytes { bytes -> Errno? in
            do throws(Errno) {
                try fd.writeAll(bytes)
                return nil
            } catch { return error }
        }
        if let failure { throw failure }
    }

    /// Lets the device go and removes the twin, once. Closing the device's
    /// descriptor drops the grab as well.
    public func destroy() {
        guard !destroyed else { return }
        destroyed = true
        _ = libevdev_grab(device.libevdev, LIBEVDEV_UNGRAB)
        libevdev_uinput_destroy(uidev)
    }
}
