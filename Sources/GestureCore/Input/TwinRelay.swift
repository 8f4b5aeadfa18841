/// What an exclusive device's twin gets: the decision, per frame, of which
/// touches the apps see, and the events that carry it out. Pure: the daemon
/// feeds it the events it read from the grabbed device and the consuming
/// recognizers' outlook (`Arena.consumeOutlook` for `outlookFingers`), and
/// writes `output` to the uinput twin in the same loop turn.
///
/// A frame whose fate does not wait on the recognizers goes to the twin before
/// they see it (`forwardAhead`, then `endForwardedFrame` once the arena has
/// run); any other frame waits for the arena (`endFrame`).
///
/// Per touch sequence (first finger down to last finger up):
/// - no consuming recognizer could take it: each frame is forwarded as it ends,
///   ahead of the recognizers;
/// - one could: its frames are held until every such recognizer failed (then
///   they are replayed at once, so a tap at the edge still taps), one took it
///   (then they are dropped and the apps never see it) or `hold` passed since it
///   started (then they are replayed, and it goes on as forwarded);
/// - one takes a sequence that was forwarded already (a finger joined later):
///   its touches end for the apps as the kernel ends a palm (`MT_TOOL_PALM`,
///   then lifted), which libinput turns into a touch cancel, and the rest of the
///   sequence is dropped.
///
/// The twin is brought to the device's state rather than sent the device's
/// events: the kernel sends only what changed, so after frames were dropped the
/// device's next events would leave stale values on the twin. Each frame sent
/// is the difference between the state the twin holds and the device's.
public struct TwinRelay {
    /// What became of one frame (or of a timeout) on the twin.
    public enum Decision: Sendable, Equatable {
        /// Nothing touches the screen and nothing is held: the frame went on as it is.
        case idle
        case forward
        case hold
        /// The held frames went to the twin, this one last.
        case replay(frames: Int)
        /// A consuming recognizer took the sequence: held frames and this one are dropped.
        case drop
        /// A consuming recognizer took a sequence the apps had seen: its touches
        /// ended on the twin as palms.
        case palmCancel(touches: Int)
    }

    public enum Mode: Sendable, Equatable {
        case idle
        case forwarding
        /// Holding frames since the first held one's time.
        case holding(since: EventTime)
        case dropping
    }

    public private(set) var mode = Mode.idle
    /// The longest a sequence is held back (a reload may change it).
    public var hold: Millis
    /// The most frames held at once; past it they are released as at `hold`.
    public static let maxHeldFrames = 4096
    /// Events to write to the twin, each frame ending in SYN_REPORT.
    public private(set) var output: [RawEvent] = []
    /// What has been decided so far, for `gesturectl status` and the tests.
    public private(set) var counts = Counts()

    public struct Counts: Sendable, Equatable {
        public var forwardedFrames = 0
        public var heldSequences = 0
        public var replayedFrames = 0
        public var droppedFrames = 0
        public var palmCancelledTouches = 0
        /// Held sequences released because `hold` passed.
        public var holdsExpired = 0
    }

    private let slots: Int
    /// The per-slot axes the device has (ABS_MT_* but the slot), tracking ID first.
    private let mtCodes: [UInt16]
    /// The other absolute axes it has.
    private let absCodes: [UInt16]
    private let keyCodes: [UInt16]
    private let toolTypeIndex: Int?
    /// Where `feed` puts an event: slot, then index into the code lists.
    private var mtIndex: [Int] = Array(repeating: -1, count: 0x40)
    private var absIndex: [Int] = Array(repeating: -1, count: 0x40)
    private var keyIndex: [UInt16: Int] = [:]

