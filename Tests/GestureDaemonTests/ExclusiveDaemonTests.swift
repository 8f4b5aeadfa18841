import GestureCore
import Glibc
import LinuxInput
import Testing

@testable import GestureConfig
@testable import GestureDaemon

/// An exclusive touchscreen in the daemon: its twin made once, written in the
/// turn its input is read, kept across reloads, removed with the device.
@Suite struct ExclusiveDaemonTests {
    static let config = """
        [recognizer.menu]
        kind = "swipe"
        edge = "left"
        consume = true

        [recognizer.tap]
        kind = "tap"

        [[device]]
        match = "Atmel"
        size_mm = [160, 96]
        exclusive = true
        """

    let t0 = EventTime(microseconds: 10_000_000)

    func started(twinFailure: String? = nil, more: String = "") throws -> (EmbeddedDaemon, InputNode) {
        let c = try ConfigLoader.load(text: Self.config + more, file: "exclusive.toml")
        var d = EmbeddedDaemon(configuration: c, at: EventTime(microseconds: 5_000_000))
        d.nextConfig = .success(c)
        d.twinFailure = twinFailure
        let node = d.plug(try DaemonCoreTests.device("Atmel-maXTouch-Touchscreen.desc"), event: 10)
        d.start()
        return (d, node)
    }

    /// What the twin got, as one list of events.
    func written(_ d: EmbeddedDaemon, _ node: InputNode) -> [RawEvent] { (d.twins[node.syspath] ?? []).flatMap { $0 } }

    @Test func aTapInTheMiddleIsWrittenInTheTurnItIsRead() throws {
        var (d, node) = try started()
        #expect(d.twinLog == ["made \(node.syspath)"])
        #expect(d.logText.contains { $0.contains("is exclusive: grabbed") })
        let t = Touches(device: d.kernel[node.syspath]!.description, at: t0)
        d.input(node, t.down(id: 1, x: 400, y: 240))
        #expect(d.twins[node.syspath]?.count == 1, "one write, in the read's own turn")
        let first = written(d, node)
        #expect(first.contains(RawEvent(time: first[0].time, type: EV.ABS, code: ABS.MT_POSITION_X, value: 400)))
        #expect(first.contains(RawEvent(time: first[0].time, type: EV.ABS, code: ABS.MT_TRACKING_ID, value: 1)))
        d.input(node, t.at(60).up())
        #expect(d.twins[node.syspath]?.count == 2)
        #expect(written(d, node).contains { $0.code == ABS.MT_TRACKING_ID && $0.value == -1 })
        d.advanceTime(byMS: 500)
        #expect(d.states("tap") == [.recognized])
    }

    @Test func aForwardedFrameIsWrittenBeforeTheRecognizersSeeIt() throws {
        var (d, node) = try started(more: "\n[recognizer.pan]\nkind = \"pan\"\n")
        let t = Touches(device: d.kernel[node.syspath]!.description, at: t0)
        var order: [String] = []
        func turn(_ events: [RawEvent]) {
            d.now = events.last!.time
            var next: DaemonCore.Input? = .read(syspath: node.syspath, events.map { .event($0) }, end: .drained)
            while let input = next {
                next = nil
                for action in d.core.handle(input) {
                    switch action {
                    case .writeTwin: order.append("twin")
                    case .publish(let e, _): order.append("\(e.name) \(e.state.rawValue)")
                    case .continueRead:
                        // The loop has carried out what came before: the write.
                        order.append("recognizers")
                        next = .readContinued
                        continue
                    default: break
                    }
                    d.execute(action)
                }
            }
        }
        turn(t.down(id: 1, x: 400, y: 240))
        for step in 1...8 { turn(t.at(Double(step) * 12).move(x: Int32(400 + step * 20), y: 240)) }
        turn(t.at(110).up())
        // Each frame: written, then the recognizers' turn; the pan they see
        // on a frame is published after the twin has the frame.
        let frames = order.split(separator: "twin", omittingEmptySubsequences: true).map { Array($0) }
        #expect(order.first == "twin")
        #expect(frames.count == 10, "\(order)")
        #expect(frames.allSatisfy { $0.first == "recognizers" }, "\(order)")
        #expect(order.contains("pan began") && order.contains("pan ended"))
        #expect(d.twins[node.syspath]?.count == 10, "one write per frame")
        let pan = d.states("pan")
        #expect(pan.first == .began && pan.last == .ended)
    }

