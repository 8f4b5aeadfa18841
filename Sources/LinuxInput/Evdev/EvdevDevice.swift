import CLibevdev
import GestureCore
import Glibc
import LinuxSystem

/// Where a device's events go: the daemon's per-device pipeline.
public protocol RawEventSink: AnyObject {
    /// One kernel event (type B; type A is converted before it gets here).
    func feed(_ e: RawEvent)
    /// libevdev reported SYN_DROPPED; the events that follow are its resync.
    func beginResync()
}

/// One open evdev node, read through libevdev. Not grabbed, so the compositor
/// keeps its input, unless the config makes it exclusive (`UinputTwin`).
public final class EvdevDevice {
    public let node: InputNode
    public let fd: FileDescriptor
    /// The description as the decoder sees it (slotted, for type A devices
    /// after libmtdev).
    public let description: DeviceDescription
    /// True when the device is type A and goes through libmtdev.
    public let isTypeA: Bool
    private let evdev: OpaquePointer
    /// The libevdev handle, for the device's uinput twin.
    var libevdev: OpaquePointer { evdev }
    private let mtdev: MtdevConverter?
    private var closed = false
    /// How many times the kernel's buffer overflowed (SYN_DROPPED) so far.
    public private(set) var droppedCount = 0

    /// Opens `node.devnode` read-only, non-blocking, close-on-exec; checks it is
    /// still the device udev announced (the node may have been replaced between
    /// the announcement and the open); sets up libevdev on CLOCK_MONOTONIC.
    public init(node: InputNode, udev: Udev) throws(OpenError) {
        guard let path = node.devnode else {
            throw OpenError(step: "open", errno: .noSuchFile, message: "no device node")
        }
        let fd: FileDescriptor
        do { fd = try FileDescriptor.openInputNode(path) } catch {
            throw OpenError(step: "open \(path)", errno: error)
        }
        do {
            let devnum = try fd.deviceNumber()
            let now = udev.syspath(ofCharacterDevice: devnum)
            if devnum != node.devnum || now != node.syspath {
                throw OpenError(
                    step: "verify \(path)", errno: .noSuchFile,
                    message:
                        "the node now belongs to \(now ?? "no device") (device number \(devnum >> 8):\(devnum & 0xff)), not \(node.syspath)"
                )
            }
        } catch let e as OpenError {
            fd.close()
            throw e
        } catch {
            fd.close()
            throw OpenError(step: "fstat \(path)", errno: error as? Errno ?? .badFileDescriptor)
        }
        var dev: OpaquePointer?
        let rc = libevdev_new_from_fd(fd.rawValue, &dev)
        guard rc == 0, let dev else {
            fd.close()
            throw OpenError(step: "libevdev_new_from_fd \(path)", errno: Errno(rawValue: -rc))
        }
        let clock = libevdev_set_clock_id(dev, CLOCK_MONOTONIC)
        if clock != 0 {
            libevdev_free(dev)
            fd.close()
            throw OpenError(step: "libevdev_set_clock_id(CLOCK_MONOTONIC) \(path)", errno: Errno(rawValue: -clock))
        }
        let raw = EvdevDevice.describe(dev)
        var converter: MtdevConverter?
        if raw.isTypeA {
            do { converter = try MtdevConverter(fd: fd) } catch {
                libevdev_free(dev)
                fd.close()
                throw OpenError(step: "mtdev_open \(path)", errno: error)
            }
        }
        self.node = node
        self.fd = fd
        self.evdev = dev
        self.mtdev = converter
        self.isTypeA = raw.isTypeA
        self.description = raw.isTypeA ? raw.convertedToSlots : raw
    }

    deinit { close() }

    /// Frees libevdev/libmtdev state and closes the fd, once.
    public func close() {
        guard !closed else { return }
        closed = true
        libevdev_free(evdev)
        fd.close()
    }

    public struct OpenError: Error, CustomStringConvertible, Sendable {
        public var step: String
        public var errno: Errno
        public var message: String?
        public init(step: String, errno: Errno, message: String? = nil) {
            self.step = step
            self.errno = errno
            self.message = message
        }
        public var description: String { "\(step): \(message ?? errno.description)" }
    }

    /// Tracking IDs per slot as libevdev knows them now (-1 for free slots).
    /// At open, these are the touches already down, which the decoder ignores
    /// until lifted. Type A devices: none (mtdev starts empty).
    public func currentTrackingIDs() -> [Int32] {
        guard !isTypeA, libevdev_has_event_code(evdev, UInt32(EV.ABS), UInt32(ABS.MT_SLOT)) != 0 else {
            // Single-touch: a finger down now is ignored until BTN_TOUCH is released.
            if !isTypeA && libevdev_get_event_value(evdev, UInt32(EV.KEY), UInt32(BTN.TOUCH)) != 0 { return [0] }
            return []
        }
        let n = libevdev_get_num_slots(evdev)
        guard n > 0 else { return [] }
        return (0..<n).map { libevdev_get_slot_value(evdev, UInt32($0), UInt32(ABS.MT_TRACKING_ID)) }
    }

    /// ABS_MT_TOOL_TYPE per slot right now (empty when the device has no such axis):
    /// the kernel does not resend an unchanged value, so a palm must be known from here.
    public func currentToolTypes() -> [Int32] {
        guard !isTypeA, libevdev_has_event_code(evdev, UInt32(EV.ABS), UInt32(ABS.MT_TOOL_TYPE)) != 0 else { return [] }
        let n = libevdev_get_num_slots(evdev)
        guard n > 0 else { return [] }
        return (0..<n).map { libevdev_get_slot_value(evdev, UInt32($0), UInt32(ABS.MT_TOOL_TYPE)) }
    }