    /// The device's state as read, and the twin's as written.
    private var device: PanelState
    private var twin: PanelState
    private var held: [PanelState] = []
    /// Slots whose touch began while a forwarded sequence went on and a
    /// consuming recognizer could take it with that touch: kept from the twin
    /// until it is decided, as a held sequence is.
    private var withheld: [Bool]
    /// The tracking ID each withheld touch had when it was withheld.
    private var withheldIDs: [Int32]
    /// Withheld touches that lifted before the decision, by slot: the slot's
    /// values as last seen down. If the apps get the sequence after all, they
    /// get these touches too, down and up at once, as a held tap is replayed.
    private var lifted: [[Int32]?]
    private var withheldSince: EventTime?
    /// What the consuming recognizers made of the sequence after the last
    /// frame or timeout: a frame of a forwarded sequence goes ahead of them
    /// only while none of them could take it.
    private var lastOutlook = ConsumeOutlook.none
    /// The frames `forwardAhead` sent that the arena has not seen yet, oldest
    /// first: what became of each (`forward`, or `idle` for one without touches).
    private var aheadFrames: [Decision] = []

    /// A value the twin has never been sent: it differs from every real one.
    static let unknown = Int32.min

    struct PanelState: Equatable {
        var slot = 0
        /// `slots × mtCodes.count`, slot-major.
        var mt: [Int32]
        var abs: [Int32]
        var keys: [Int32]
    }

    /// `description` is the twin's: the device's, with ABS_MT_TOOL_TYPE
    /// (`withToolType`). Touches down when the device was opened (`setInitial`)
    /// reach the twin with the first frame.
    public init(description: DeviceDescription, hold: Millis) {
        self.hold = hold
        slots = description.slotCount
        var mt: [UInt16] = [ABS.MT_TRACKING_ID]
        for code in (ABS.MT_SLOT + 1)...ABS.MAX
        where code != ABS.MT_TRACKING_ID && description.axes[code] != nil {
            mt.append(code)
        }
        mtCodes = mt
        absCodes = description.axes.keys.filter { $0 < ABS.MT_SLOT }.sorted()
        keyCodes = description.keys.sorted()
        toolTypeIndex = mt.firstIndex(of: ABS.MT_TOOL_TYPE)
        for (i, c) in mtCodes.enumerated() { mtIndex[Int(c)] = i }
        for (i, c) in absCodes.enumerated() { absIndex[Int(c)] = i }
        for (i, c) in keyCodes.enumerated() { keyIndex[c] = i }
        var mtValues = Array(repeating: Int32(0), count: slots * mt.count)
        for s in 0..<slots { mtValues[s * mt.count] = -1 }
        device = PanelState(
            slot: 0, mt: mtValues,
            abs: absCodes.map { description.axes[$0].map { max($0.minimum, 0) } ?? 0 },
            keys: Array(repeating: 0, count: keyCodes.count))
        // The twin is created with no touch; every other value is sent before
        // it matters.
        var twinMT = Array(repeating: Self.unknown, count: slots * mt.count)
        for s in 0..<slots { twinMT[s * mt.count] = -1 }
        twin = PanelState(
            slot: -1, mt: twinMT, abs: Array(repeating: Self.unknown, count: absCodes.count),
            keys: Array(repeating: 0, count: keyCodes.count))
        withheld = Array(repeating: false, count: slots)
        withheldIDs = Array(repeating: -1, count: slots)
        lifted = Array(repeating: nil, count: slots)
        output.reserveCapacity(64)
        aheadFrames.reserveCapacity(16)
    }

    /// The twin of a device: the device's description with ABS_MT_TOOL_TYPE
    /// (finger, pen, palm), which the twin needs to end a touch as a palm.
    public static func withToolType(_ d: DeviceDescription) -> DeviceDescription {
        var d = d
        if d.axes[ABS.MT_TOOL_TYPE] == nil { d.axes[ABS.MT_TOOL_TYPE] = AxisInfo(minimum: 0, maximum: MTTool.palm) }
        return d
    }

