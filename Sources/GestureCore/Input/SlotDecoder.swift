/// A slot's last reported position, in device units.
public struct SlotPosition: Sendable, Equatable {
    public var x: Int32
    public var y: Int32
    public init(x: Int32, y: Int32) {
        self.x = x
        self.y = y
    }
}

/// Turns the evdev events of one multitouch device (type B slots, or a single-touch
/// device with BTN_TOUCH) into `TouchFrame`s: one per SYN_REPORT that changed
/// anything. Pure: no I/O, no clock. The live reader and replay feed the same code.
///
/// Rules (DESIGN.md, "Touch lifecycle rules"):
/// - full per-slot state; frames carry only changes;
/// - tracking ID -1 ends the touch; a new ID in a slot that still holds another one
///   ends the old touch and begins a new one, even inside one frame;
/// - axis updates to a slot without a live ID begin nothing;
/// - touches that vanish during a resync after SYN_DROPPED are cancelled, not ended;
/// - touches already down when the device was opened are ignored until lifted;
/// - MT_TOOL_PALM cancels the touch (cause `.palm`);
/// - while suppressed (the screen's pen is in proximity), touches begin nothing,
///   and those live when it began are cancelled (cause `.penInProximity`);
/// - a position outside the axis's declared range is clamped to it (and counted).
public struct SlotDecoder {
    struct Slot {
        var trackingID: Int32 = -1
        /// ABS_MT_TOOL_TYPE as last reported: the kernel does not resend an
        /// unchanged value, so a palm landing again in the same slot says nothing.
        var toolType: Int32 = MTTool.finger
        var rawX: Int32 = 0
        var rawY: Int32 = 0
        var touchID = TouchID(raw: 0)
        var startTime = EventTime.zero
        var startPosition = Point.zero
        /// The touch began in the pending frame.
        var began = false
        /// Position changed in the pending frame.
        var moved = false
        /// A touch whose events are ignored until its tracking ID changes
        /// (down before we opened the device, or a palm).
        var ignored = false
        var live: Bool { trackingID >= 0 && !ignored }
    }

    public private(set) var geometry: DeviceGeometry
    /// A rotation asked for while a finger was down; it applies once none is.
    public private(set) var pendingRotation: Rotation?
    public let deviceName: String
    private var slots: [Slot]
    private var currentSlot = 0
    private var nextSerial: UInt64
    /// Touches that ended or were cancelled since the last frame, in order.
    private var finished: [Touch] = []
    private var frame: TouchFrame
    private var dirty = false
    /// Between SYN_DROPPED and the SYN_REPORT that closes the resync.
    private var resyncing = false
    /// After a raw SYN_DROPPED with no resync source: drop events until SYN_REPORT.
    private var discarding = false
    /// A device without multitouch axes: one touch, its lifecycle from BTN_TOUCH,
    /// its position from ABS_X/ABS_Y. (Type A devices reach this decoder through
    /// libmtdev, already turned into slots.)
    private let singleTouch: Bool
    /// Position values outside the declared axis range seen so far (each was
    /// clamped to the range), and the first of them, for a log line.
    public private(set) var clampedCount = 0
    public private(set) var firstClamped: RawEvent?
    /// Touch arbitration: touches landing now are ignored until lifted.
    public private(set) var suppressed = false
    /// Touches set aside as they landed, before any frame carried them (the
    /// screen's pen in proximity, a palm from its first frame): how many so
    /// far, and the last of them, for replay and explain to tell of.
    public private(set) var setAsideCount = 0
    public private(set) var lastSetAside: SetAsideTouch?

