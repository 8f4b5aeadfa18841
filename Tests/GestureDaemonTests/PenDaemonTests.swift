import GestureConfig
import GestureCore
import LinuxInput
import Testing

@testable import GestureDaemon

/// A touchscreen and its pen node through the daemon's decisions: pairing,
/// hotplug of the pen, its reads, removal, reload.
@Suite struct PenDaemonTests {
    let t0 = EventTime(microseconds: 10_000_000)
    static let group = ["LIBINPUT_DEVICE_GROUP": "3/eef/1:usb-test"]

    func screenDevice() throws -> DeviceDescription { try DaemonCoreTests.device("Atmel-maXTouch-Touchscreen.desc") }

    func penDescription() -> DeviceDescription {
        var d = DeviceDescription(name: "Test Pen")
        d.axes[ABS.X] = AxisInfo(minimum: 0, maximum: 4096, resolution: 20)
        d.axes[ABS.Y] = AxisInfo(minimum: 0, maximum: 4096, resolution: 20)
        d.keys = [PenTool.pen, PenTool.rubber, BTN.TOUCH, BTN.STYLUS]
        return d
    }

    /// A pen node as udev lists it, and what libevdev reports once open.
    func plugPen(
        _ d: inout EmbeddedDaemon, event n: Int, toolsDown: [UInt16] = [], properties: [String: String] = group
    )
        -> InputNode
    {
        let node = InputNode(
            syspath: "/sys/devices/virtual/input/input\(n)/event\(n)", sysname: "event\(n)",
            devnode: "/dev/input/event\(n)", devnum: UInt64(0xd40 + n),
            properties: ["ID_INPUT": "1", "ID_INPUT_TABLET": "1"].merging(properties) { $1 }, name: "Test Pen")
        d.udev.append(node)
        d.kernel[node.syspath] = DeviceSnapshot(node: node, description: penDescription(), toolsDown: toolsDown)
        return node
    }

    func pen(_ inProximity: Bool, at t: EventTime, tool: UInt16 = PenTool.pen) -> [RawEvent] {
        [
            RawEvent(time: t, type: EV.KEY, code: tool, value: inProximity ? 1 : 0),
            RawEvent(time: t, type: EV.SYN, code: SYN.REPORT, value: 0),
        ]
    }

    /// One finger dragged 300 units to the right from `t`, 10 ms a frame, lifted.
    func drag(_ d: inout EmbeddedDaemon, _ screen: InputNode, from t: EventTime, id: Int32) throws {
        let tp = Touches(device: try screenDevice(), at: t)
        d.input(screen, tp.down(id: id, x: 100, y: 300))
        for i in 1...10 { d.input(screen, tp.at(Double(i) * 10).move(x: Int32(100 + 30 * i), y: 300)) }
        d.input(screen, tp.at(110).up())
        d.advanceTime(byMS: 1000)
    }

    func started() throws -> (EmbeddedDaemon, InputNode, InputNode) {
        var d = EmbeddedDaemon(at: EventTime(microseconds: 5_000_000))
        let screen = d.plug(try screenDevice(), event: 10, properties: Self.group)
        let penNode = plugPen(&d, event: 11)
        d.start()
        return (d, screen, penNode)
    }

