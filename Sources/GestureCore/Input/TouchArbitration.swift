/// Reads a pen node's events for one thing: whether a pen tool is in proximity.
/// Pure, like `SlotDecoder`: events in, a change of proximity out at the
/// SYN_REPORT that closes the frame it happened in.
public struct PenProximity: Sendable {
    /// One bit per tool of `PenTool.codes` down, as the pending frame says.
    private var tools: UInt8
    /// After a raw SYN_DROPPED (a recording): drop events until SYN_REPORT.
    private var discarding = false
    /// As of the last SYN_REPORT.
    public private(set) var inProximity: Bool

    /// - Parameter toolsDown: the tool keys down when the node was opened.
    public init(toolsDown: [UInt16] = []) {
        var bits: UInt8 = 0
        for code in toolsDown where PenTool.codes.contains(code) { bits |= 1 << (code - PenTool.codes.lowerBound) }
        tools = bits
        inProximity = bits != 0
    }

    /// Feeds one event of the pen node. Returns the new proximity when this
    /// event closed a frame that changed it.
    public mutating func feed(_ e: RawEvent) -> Bool? {
        switch e.type {
        case EV.SYN where e.code == SYN.REPORT:
            discarding = false
            let now = tools != 0
            guard now != inProximity else { return nil }
            inProximity = now
            return now
        case EV.SYN where e.code == SYN.DROPPED:
            // What was lost is lost; the next frame's keys say where the pen is.
            discarding = true
        case EV.KEY where !discarding && PenTool.codes.contains(e.code):
            let bit: UInt8 = 1 << (e.code - PenTool.codes.lowerBound)
            if e.value != 0 { tools |= bit } else { tools &= ~bit }
        default:
            break
        }
        return nil
    }
}

/// Touch arbitration as libinput does it (evdev-tablet.c, evdev-fallback.c):
/// while the screen's pen is in proximity, and for `release` after it left,
/// the screen's touches make no gestures. Time enters as event timestamps only.
public struct TouchArbitration: Sendable {
    /// How long touches stay ignored after the pen left proximity (libinput: 90 ms).
    public var release: Millis
    public private(set) var penInProximity = false
    /// When arbitration ends, once the pen has left.
    public private(set) var releaseAt: EventTime?

    public static let defaultRelease = Millis(90)

    public init(release: Millis = TouchArbitration.defaultRelease) { self.release = release }

    /// Touches are being ignored.
    public var active: Bool { penInProximity || releaseAt != nil }

    /// The pen came into proximity. Returns true when arbitration began with it
    /// (it was not already on, in the release time of an earlier proximity).
    public mutating func penEntered() -> Bool {
        let began = !active
        penInProximity = true
        releaseAt = nil
        return began
    }

    /// The pen left proximity (or its node went away) at `time`.
    public mutating func penLeft(at time: EventTime) {
        guard penInProximity else { return }
        penInProximity = false
        releaseAt = time + release
    }

    /// Returns true when the release time is over at `time`: arbitration ended.
    public mutating func expire(at time: EventTime) -> Bool {
        guard let r = releaseAt, r <= time else { return false }
        releaseAt = nil
        return true
    }
}

extension TouchArbitration {
    /// One event of the pen node, applied to the screen's decoder: the pen coming
    /// into proximity suppresses its touches (`SlotDecoder.suppress(at:)`).
    /// Returns true when that completed a frame (touches cancelled).
    public mutating func feedPen(_ e: RawEvent, pen: inout PenProximity, decoder: inout SlotDecoder) -> Bool {
        releaseIfDue(at: e.time, decoder: &decoder)
        switch pen.feed(e) {
        case true?: return penEntered(at: e.time, decoder: &decoder)
        case false?: penLeft(at: e.time)
        case nil: break
        }
        return false
    }

    /// The pen is in proximity at `time`; returns true when the decoder
    /// completed a frame (touches cancelled).
    public mutating func penEntered(at time: EventTime, decoder: inout SlotDecoder) -> Bool {
        _ = penEntered()
        return !decoder.suppressed && decoder.suppress(at: time)
    }

    /// Ends arbitration when its release time is over at `time`.
    @inline(__always)
    public mutating func releaseIfDue(at time: EventTime, decoder: inout SlotDecoder) {
        if let r = releaseAt, r <= time, expire(at: time) { decoder.unsuppress() }
    }
}