    /// Sets one slot value of the device as it was when opened.
    public mutating func setInitial(slot: Int, code: UInt16, value: Int32) {
        guard slot >= 0 && slot < slots, Int(code) < mtIndex.count, mtIndex[Int(code)] >= 0 else { return }
        device.mt[slot * mtCodes.count + mtIndex[Int(code)]] = value
    }

    /// Sets the device's state as it was when opened, as far as the snapshot
    /// knows it: tracking IDs, tool types, positions per slot, and the slot.
    public mutating func setInitial(
        slot current: Int, trackingIDs: [Int32], toolTypes: [Int32], positions: [SlotPosition]
    ) {
        if current >= 0 && current < slots { device.slot = current }
        for (s, id) in trackingIDs.enumerated() { setInitial(slot: s, code: ABS.MT_TRACKING_ID, value: id) }
        for (s, t) in toolTypes.enumerated() { setInitial(slot: s, code: ABS.MT_TOOL_TYPE, value: t) }
        for (s, p) in positions.enumerated() {
            setInitial(slot: s, code: ABS.MT_POSITION_X, value: p.x)
            setInitial(slot: s, code: ABS.MT_POSITION_Y, value: p.y)
        }
    }

    /// Touches down on the device now.
    public var deviceTouches: Int { liveTouches(device) }
    /// The fingers to ask the consuming recognizers' outlook for
    /// (`Arena.consumeOutlook(fingers:)`): those down, and the withheld ones
    /// that lifted undecided, with which a recognizer of that many fingers
    /// could still take the sequence.
    public var outlookFingers: Int {
        var n = deviceTouches
        for s in 0..<slots where lifted[s] != nil || (withheld[s] && device.mt[s * mtCodes.count] != withheldIDs[s]) {
            n += 1
        }
        return n
    }
    /// Touches down on the device and kept from the twin while a forwarded
    /// sequence is decided.
    public var withheldTouches: Int { withheld.reduce(0) { $0 + ($1 ? 1 : 0) } }
    /// Touches down on the twin now.
    public var twinTouches: Int { liveTouches(twin) }

    private func liveTouches(_ s: PanelState) -> Int {
        var n = 0
        for slot in 0..<slots where s.mt[slot * mtCodes.count] >= 0 { n += 1 }
        return n
    }

    /// Takes one event read from the device; true when it ended a frame
    /// (SYN_REPORT): then call `endFrame`.
    public mutating func feed(_ e: RawEvent) -> Bool {
        switch e.type {
        case EV.SYN:
            return e.code == SYN.REPORT
        case EV.ABS:
            if e.code == ABS.MT_SLOT {
                if e.value >= 0 && Int(e.value) < slots { device.slot = Int(e.value) }
            } else if Int(e.code) < mtIndex.count {
                let m = mtIndex[Int(e.code)]
                if m >= 0 {
                    device.mt[device.slot * mtCodes.count + m] = e.value
                } else if absIndex[Int(e.code)] >= 0 {
                    device.abs[absIndex[Int(e.code)]] = e.value
                }
            }
        case EV.KEY:
            if let k = keyIndex[e.code] { device.keys[k] = e.value }
        default:
            break
        }
        return false
    }