    @Test func thePenNodeOfTheSameDeviceIsOpenedBesideItsScreen() throws {
        let (d, screen, penNode) = try started()
        #expect(d.watched == [screen.syspath, penNode.syspath])
        #expect(d.info.devices.map(\.node) == ["/dev/input/event10"], "a pen is no touchscreen of its own")
        #expect(
            d.logText.contains {
                $0.hasPrefix(
                    "pen /dev/input/event11 'Test Pen' paired with /dev/input/event10 'Atmel maXTouch Touchscreen'")
            })
    }

    @Test func aPenOfAnotherDeviceIsNotOpened() throws {
        var d = EmbeddedDaemon()
        _ = d.plug(try screenDevice(), event: 10, properties: Self.group)
        _ = plugPen(&d, event: 11, properties: ["LIBINPUT_DEVICE_GROUP": "3/56a/357:usb-other"])
        d.start()
        #expect(d.watched.count == 1)
    }

    @Test func aPenInProximityCancelsTheScreensGestureAndASwipeWorksAfterItLeft() throws {
        var (d, screen, penNode) = try started()
        let tp = Touches(device: try screenDevice(), at: t0)
        d.input(screen, tp.down(id: 1, x: 100, y: 300))
        for i in 1...6 { d.input(screen, tp.at(Double(i) * 10).move(x: Int32(100 + 40 * i), y: 300)) }
        #expect(d.states("pan").first == .began)
        #expect(!d.states("pan").contains(.cancelled))
        d.input(penNode, pen(true, at: t0 + Millis(65)))
        #expect(d.states("pan").last == .cancelled)
        #expect(d.events(named: "pan").last?.reason == "pen in proximity")
        d.input(screen, tp.at(80).up())

        // The palm drags while the pen hovers: nothing.
        let before = d.published.count
        try drag(&d, screen, from: t0 + Millis(200), id: 2)
        #expect(d.published.count == before)

        // The pen leaves; its release time passes on the daemon's timer.
        d.input(penNode, pen(false, at: d.now))
        #expect(d.timer == d.now + Millis(90))
        d.advanceTime(byMS: 100)
        try drag(&d, screen, from: d.now + Millis(10), id: 3)
        #expect(d.states("swipe") == [.failed, .recognized], "failed: the first drag, when the pen came")
        #expect(d.events(named: "swipe").first?.reason == "pen in proximity")
    }

    @Test func aPenPluggedAfterItsScreenIsPairedAndAnUnpluggedOneReleasesTheScreen() throws {
        var d = EmbeddedDaemon(at: EventTime(microseconds: 5_000_000))
        let screen = d.plug(try screenDevice(), event: 10, properties: Self.group)
        d.start()
        #expect(d.watched == [screen.syspath])
        let penNode = plugPen(&d, event: 11, toolsDown: [PenTool.pen])
        d.udevEvent(.add, penNode)
        #expect(d.watched.contains(penNode.syspath))
        let before = d.published.count
        try drag(&d, screen, from: t0, id: 1)
        #expect(d.published.count == before, "opened with its pen in proximity: arbitration from the start")

        d.unplug(penNode)
        d.udevEvent(.remove, penNode)
        #expect(!d.open.contains(penNode.syspath))
        #expect(d.logText.contains("pen /dev/input/event11 'Test Pen' removed: udev remove"))
        d.advanceTime(byMS: 100)
        try drag(&d, screen, from: d.now + Millis(10), id: 2)
        #expect(d.states("swipe") == [.recognized], "the pen gone is the pen out of proximity")
    }

    @Test func aPenThatFailedToOpenIsTriedAgainAtItsNextUdevEvent() throws {
        var d = EmbeddedDaemon(at: EventTime(microseconds: 5_000_000))
        let screen = d.plug(try screenDevice(), event: 10, properties: Self.group)
        let penNode = plugPen(&d, event: 11)
        let snapshot = d.kernel.removeValue(forKey: penNode.syspath)
        d.start()
        #expect(d.watched == [screen.syspath])
        d.kernel[penNode.syspath] = snapshot
        d.udevEvent(.change, penNode)
        #expect(d.watched == [screen.syspath, penNode.syspath])
    }

    @Test func theScreenRemovedClosesItsPenAndReplugsPairThemAgain() throws {
        var (d, screen, penNode) = try started()
        d.unplug(screen)
        d.udevEvent(.remove, screen)
        #expect(d.open.isEmpty, "the pen of no screen is not read")
        let again = d.plug(try screenDevice(), event: 10, properties: Self.group)
        d.udevEvent(.add, again)
        #expect(d.watched == [screen.syspath, penNode.syspath])
    }

    @Test func thePensNodeGoingAwayOnReadAndSYN_DROPPEDOnIt() throws {
        var (d, screen, penNode) = try started()
        // A dropped buffer on the pen: libevdev's resync says the pen came.
        d.queueDrop(penNode)
        d.input(penNode, pen(true, at: t0))
        let before = d.published.count
        try drag(&d, screen, from: t0 + Millis(10), id: 1)
        #expect(d.published.count == before)
        d.read(penNode.syspath, end: .gone(.noDevice, at: d.now))
        #expect(!d.open.contains(penNode.syspath))
        #expect(d.open.contains(screen.syspath))
        d.advanceTime(byMS: 100)
        try drag(&d, screen, from: d.now + Millis(10), id: 2)
        #expect(d.states("swipe") == [.recognized])
    }

    @Test func aReloadKeepsThePenInProximity() throws {
        var (d, screen, penNode) = try started()
        d.input(penNode, pen(true, at: t0))
        d.send(.configFileChanged)
        let before = d.published.count
        try drag(&d, screen, from: d.now + Millis(10), id: 1)
        #expect(d.published.count == before)
        #expect(d.watched.contains(penNode.syspath))
    }
}
