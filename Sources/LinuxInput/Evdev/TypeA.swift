import CMtdev
import GestureCore
import Glibc
import LinuxSystem

/// Type A devices (SYN_MT_REPORT framing, no slots) go through libmtdev, which
/// tracks contacts and re-emits them as type B slots, as libinput does. Used by
/// the live reader (configured from the fd) and by replay (configured from a
/// recorded description).
public final class MtdevConverter {
    /// Slots given to a converted device: libinput's choice for mtdev devices.
    /// mtdev hands out the lowest free slot, so ten fingers fit.
    public static let slotCount: Int32 = 10

    private let dev: UnsafeMutablePointer<mtdev>
    private var out = input_event()

    /// For a live device: mtdev reads the axes from the kernel through `fd`.
    public init(fd: FileDescriptor) throws(Errno) {
        guard let d = mtdev_new() else { throw Errno(rawValue: ENOMEM) }
        let r = mtdev_open(d, fd.rawValue)
        if r < 0 {
            mtdev_delete(d)
            throw Errno(rawValue: -r)
        }
        dev = d
    }

    /// For a recording: the same set-up `mtdev_configure` does, from a description.
    public init(description: DeviceDescription) throws(Errno) {
        guard let d = mtdev_new() else { throw Errno(rawValue: ENOMEM) }
        let r = mtdev_init(d)
        if r < 0 {
            mtdev_delete(d)
            throw Errno(rawValue: -r)
        }
        dev = d
        for code in mtAxes {
            guard let a = description.axes[code] else { continue }
            let c = Int32(code)
            mtdev_set_mt_event(d, c, 1)
            mtdev_set_abs_minimum(d, c, a.minimum)
            mtdev_set_abs_maximum(d, c, a.maximum)
            mtdev_set_abs_fuzz(d, c, a.fuzz)
            mtdev_set_abs_resolution(d, c, a.resolution)
        }
        // mtdev_configure sets these itself; the plumbing API leaves them to us.
        d.pointee.caps.has_mtdata = description.isMultitouch ? 1 : 0
        if description.axes[ABS.MT_TRACKING_ID] == nil {
            mtdev_set_abs_minimum(d, Int32(ABS.MT_TRACKING_ID), 0)
            mtdev_set_abs_maximum(d, Int32(ABS.MT_TRACKING_ID), 65535)
        }
        for (code, signalToNoise) in defaultFuzz {
            guard let a = description.axes[code], a.fuzz == 0 else { continue }
            // In 64 bits: a declared range may be wider than Int32 can hold.
            mtdev_set_abs_fuzz(d, Int32(code), Int32(clamping: a.span / Int64(signalToNoise)))
        }
    }

    deinit { mtdev_close_delete(dev) }

    /// Puts one type A event in; at each SYN_REPORT hands out the type B events
    /// of that frame.
    @inline(__always)
    public func put(_ e: RawEvent, _ emit: (RawEvent) -> Void) {
        // libmtdev indexes its axis tables by the code: an absolute axis beyond
        // ABS_MAX (which no kernel sends, but a recording may hold) would be read
        // out of bounds. Such an event names no axis; it is dropped.
        if e.type == EV.ABS && e.code > ABS.MAX { return }
        var ev = input_event()
        ev.time.tv_sec = Int(e.time.microseconds / 1_000_000)
        ev.time.tv_usec = Int(e.time.microseconds % 1_000_000)
        ev.type = e.type
        ev.code = e.code
        ev.value = e.value
        mtdev_put_event(dev, &ev)
        guard e.type == EV.SYN && e.code == SYN.REPORT else { return }
        while mtdev_empty(dev) == 0 {
            mtdev_get_event(dev, &out)
            emit(
                RawEvent(
                    time: EventTime(seconds: Int64(out.time.tv_sec), microseconds: Int64(out.time.tv_usec)),
                    type: out.type, code: out.code, value: out.value))
        }
    }
}

/// The ABS_MT axes mtdev knows (MT_SLOT_ABS_EVENTS, plus distance).
private let mtAxes: [UInt16] = [0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x3b]

/// mtdev's default fuzz (axis range / signal-to-noise) for axes that report none.
private let defaultFuzz: [(UInt16, Int32)] = [
    (0x35, 250), (0x36, 250),  // position x, y
    (0x30, 100), (0x31, 100), (0x32, 100), (0x33, 100),  // touch/width major/minor
    (0x34, 10),  // orientation
]

extension DeviceDescription {
    /// The description a type A device has once libmtdev turned it into slots:
    /// ABS_MT_SLOT with `MtdevConverter.slotCount` slots and tracking IDs.
    public var convertedToSlots: DeviceDescription {
        var d = self
        d.axes[ABS.MT_SLOT] = AxisInfo(minimum: 0, maximum: MtdevConverter.slotCount - 1)
        if d.axes[ABS.MT_TRACKING_ID] == nil {
            d.axes[ABS.MT_TRACKING_ID] = AxisInfo(minimum: 0, maximum: 65535)
        }
        return d
    }
}

/// Turns the events of a type A recording into the type B events libmtdev
/// would deliver live, and the description into a slotted one. Non-type-A
/// input is returned unchanged.
public func convertTypeA(events: [RawEvent], device: DeviceDescription) throws(Errno) -> (DeviceDescription, [RawEvent])
{
    guard device.isTypeA else { return (device, events) }
    let converter = try MtdevConverter(description: device)
    var out: [RawEvent] = []
    out.reserveCapacity(events.count)
    for e in events {
        converter.put(e) { out.append($0) }
    }
    return (device.convertedToSlots, out)
}