    /// - Parameters:
    ///   - serial: distinguishes this decoder's touch ids from every other's.
    ///   - initialTrackingIDs: tracking IDs per slot at open time; live ones are
    ///     ignored until lifted.
    ///   - initialToolTypes: ABS_MT_TOOL_TYPE per slot at open time.
    ///   - initialSlot: the kernel's current slot at open time (it sends
    ///     ABS_MT_SLOT only when the slot changes).
    ///   - initialPositions: the position per slot at open time (for a
    ///     single-touch device, ABS_X and ABS_Y): the kernel does not resend an
    ///     unchanged value, so a touch landing where its slot's last one was
    ///     reports no x or no y.
    public init(
        device: DeviceDescription, geometry: DeviceGeometry, serial: UInt32 = 0,
        initialTrackingIDs: [Int32] = [], initialToolTypes: [Int32] = [], initialSlot: Int = 0,
        initialPositions: [SlotPosition] = []
    ) {
        self.geometry = geometry
        self.deviceName = device.name
        singleTouch = !device.isMultitouch
        let count = max(1, min(device.slotCount, 64))
        slots = Array(repeating: Slot(), count: count)
        for (i, id) in initialTrackingIDs.prefix(count).enumerated() where id >= 0 {
            slots[i].trackingID = id
            slots[i].ignored = true
        }
        for (i, tool) in initialToolTypes.prefix(count).enumerated() { slots[i].toolType = tool }
        for (i, p) in initialPositions.prefix(count).enumerated() {
            slots[i].rawX = geometry.x.clamp(p.x)
            slots[i].rawY = geometry.y.clamp(p.y)
        }
        currentSlot = initialSlot
        nextSerial = UInt64(serial) << 40
        frame = TouchFrame(time: .zero, device: device.name, touches: [], areaMM: geometry.orientedSizeMM)
        frame.touches.reserveCapacity(count * 2)
        finished.reserveCapacity(count)
    }

    /// The rotation the next touch sequence is read with.
    public var rotation: Rotation { pendingRotation ?? geometry.rotation }

    /// Turns the screen as the config's `rotation` does, from the next touch
    /// sequence on: at once when no finger is down, else before the first event
    /// after the last finger lifted. A sequence is never read half in one
    /// orientation and half in another, so a gesture in flight keeps its directions.
    public mutating func rotate(to r: Rotation) {
        pendingRotation = r
        applyPendingRotation()
    }

    private mutating func applyPendingRotation() {
        guard let r = pendingRotation, !dirty, finished.isEmpty, !slots.contains(where: \.live) else { return }
        pendingRotation = nil
        geometry.rotation = r
        frame.areaMM = geometry.orientedSizeMM
    }

    /// Live touches right now (after the last completed frame).
    public var liveTouchCount: Int { slots.reduce(0) { $0 + ($1.live ? 1 : 0) } }

    /// Feeds one event. Returns true when it completed a frame; read it with
    /// `withFrame` before the next call.
    public mutating func feed(_ e: RawEvent) -> Bool {
        if pendingRotation != nil { applyPendingRotation() }
        if discarding {
            if e.type == EV.SYN && e.code == SYN.REPORT {
                discarding = false
                cancelAll()
                return finishFrame(time: e.time)
            }
            return false
        }
        switch e.type {
        case EV.SYN:
            switch e.code {
            case SYN.REPORT:
                let done = finishFrame(time: e.time)
                resyncing = false
                return done
            case SYN.DROPPED:
                // A raw stream (a recording) cannot be resynced: what was lost is lost,
                // so every live touch is cancelled at the next report.
                discarding = true
                return false
            default:
                return false
            }
        case EV.ABS:
            handleAbs(code: e.code, value: e.value, time: e.time)
        case EV.KEY:
            // Single-touch devices: BTN_TOUCH is the lifecycle.
            if singleTouch && e.code == BTN.TOUCH {
                setTrackingID(slot: 0, e.value != 0 ? Int32(truncatingIfNeeded: nextSerial & 0xffff) : -1, time: e.time)
            }
        default:
            break
        }
        return false
    }

    /// Called by a live reader when libevdev reports SYN_DROPPED and is about to
    /// deliver the synthesized resync events; touches that end before the
    /// closing SYN_REPORT are cancelled.
    public mutating func beginResync() { resyncing = true }

    /// Ends every live touch as cancelled, e.g. when the device goes away.
    /// Returns true when that produced a frame.
    public mutating func cancelAllTouches(at time: EventTime) -> Bool {
        cancelAll()
        return finishFrame(time: time)
    }