    /// The frame just fed is complete, and the recognizers have not seen it
    /// yet: when what the twin gets of it does not wait on them, it is sent now
    /// (into `output`, for the daemon to write before it gives the arena the
    /// frame) and true is returned; call `endForwardedFrame` once the arena has
    /// seen it. False: nothing changed; call `endFrame` after the arena. Several
    /// frames may go ahead before the arena sees the first (a read that brought
    /// several): `endForwardedFrame` takes them in order.
    ///
    /// A frame goes ahead when nothing was on the screen and nothing is held
    /// (a frame without touches, or the first of a sequence that no consuming
    /// recognizer could take: `couldBeTaken`, given the fingers to judge with,
    /// asked only then, `Arena.mayConsume`), and in a forwarded sequence that
    /// no consuming recognizer could take after the last frame, when no finger
    /// lands in it and none is withheld. A finger landing in a forwarded
    /// sequence waits for the arena: whether it is withheld depends on what the
    /// recognizers make of it.
    public mutating func forwardAhead(at time: EventTime, couldBeTaken: (_ fingers: Int) -> Bool) -> Bool {
        switch mode {
        case .idle:
            guard deviceTouches > 0 else {
                send(device, at: time)
                aheadFrames.append(.idle)
                return true
            }
            guard !couldBeTaken(outlookFingers) else { return false }
            mode = .forwarding
        case .forwarding:
            guard case .none = lastOutlook, withheldSince == nil, !fingerLands else { return false }
        case .holding, .dropping:
            return false
        }
        send(device, at: time)
        counts.forwardedFrames += 1
        // The sequence is over: the next frame starts afresh.
        if deviceTouches == 0 { mode = .idle }
        aheadFrames.append(.forward)
        return true
    }

    /// The arena has seen the frame `forwardAhead` sent: what became of it.
    /// Should a consuming recognizer take the sequence on that very frame,
    /// which none could before it, the apps had the frame, and its touches
    /// end now as palms, as for any forwarded sequence taken late.
    public mutating func endForwardedFrame(_ outlook: ConsumeOutlook, at time: EventTime) -> Decision {
        guard !aheadFrames.isEmpty else { return endFrame(outlook, at: time) }
        let decision = aheadFrames.removeFirst()
        lastOutlook = outlook
        guard decision == .forward, case .forwarding = mode else { return decision }
        if case .taken = outlook { return takeForwarded(at: time) }
        return .forward
    }

    /// A touch in the device's frame the twin does not have yet.
    private var fingerLands: Bool {
        let stride = mtCodes.count
        for s in 0..<slots {
            let id = device.mt[s * stride]
            if id >= 0 && id != twin.mt[s * stride] { return true }
        }
        return false
    }

    /// The frame just fed is complete and the arena has seen it: decide.
    public mutating func endFrame(_ outlook: ConsumeOutlook, at time: EventTime) -> Decision {
        let live = deviceTouches
        lastOutlook = outlook
        switch mode {
        case .idle:
            guard live > 0 else {
                send(device, at: time)
                return .idle
            }
            switch outlook {
            case .none:
                mode = .forwarding
                return forward(at: time)
            case .pending:
                mode = .holding(since: time)
                counts.heldSequences += 1
                held.append(device)
                return .hold
            case .taken:
                mode = .dropping
                counts.droppedFrames += 1
                return .drop
            }
        case .forwarding:
            if case .taken = outlook { return takeForwarded(at: time) }
            withhold(outlook, at: time)
            if live == 0 {
                // The sequence is over and nothing took it: the apps get what
                // lifted while withheld.
                sendLifted(at: time)
                withheldSince = nil
                mode = .idle
            }
            return forward(at: time)
        case .holding(let since):
            held.append(device)
            return decideHeld(outlook, since: since, at: time)
        case .dropping:
            counts.droppedFrames += 1
            if live == 0 { mode = .idle }
            return .drop
        }
    }

    /// Time passed with no frame (the arena's timers fired): a held sequence
    /// may be decided now, or have been held for `hold`.
    public mutating func advance(to time: EventTime, _ outlook: ConsumeOutlook) -> Decision? {
        lastOutlook = outlook
        switch mode {
        case .holding(let since):
            if case .pending = outlook, time < since + hold { return nil }
            return decideHeld(outlook, since: since, at: time)
        case .forwarding:
            guard withheldSince != nil else { return nil }
            if case .taken = outlook { return takeForwarded(at: time) }
            withhold(outlook, at: time)
            return withheldSince == nil ? forward(at: time) : nil
        case .idle, .dropping:
            return nil
        }
    }

    /// When `advance` must be called at the latest: the end of the hold.
    public var nextDeadline: EventTime? {
        if case .holding(let since) = mode { return since + hold }
        return withheldSince.map { $0 + hold }
    }

