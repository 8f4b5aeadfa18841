/// Decoder and arena of one device: raw evdev events in, gesture events out.
/// The daemon runs one per open device; replay runs one per recording.
public final class DevicePipeline {
    public private(set) var decoder: SlotDecoder
    public let arena: Arena
    public let description: DeviceDescription
    /// Events produced since the last `drain`.
    public private(set) var events: [GestureEvent] = []
    /// The paired pen's proximity, read from its node's events (`feedPen`).
    public private(set) var pen = PenProximity()
    /// Whether the screen's touches are being ignored because of its pen.
    public private(set) var arbitration: TouchArbitration
    /// Touches set aside as they landed that the trace has told of.
    private var setAsideTold = 0

    public init(
        description: DeviceDescription, geometry: DeviceGeometry, configuration: Configuration,
        serial: UInt32 = 0, initialTrackingIDs: [Int32] = [], initialToolTypes: [Int32] = [],
        initialSlot: Int = 0, initialPositions: [SlotPosition] = [], log: ArenaLog? = nil
    ) {
        self.description = description
        arbitration = TouchArbitration(release: configuration.penRelease)
        decoder = SlotDecoder(
            device: description, geometry: geometry, serial: serial,
            initialTrackingIDs: initialTrackingIDs, initialToolTypes: initialToolTypes,
            initialSlot: initialSlot, initialPositions: initialPositions)
        arena = configuration.makeArena(device: description.name)
        arena.log = log
        events.reserveCapacity(16)
        spare.reserveCapacity(16)
    }

    /// Feeds one kernel event; a completed frame goes through the arena.
    @inline(__always)
    public func feed(_ e: RawEvent) {
        if arbitration.releaseAt != nil { arbitration.releaseIfDue(at: e.time, decoder: &decoder) }
        if decoder.feed(e) { decoder.give(to: arena, into: &events) }
        traceSetAside()
    }

    /// A touch that starts nothing leaves no event: a trace (any recognizer
    /// traced) says so, with why. Called after whatever may set one aside; it
    /// costs a comparison when nothing was.
    @inline(__always)
    private func traceSetAside() {
        if decoder.setAsideCount != setAsideTold { traceSetAsideNow() }
    }

    private func traceSetAsideNow() {
        defer { setAsideTold = decoder.setAsideCount }
        guard let log = arena.log, !log.traced.isEmpty, let t = decoder.lastSetAside else { return }
        let n = decoder.setAsideCount &- setAsideTold
        log(
            ArenaLogEntry(
                kind: .trace, time: t.time, device: description.name, text: "\(t.touches(n)) \(t.outcome)"))
    }

    /// Feeds one kernel event to the decoder alone: true when it completed a
    /// frame, which `recognize` then gives the arena. An exclusive device's
    /// frame goes to its twin in between (`TwinRelay.forwardAhead`).
    @inline(__always)
    public func decode(_ e: RawEvent) -> Bool {
        if arbitration.releaseAt != nil { arbitration.releaseIfDue(at: e.time, decoder: &decoder) }
        defer { traceSetAside() }
        return decoder.feed(e)
    }

    /// Gives the arena the frame `decode` completed.
    public func recognize() { decoder.give(to: arena, into: &events) }

    /// Whether a consuming recognizer could take the sequence the frame
    /// `decode` completed begins (`Arena.mayConsume`).
    public func mayConsume(fingers: Int) -> Bool { decoder.withFrame { arena.mayConsume($0, fingers: fingers) } }

    /// Turns the screen from the next touch sequence on (`SlotDecoder.rotate(to:)`).
    public func rotate(to r: Rotation) { decoder.rotate(to: r) }

    /// libevdev reported SYN_DROPPED: the events that follow are a resync.
    public func beginResync() { decoder.beginResync() }

    /// Feeds one event of the screen's pen node (the tablet node of the same
    /// device). The pen coming into proximity cancels the live touches
    /// (reason "pen in proximity") and keeps new ones from starting anything
    /// until `arbitration.release` after it left.
    public func feedPen(_ e: RawEvent) {
        if arbitration.feedPen(e, pen: &pen, decoder: &decoder) { arena.handle(decoder.lastFrame, into: &events) }
        traceSetAside()
    }

    /// A pen node was paired with this screen; `toolsDown` are its tool keys
    /// down when it was opened.
    public func attachPen(toolsDown: [UInt16], at time: EventTime) {
        pen = PenProximity(toolsDown: toolsDown)
        if pen.inProximity {
            if arbitration.penEntered(at: time, decoder: &decoder) { arena.handle(decoder.lastFrame, into: &events) }
            traceSetAside()
        } else {
            arbitration.penLeft(at: time)
        }
    }

    /// The paired pen node went away: as if its pen left proximity then.
    public func detachPen(at time: EventTime) {
        pen = PenProximity()
        arbitration.penLeft(at: time)
    }

    /// Fires recognizer timers, and the end of touch arbitration, up to `time`.
    public func advance(to time: EventTime) {
        arbitration.releaseIfDue(at: time, decoder: &decoder)
        arena.advance(to: time, into: &events)
    }

    public var nextDeadline: EventTime? {
        let a = arena.nextDeadline
        guard let r = arbitration.releaseAt else { return a }
        guard let a else { return r }
        return min(a, r)
    }

    /// The device went away or the daemon stops: every live touch and every
    /// gesture in flight is cancelled, once.
    public func cancelAll(at time: EventTime, because teardown: Teardown) {
        // The arena first, so that what was in flight carries this reason rather
        // than "touch cancelled"; the decoder's frame then meets idle recognizers.
        arena.cancelAll(at: time, because: teardown, into: &events)
        if decoder.cancelAllTouches(at: time) { arena.handle(decoder.lastFrame, into: &events) }
    }

    /// Hands out the pending events and forgets them. Each is lent where it
    /// lies (`inout`, so that it need not be copied out, its strings retained,
    /// and destroyed twice); a change `body` makes to it is forgotten with it.
    /// Events that `body` causes (a feed from inside it) are kept for the next
    /// drain.
    public func drain(_ body: (inout GestureEvent) throws -> Void) rethrows {
        // Most frames and reads end nothing: no event to hand out or forget.
        if events.isEmpty { return }
        // The events go to a local array, and `events` takes the spare
        // storage: what `body` causes lands there, not under its feet.
        var handed: [GestureEvent] = []
        swap(&handed, &spare)
        swap(&handed, &events)
        defer {
            handed.removeAll(keepingCapacity: true)
            spare = handed
        }
        try handed.withUnsafeMutableBufferPointer { all in
            for i in all.indices { try body(&all[i]) }
        }
    }

    /// `events`' other storage, empty between drains.
    private var spare: [GestureEvent] = []
}