    /// The pen tool keys (`PenTool.codes`) down now: a pen node opened with its
    /// pen already in proximity.
    public func penToolsDown() -> [UInt16] {
        PenTool.codes.filter {
            libevdev_has_event_code(evdev, UInt32(EV.KEY), UInt32($0)) != 0
                && libevdev_get_event_value(evdev, UInt32(EV.KEY), UInt32($0)) != 0
        }
    }

    /// The last position per slot (for a single-touch device, ABS_X and ABS_Y):
    /// the kernel does not resend an unchanged value, so a decoder that starts
    /// now needs them for a touch landing where its slot's last one was. Type A
    /// devices report every position in every frame: none.
    public func currentPositions() -> [SlotPosition] {
        guard !isTypeA else { return [] }
        guard libevdev_has_event_code(evdev, UInt32(EV.ABS), UInt32(ABS.MT_SLOT)) != 0 else {
            return [
                SlotPosition(
                    x: libevdev_get_event_value(evdev, UInt32(EV.ABS), UInt32(ABS.X)),
                    y: libevdev_get_event_value(evdev, UInt32(EV.ABS), UInt32(ABS.Y)))
            ]
        }
        let n = libevdev_get_num_slots(evdev)
        guard n > 0 else { return [] }
        return (0..<n).map {
            SlotPosition(
                x: libevdev_get_slot_value(evdev, UInt32($0), UInt32(ABS.MT_POSITION_X)),
                y: libevdev_get_slot_value(evdev, UInt32($0), UInt32(ABS.MT_POSITION_Y)))
        }
    }

    /// The kernel's current slot (it sends ABS_MT_SLOT only when it changes).
    public func currentSlot() -> Int {
        guard !isTypeA, libevdev_get_num_slots(evdev) > 0 else { return 0 }
        return max(0, Int(libevdev_get_current_slot(evdev)))
    }

    public enum ReadOutcome: Sendable, Equatable {
        /// Everything available was read (-EAGAIN).
        case drained
        /// The device is gone (ENODEV) or failed for good.
        case gone(Errno)
    }

    /// Reads until the kernel has nothing more (-EAGAIN), handing every event to
    /// the sink. On SYN_DROPPED, tells the sink, then reads libevdev's
    /// synthesized resync events (LIBEVDEV_READ_FLAG_SYNC) until it reports the
    /// sync is done, and goes on normally.
    public func read<S: RawEventSink>(into sink: S) -> ReadOutcome {
        guard !closed else { return .gone(.badFileDescriptor) }
        var ev = input_event()
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        while true {
            let rc = libevdev_next_event(evdev, flags, &ev)
            if rc == Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue) {
                deliver(ev, to: sink)
            } else if rc == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) {
                if flags == LIBEVDEV_READ_FLAG_NORMAL.rawValue {
                    // `ev` is the SYN_DROPPED itself: the decoder must not see it.
                    sink.beginResync()
                    droppedCount += 1
                    flags = LIBEVDEV_READ_FLAG_SYNC.rawValue
                } else {
                    deliver(ev, to: sink)
                }
            } else if rc == -EAGAIN {
                if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue {
                    flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
                    continue
                }
                return .drained
            } else if rc == -EINTR {
                continue
            } else {
                return .gone(Errno(rawValue: -rc))
            }
        }
    }

    @inline(__always)
    private func deliver<S: RawEventSink>(_ ev: input_event, to sink: S) {
        let e = RawEvent(
            time: EventTime(seconds: Int64(ev.time.tv_sec), microseconds: Int64(ev.time.tv_usec)),
            type: ev.type, code: ev.code, value: ev.value)
        if let mtdev { mtdev.put(e) { sink.feed($0) } } else { sink.feed(e) }
    }

    /// What libevdev reports: name, ids, absolute axes with resolution, keys,
    /// properties.
    static func describe(_ dev: OpaquePointer) -> DeviceDescription {
        var d = DeviceDescription(name: libevdev_get_name(dev).map { String(cString: $0) } ?? "")
        d.bus = UInt16(truncatingIfNeeded: libevdev_get_id_bustype(dev))
        d.vendor = UInt16(truncatingIfNeeded: libevdev_get_id_vendor(dev))
        d.product = UInt16(truncatingIfNeeded: libevdev_get_id_product(dev))
        d.version = UInt16(truncatingIfNeeded: libevdev_get_id_version(dev))
        for code in 0...UInt32(ABS_MAX) where libevdev_has_event_code(dev, UInt32(EV.ABS), code) != 0 {
            guard let a = libevdev_get_abs_info(dev, code)?.pointee else { continue }
            d.axes[UInt16(code)] = AxisInfo(
                minimum: a.minimum, maximum: a.maximum, fuzz: a.fuzz, flat: a.flat,
                resolution: a.resolution)
        }
        for code in 0...UInt32(KEY_MAX) where libevdev_has_event_code(dev, UInt32(EV.KEY), code) != 0 {
            d.keys.insert(UInt16(code))
        }
        for p in 0...UInt32(INPUT_PROP_MAX) where libevdev_has_property(dev, p) != 0 {
            d.properties.insert(Int(p))
        }
        return d
    }
}