    /// The recognizers are replaced (config reload) or gone: what is held goes
    /// to the apps as it is, and a dropped sequence stays dropped to its end.
    public mutating func releaseHeld(at time: EventTime) -> Decision? {
        guard case .holding = mode else { return nil }
        return replay(at: time)
    }

    /// Hands out the events to write and forgets them.
    public mutating func drainOutput(_ body: ([RawEvent]) throws -> Void) rethrows {
        defer { output.removeAll(keepingCapacity: true) }
        if !output.isEmpty { try body(output) }
    }

    // MARK: - Carrying decisions out

    /// A consuming recognizer took a sequence the twin has seen.
    private mutating func takeForwarded(at time: EventTime) -> Decision {
        let n = palmCancel(at: time)
        counts.droppedFrames += 1
        for s in 0..<slots {
            withheld[s] = false
            lifted[s] = nil
        }
        withheldSince = nil
        mode = deviceTouches > 0 ? .dropping : .idle
        return .palmCancel(touches: n)
    }

    /// In a forwarded sequence: touches that begin while a consuming recognizer
    /// could take the sequence are withheld; all are let go once none can, or
    /// after `hold`.
    private mutating func withhold(_ outlook: ConsumeOutlook, at time: EventTime) {
        let stride = mtCodes.count
        var release = false
        switch outlook {
        case .pending:
            for s in 0..<slots where !withheld[s] {
                let id = device.mt[s * stride]
                if id >= 0 && twin.mt[s * stride] != id {
                    withheld[s] = true
                    withheldIDs[s] = id
                    if withheldSince == nil { withheldSince = time }
                }
            }
            if let since = withheldSince, time >= since + hold {
                counts.holdsExpired += 1
                release = true
            }
        case .none, .taken:
            release = true
        }
        var any = false
        for s in 0..<slots where withheld[s] {
            let base = s * stride
            if device.mt[base] != withheldIDs[s] {
                // It lifted undecided: kept as last seen down (the lift
                // changes only its tracking ID).
                var last = Array(device.mt[base..<(base + stride)])
                last[0] = withheldIDs[s]
                lifted[s] = last
                withheld[s] = false
            } else if release {
                withheld[s] = false
            } else {
                any = true
            }
        }
        if release {
            if case .taken = outlook {
                for s in 0..<slots { lifted[s] = nil }
            } else {
                sendLifted(at: time)
            }
        } else if lifted.contains(where: { $0 != nil }) {
            any = true
        }
        if !any { withheldSince = nil }
    }

    /// Sends the withheld touches that lifted undecided, down where they were
    /// last, in one frame; the frame after it (the device's state) lifts them.
    private mutating func sendLifted(at time: EventTime) {
        guard lifted.contains(where: { $0 != nil }) else { return }
        let stride = mtCodes.count
        var state = twin
        for s in 0..<slots {
            guard let last = lifted[s] else { continue }
            for m in 0..<stride { state.mt[s * stride + m] = last[m] }
            lifted[s] = nil
        }
        send(state, at: time)
    }

    private mutating func decideHeld(_ outlook: ConsumeOutlook, since: EventTime, at time: EventTime) -> Decision {
        switch outlook {
        case .taken:
            counts.droppedFrames += held.count
            held.removeAll(keepingCapacity: true)
            mode = deviceTouches > 0 ? .dropping : .idle
            return .drop
        case .none:
            return replay(at: time)
        case .pending:
            if time >= since + hold || held.count >= Self.maxHeldFrames {
                counts.holdsExpired += 1
                return replay(at: time)
            }
            return .hold
        }
    }

    private mutating func replay(at time: EventTime) -> Decision {
        let frames = held
        held.removeAll(keepingCapacity: true)
        for state in frames { send(state, at: time) }
        // What the device did since the last held frame (nothing, after a frame).
        if let last = frames.last, last != device { send(device, at: time) }
        counts.replayedFrames += frames.count
        mode = deviceTouches > 0 ? .forwarding : .idle
        return .replay(frames: frames.count)
    }