    /// A drag in the middle, a tap in the edge band (held, then replayed) and
    /// another drag, each frame's events.
    func threeSequences(_ t: Touches) -> [[RawEvent]] {
        var frames = [t.down(id: 1, x: 400, y: 240)]
        for step in 1...6 { frames.append(t.at(Double(step) * 12).move(x: Int32(400 + step * 20), y: 240)) }
        frames.append(t.at(84).up())
        frames.append(t.at(300).down(id: 2, x: 3, y: 100))
        frames.append(t.at(360).up())
        frames.append(t.at(600).down(id: 3, x: 300, y: 300))
        for step in 1...4 { frames.append(t.at(600 + Double(step) * 12).move(x: Int32(300 - step * 20), y: 300)) }
        return frames
    }

    @Test func aReadOfManyFramesGivesTheTwinWhatFrameByFrameReadsGive() throws {
        let more = "\n[recognizer.pan]\nkind = \"pan\"\n"
        var (one, node) = try started(more: more)
        var (all, _) = try started(more: more)
        let frames = threeSequences(Touches(device: one.kernel[node.syspath]!.description, at: t0))
        for f in frames { one.input(node, f) }
        // The loop fell behind: the kernel kept every frame for one read.
        all.input(node, frames.flatMap { $0 })
        #expect(written(all, node) == written(one, node), "the same events, in the same order")
        #expect(
            all.published.map { "\($0.name) \($0.state.rawValue)" }
                == one.published.map { "\($0.name) \($0.state.rawValue)" })
        #expect(all.states("pan").filter { $0 == .began }.count == 2)
        // The first drag's frames leave in one write, ahead of the recognizers;
        // the tap in the edge band waits for them, is held, and is replayed at
        // its lift; in the same write as the second drag, which goes ahead again.
        #expect((all.twins[node.syspath] ?? []).count == 2)
        #expect((one.twins[node.syspath] ?? []).count == frames.count - 1, "one per read, but the held touch-down")
    }

    @Test func anOverflowInsideAReadOfFramesThatGoAheadIsResyncedInOrder() throws {
        let more = "\n[recognizer.pan]\nkind = \"pan\"\n"
        var (one, node) = try started(more: more)
        var (all, _) = try started(more: more)
        let frames = threeSequences(Touches(device: one.kernel[node.syspath]!.description, at: t0))
        // The kernel's buffer overflowed after the third frame: libevdev's
        // resync follows (here, the next frames as they are).
        for (i, f) in frames.enumerated() {
            if i == 3 { one.queueDrop(node) }
            one.queue(node, f)
            one.read(node.syspath)
        }
        for (i, f) in frames.enumerated() {
            if i == 3 { all.queueDrop(node) }
            all.queue(node, f)
        }
        all.read(node.syspath)
        #expect(written(all, node) == written(one, node))
        #expect(
            all.published.map { "\($0.name) \($0.state.rawValue)" }
                == one.published.map { "\($0.name) \($0.state.rawValue)" })
        #expect(all.logText.filter { $0.contains("SYN_DROPPED") }.count == 1)
    }

    @Test func aConsumedEdgeSwipeIsNeverWritten() throws {
        var (d, node) = try started()
        let t = Touches(device: d.kernel[node.syspath]!.description, at: t0)
        d.input(node, t.down(id: 1, x: 2, y: 240))
        for step in 1...8 { d.input(node, t.at(Double(step) * 12).move(x: Int32(2 + step * 40), y: 240)) }
        d.input(node, t.at(110).up())
        d.advanceTime(byMS: 500)
        #expect(d.states("menu") == [.recognized])
        #expect(written(d, node).isEmpty, "the apps never see it")
    }

    @Test func theTwinIsNotOpenedAsATouchscreen() throws {
        var (d, _) = try started()
        let twin = d.plug(try DaemonCoreTests.device("Atmel-maXTouch-Touchscreen.desc"), event: 90)
        #expect(twin.syspath.hasPrefix("/sys/devices/virtual/input/input90/"))
        d.udevEvent(.add, twin)
        #expect(!d.open.contains(twin.syspath))
        #expect(d.logText.contains { $0.contains("gestured's own twin") })
    }

    @Test func reloadKeepsTheTwinAndRemovalRemovesIt() throws {
        var (d, node) = try started()
        #expect(d.core.devices[node.syspath]?.relay?.hold == Millis(300))
        d.nextConfig = .success(
            try ConfigLoader.load(text: Self.config + "\nhold_ms = 120\n", file: "exclusive.toml"))
        d.send(.signal(SIGHUP, at: d.now))
        #expect(d.twinLog == ["made \(node.syspath)"], "a reload neither remakes nor removes it")
        #expect(d.core.devices[node.syspath]?.relay?.hold == Millis(120), "its new bound applies")
        let t = Touches(device: d.kernel[node.syspath]!.description, at: t0)
        d.input(node, t.down(id: 1, x: 400, y: 240))
        #expect(!written(d, node).isEmpty, "still relayed after the reload")
        d.unplug(node)
        d.udevEvent(.remove, node)
        #expect(d.twinLog == ["made \(node.syspath)", "removed \(node.syspath)"])
    }

    /// A reload that makes a device exclusive, or no longer, applies at once:
    /// the device is closed (its grab and twin gone with it) and opened again
    /// as the new rule says.
    @Test func aReloadThatChangesExclusiveOpensTheDeviceAgain() throws {
        var (d, node) = try started()
        #expect(d.twinLog == ["made \(node.syspath)"])
        let plain = Self.config.split(separator: "\n").map { $0 == "exclusive = true" ? "exclusive = false" : $0 }
            .joined(separator: "\n")
        d.nextConfig = .success(try ConfigLoader.load(text: plain, file: "exclusive.toml"))
        d.send(.signal(SIGHUP, at: d.now))
        #expect(d.twinLog == ["made \(node.syspath)", "removed \(node.syspath)"])
        #expect(d.open.contains(node.syspath), "opened again")
        #expect(d.core.devices[node.syspath]?.relay == nil)
        #expect(d.logText.contains { $0.contains("no longer exclusive; opened again") })
        let t = Touches(device: d.kernel[node.syspath]!.description, at: t0)
        d.input(node, t.down(id: 1, x: 400, y: 240))
        #expect(written(d, node).isEmpty, "no twin to write to")

        d.nextConfig = .success(try ConfigLoader.load(text: Self.config, file: "exclusive.toml"))
        d.send(.signal(SIGHUP, at: d.now))
        #expect(d.twinLog.last == "made \(node.syspath)")
        #expect(d.core.devices[node.syspath]?.relay != nil)
    }

    @Test func aTwinThatCannotBeMadeLeavesTheDeviceReadAsBefore() throws {
        var (d, node) = try started(twinFailure: "open /dev/uinput: ENOENT")
        #expect(d.logText.contains { $0.contains("cannot make it exclusive (open /dev/uinput: ENOENT)") })
        let t = Touches(device: d.kernel[node.syspath]!.description, at: t0)
        d.input(node, t.down(id: 1, x: 400, y: 240))
        d.input(node, t.at(60).up())
        d.advanceTime(byMS: 500)
        #expect(d.states("tap") == [.recognized])
        #expect(d.twins[node.syspath] == nil)
    }
}
