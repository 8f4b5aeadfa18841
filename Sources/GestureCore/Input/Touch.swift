/// What happened to a touch in one frame.
public enum TouchPhase: UInt8, Sendable, CustomStringConvertible {
    case began, moved, stationary, ended, cancelled

    public var isFinal: Bool { self == .ended || self == .cancelled }
    public var description: String {
        switch self {
        case .began: "began"
        case .moved: "moved"
        case .stationary: "stationary"
        case .ended: "ended"
        case .cancelled: "cancelled"
        }
    }
}

/// Why a touch was cancelled rather than lifted (a `.cancelled` touch's cause;
/// the reason the gestures it took part in end with).
public enum TouchCancelCause: UInt8, Sendable {
    /// Lost: a resync after SYN_DROPPED, the device going away.
    case lost
    /// The kernel marked it a palm (ABS_MT_TOOL_TYPE = MT_TOOL_PALM).
    case palm
    /// The screen's pen came into proximity (touch arbitration).
    case penInProximity
}

/// A daemon-unique touch id: the decoder's serial in the high bits, a running
/// count of touches below. Tracking IDs repeat; these never do.
public struct TouchID: Hashable, Sendable, CustomStringConvertible {
    public var raw: UInt64
    public init(raw: UInt64) { self.raw = raw }
    public var description: String { String(raw) }
}

/// One finger in one frame.
public struct Touch: Sendable {
    public var id: TouchID
    public var slot: Int
    public var trackingID: Int32
    public var phase: TouchPhase
    /// Millimetres from the top-left of the active area.
    public var position: Point
    /// 0…1 over the active area.
    public var normalised: Point
    public var startTime: EventTime
    public var startPosition: Point
    /// Why it was cancelled, when `phase` is `.cancelled`.
    public var cancelCause: TouchCancelCause

    public init(
        id: TouchID, slot: Int, trackingID: Int32, phase: TouchPhase, position: Point,
        normalised: Point, startTime: EventTime, startPosition: Point, cancelCause: TouchCancelCause = .lost
    ) {
        self.cancelCause = cancelCause
        self.id = id
        self.slot = slot
        self.trackingID = trackingID
        self.phase = phase
        self.position = position
        self.normalised = normalised
        self.startTime = startTime
        self.startPosition = startPosition
    }
}

/// Every live touch of one device at one SYN_REPORT, plus the touches that ended
/// or were cancelled in it. The decoder reuses one frame's storage: read it during
/// the call that hands it to you, do not keep it.
public struct TouchFrame: Sendable {
    public var time: EventTime
    public var device: String
    public var touches: [Touch]
    /// Size of the active area in mm (after rotation), for recognizers that care
    /// about edges and for normalising.
    public var areaMM: Point

    public init(time: EventTime, device: String, touches: [Touch], areaMM: Point) {
        self.time = time
        self.device = device
        self.touches = touches
        self.areaMM = areaMM
    }

    /// Touches still on the surface after this frame.
    public var liveCount: Int {
        var n = 0
        for t in touches where !t.phase.isFinal { n += 1 }
        return n
    }
    public var began: Bool { touches.contains { $0.phase == .began } }
    public var anyCancelled: Bool { touches.contains { $0.phase == .cancelled } }
    /// Why the first touch cancelled in this frame was cancelled, if one was.
    public var cancelCause: TouchCancelCause? {
        for t in touches where t.phase == .cancelled { return t.cancelCause }
        return nil
    }
    /// True when no touch is left on the surface: the sequence is over.
    public var isLast: Bool { liveCount == 0 }

    /// Centroid of the touches still down (or of all touches in this frame if none is).
    public var centroid: Point {
        var sum = Point.zero
        var n = 0
        for t in touches where !t.phase.isFinal {
            sum += t.position
            n += 1
        }
        if n == 0 {
            for t in touches {
                sum += t.position
                n += 1
            }
        }
        return n == 0 ? .zero : sum / Double(n)
    }
    public var centroidNormalised: Point {
        var sum = Point.zero
        var n = 0
        for t in touches where !t.phase.isFinal {
            sum += t.normalised
            n += 1
        }
        if n == 0 {
            for t in touches {
                sum += t.normalised
                n += 1
            }
        }
        return n == 0 ? .zero : sum / Double(n)
    }
}