    /// Touch arbitration begins (the screen's pen came into proximity): every
    /// live touch is cancelled with cause `.penInProximity`, and touches that
    /// land from now on are ignored until they lift, even after `unsuppress`.
    /// Returns true when that produced a frame.
    public mutating func suppress(at time: EventTime) -> Bool {
        suppressed = true
        for i in slots.indices where slots[i].live {
            if slots[i].began {
                // Landed in the pending frame: nobody saw it.
                setAside(slot: i, time: time, cause: .penInProximity)
                slots[i].ignored = true
                slots[i].began = false
                slots[i].moved = false
            } else {
                finish(slot: i, as: .cancelled, cause: .penInProximity)
            }
        }
        return finishFrame(time: time)
    }

    /// Touch arbitration ends: touches that land from now on are touches again.
    public mutating func unsuppress() { suppressed = false }

    /// Gives read access to the frame just completed.
    public func withFrame<R>(_ body: (borrowing TouchFrame) throws -> R) rethrows -> R { try body(frame) }

    public var lastFrame: TouchFrame { frame }

    /// Gives the frame just completed to `arena` where it lies: neither the
    /// frame nor the decoder is copied. (`lastFrame` is a copy, which retains
    /// the frame's touches and device name and releases them after;
    /// `withFrame`, called on a decoder kept in a class, copies the decoder.)
    mutating func give(to arena: Arena, into events: inout [GestureEvent]) {
        arena.handle(frame, into: &events)
    }

    // MARK: - Event handling

    private mutating func handleAbs(code: UInt16, value: Int32, time: EventTime) {
        switch code {
        case ABS.MT_SLOT:
            currentSlot = Int(value)
        case ABS.MT_TRACKING_ID:
            guard !singleTouch, slots.indices.contains(currentSlot) else { return }
            setTrackingID(slot: currentSlot, value, time: time)
        case ABS.MT_POSITION_X:
            guard slots.indices.contains(currentSlot) else { return }
            let v = inRange(value, geometry.x, code: code, time: time)
            if slots[currentSlot].rawX != v {
                slots[currentSlot].rawX = v
                markMoved(currentSlot)
            }
        case ABS.MT_POSITION_Y:
            guard slots.indices.contains(currentSlot) else { return }
            let v = inRange(value, geometry.y, code: code, time: time)
            if slots[currentSlot].rawY != v {
                slots[currentSlot].rawY = v
                markMoved(currentSlot)
            }
        case ABS.X where singleTouch:
            let v = inRange(value, geometry.x, code: code, time: time)
            if slots[0].rawX != v {
                slots[0].rawX = v
                markMoved(0)
            }
        case ABS.Y where singleTouch:
            let v = inRange(value, geometry.y, code: code, time: time)
            if slots[0].rawY != v {
                slots[0].rawY = v
                markMoved(0)
            }
        case ABS.MT_TOOL_TYPE:
            guard slots.indices.contains(currentSlot) else { return }
            slots[currentSlot].toolType = value
            guard value == MTTool.palm else { return }
            // A touch that began in this frame is dropped when the frame closes
            // (nobody saw it); one that others have seen is cancelled.
            if slots[currentSlot].live && !slots[currentSlot].began {
                finish(slot: currentSlot, as: .cancelled, cause: .palm)
            }
            if slots[currentSlot].trackingID >= 0 && !slots[currentSlot].began { slots[currentSlot].ignored = true }
        default:
            break
        }
    }

    @inline(__always)
    private mutating func inRange(_ value: Int32, _ axis: AxisInfo, code: UInt16, time: EventTime) -> Int32 {
        if axis.contains(value) { return value }
        clampedCount &+= 1
        if firstClamped == nil { firstClamped = RawEvent(time: time, type: EV.ABS, code: code, value: value) }
        return axis.clamp(value)
    }

    private mutating func markMoved(_ i: Int) {
        if slots[i].live {
            slots[i].moved = true
            dirty = true
        }
    }