    private mutating func forward(at time: EventTime) -> Decision {
        send(device, at: time)
        counts.forwardedFrames += 1
        return .forward
    }

    /// Ends every touch the twin holds as a palm: the tool type first, in a
    /// frame of its own (libinput cancels the touch on it), then lifted.
    private mutating func palmCancel(at time: EventTime) -> Int {
        let stride = mtCodes.count
        var live: [Int] = []
        for s in 0..<slots where twin.mt[s * stride] >= 0 { live.append(s) }
        guard !live.isEmpty else { return 0 }
        if let tool = toolTypeIndex {
            for s in live {
                selectSlot(s, at: time)
                emit(EV.ABS, ABS.MT_TOOL_TYPE, MTTool.palm, at: time)
                twin.mt[s * stride + tool] = MTTool.palm
            }
            emit(EV.SYN, SYN.REPORT, 0, at: time)
        }
        for s in live {
            selectSlot(s, at: time)
            emit(EV.ABS, ABS.MT_TRACKING_ID, -1, at: time)
            twin.mt[s * stride] = -1
        }
        for k in keyCodes.indices where twin.keys[k] != 0 {
            emit(EV.KEY, keyCodes[k], 0, at: time)
            twin.keys[k] = 0
        }
        emit(EV.SYN, SYN.REPORT, 0, at: time)
        counts.palmCancelledTouches += live.count
        return live.count
    }

    /// Brings the twin to `state` in one frame.
    private mutating func send(_ state: PanelState, at time: EventTime) {
        let before = output.count
        let stride = mtCodes.count
        for s in 0..<slots where !withheld[s] {
            let base = s * stride
            // A slot idle on both sides carries nothing anyone reads.
            if state.mt[base] < 0 && twin.mt[base] < 0 { continue }
            // A touch beginning gets its tool type before its tracking ID:
            // libinput takes a touch that begins while its slot's tool type is
            // still a palm (the last one ended as one) for a palm.
            if let tool = toolTypeIndex, state.mt[base] >= 0, state.mt[base] != twin.mt[base],
                state.mt[base + tool] != twin.mt[base + tool]
            {
                selectSlot(s, at: time)
                emit(EV.ABS, ABS.MT_TOOL_TYPE, state.mt[base + tool], at: time)
                twin.mt[base + tool] = state.mt[base + tool]
            }
            for m in 0..<stride where state.mt[base + m] != twin.mt[base + m] {
                // Positions and the rest of an ending touch are not sent: they
                // would move it on its way out.
                if state.mt[base] < 0 && m != 0 { continue }
                selectSlot(s, at: time)
                emit(EV.ABS, mtCodes[m], state.mt[base + m], at: time)
                twin.mt[base + m] = state.mt[base + m]
            }
        }
        for a in absCodes.indices where state.abs[a] != twin.abs[a] {
            emit(EV.ABS, absCodes[a], state.abs[a], at: time)
            twin.abs[a] = state.abs[a]
        }
        for k in keyCodes.indices where state.keys[k] != twin.keys[k] {
            emit(EV.KEY, keyCodes[k], state.keys[k], at: time)
            twin.keys[k] = state.keys[k]
        }
        if output.count > before { emit(EV.SYN, SYN.REPORT, 0, at: time) }
    }

    private mutating func selectSlot(_ s: Int, at time: EventTime) {
        guard twin.slot != s else { return }
        emit(EV.ABS, ABS.MT_SLOT, Int32(s), at: time)
        twin.slot = s
    }

    private mutating func emit(_ type: UInt16, _ code: UInt16, _ value: Int32, at time: EventTime) {
        output.append(RawEvent(time: time, type: type, code: code, value: value))
    }
}