    private mutating func setTrackingID(slot i: Int, _ id: Int32, time: EventTime) {
        let old = slots[i].trackingID
        if id == old { return }
        if old >= 0 {
            if slots[i].live {
                if slots[i].began {
                    // Began and ended inside one frame: nothing anyone could see.
                    dirty = true
                } else {
                    finish(slot: i, as: resyncing ? .cancelled : .ended)
                }
            }
        }
        slots[i].trackingID = id
        slots[i].ignored = suppressed && id >= 0
        if slots[i].ignored { setAside(slot: i, time: time, cause: .penInProximity) }
        slots[i].began = false
        slots[i].moved = false
        if id >= 0 && !suppressed {
            slots[i].began = true
            slots[i].startTime = time
            slots[i].touchID = TouchID(raw: nextSerial)
            nextSerial &+= 1
            dirty = true
        }
    }

    private mutating func setAside(slot i: Int, time: EventTime, cause: TouchCancelCause) {
        setAsideCount &+= 1
        lastSetAside = SetAsideTouch(time: time, slot: i, cause: cause)
    }

    private mutating func finish(slot i: Int, as phase: TouchPhase, cause: TouchCancelCause = .lost) {
        let s = slots[i]
        let n = geometry.normalised(rawX: s.rawX, rawY: s.rawY)
        finished.append(
            Touch(
                id: s.touchID, slot: i, trackingID: s.trackingID, phase: phase,
                position: geometry.millimetres(normalised: n), normalised: n,
                startTime: s.startTime, startPosition: s.startPosition, cancelCause: cause))
        slots[i].ignored = true
        slots[i].began = false
        slots[i].moved = false
        dirty = true
    }

    private mutating func cancelAll() {
        for i in slots.indices where slots[i].live && !slots[i].began {
            finish(slot: i, as: .cancelled)
        }
        for i in slots.indices {
            slots[i].trackingID = -1
            slots[i].ignored = false
            slots[i].began = false
            slots[i].moved = false
        }
    }

    private mutating func finishFrame(time: EventTime) -> Bool {
        guard dirty else { return false }
        dirty = false
        frame.time = time
        frame.touches.removeAll(keepingCapacity: true)
        for t in finished { frame.touches.append(t) }
        finished.removeAll(keepingCapacity: true)
        for i in slots.indices where slots[i].live {
            if slots[i].began && slots[i].toolType == MTTool.palm {
                // A palm from its first frame: never a touch.
                setAside(slot: i, time: time, cause: .palm)
                slots[i].ignored = true
                slots[i].began = false
                slots[i].moved = false
                continue
            }
            let n = geometry.normalised(rawX: slots[i].rawX, rawY: slots[i].rawY)
            let mm = geometry.millimetres(normalised: n)
            let phase: TouchPhase
            if slots[i].began {
                phase = .began
                slots[i].startPosition = mm
                slots[i].startTime = time
            } else {
                phase = slots[i].moved ? .moved : .stationary
            }
            frame.touches.append(
                Touch(
                    id: slots[i].touchID, slot: i, trackingID: slots[i].trackingID,
                    phase: phase, position: mm, normalised: n,
                    startTime: slots[i].startTime, startPosition: slots[i].startPosition))
            slots[i].began = false
            slots[i].moved = false
        }
        return !frame.touches.isEmpty
    }
}

/// A touch set aside as it landed: no frame carries it and it starts nothing.
public struct SetAsideTouch: Sendable, Equatable {
    public var time: EventTime
    public var slot: Int
    /// `.penInProximity` or `.palm`.
    public var cause: TouchCancelCause
    public init(time: EventTime, slot: Int, cause: TouchCancelCause) {
        self.time = time
        self.slot = slot
        self.cause = cause
    }

    /// "a touch (slot 0)" when `count` is 1 (this one), else "3 touches": the
    /// subject of `outcome`, for those set aside together, this one the last.
    public func touches(_ count: Int = 1) -> String { count == 1 ? "a touch (slot \(slot))" : "\(count) touches" }

    /// "set aside as it landed, starting nothing: pen in proximity": what
    /// replay, explain and a trace say of it.
    public var outcome: String { "set aside as it landed, starting nothing: \(Reason(cancelled: cause))" }
}
