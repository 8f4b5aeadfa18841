import LinuxInput
import Testing

@Suite("Which pen node is a touchscreen's pen")
struct PenPairingTests {
    static let hid = "/sys/devices/pci0000:00/0000:00:15.0/i2c_designware.0/i2c-1/i2c-WCOM5146:00/0018:056A:5146.0001"

    func node(
        _ syspath: String, pen: Bool = false, pad: Bool = false, group: String? = nil, initialized: Bool = true
    ) -> InputNode {
        var props = ["ID_INPUT": "1"]
        if pen { props["ID_INPUT_TABLET"] = "1" } else { props["ID_INPUT_TOUCHSCREEN"] = "1" }
        if pad { props["ID_INPUT_TABLET_PAD"] = "1" }
        if let group { props["LIBINPUT_DEVICE_GROUP"] = group }
        let sysname = String(syspath.split(separator: "/").last!)
        return InputNode(
            syspath: syspath, sysname: sysname, devnode: "/dev/input/\(sysname)", isInitialized: initialized,
            properties: props)
    }

    @Test func theTabletNodeOfTheSameParentDeviceIsThePen() {
        let screen = node(Self.hid + "/input/input7/event5")
        let pen = node(Self.hid + "/input/input8/event6", pen: true)
        #expect(PenPairing.pairs(screen: screen, pen: pen))
        #expect(PenPairing.parent(of: pen) == Self.hid)
        let otherPen = node(
            "/sys/devices/pci0000:00/usb1/1-2/1-2:1.0/0003:056A:0357.0002/input/input9/event7", pen: true)
        #expect(!PenPairing.pairs(screen: screen, pen: otherPen), "a tablet on USB is not the screen's pen")
    }

    @Test func libinputsDeviceGroupDecidesWhenBothHaveOne() {
        let screen = node(Self.hid + "/input/input7/event5", group: "18/56a/5146:i2c-WCOM5146:00")
        let pen = node(
            "/sys/devices/elsewhere/0018:056A:5147.0003/input/input8/event6", pen: true,
            group: "18/56a/5146:i2c-WCOM5146:00")
        #expect(PenPairing.pairs(screen: screen, pen: pen), "one group, two HID parents")
        let samePanelOtherGroup = node(Self.hid + "/input/input8/event6", pen: true, group: "3/56a/357:usb-1-2")
        #expect(!PenPairing.pairs(screen: screen, pen: samePanelOtherGroup))
    }

    @Test func virtualDevicesPairOnlyThroughAGroup() {
        // uinput devices all hang off /sys/devices/virtual/input.
        let screen = node("/sys/devices/virtual/input/input20/event20")
        let pen = node("/sys/devices/virtual/input/input21/event21", pen: true)
        #expect(!PenPairing.pairs(screen: screen, pen: pen))
        #expect(PenPairing.parent(of: pen) == nil)
        let groupedScreen = node("/sys/devices/virtual/input/input20/event20", group: "gestured-test/1")
        let groupedPen = node("/sys/devices/virtual/input/input21/event21", pen: true, group: "gestured-test/1")
        #expect(PenPairing.pairs(screen: groupedScreen, pen: groupedPen))
    }

    @Test func onlyAnInitializedPenNodeThatIsNoPadNorTouchscreenIsAPen() {
        let screen = node(Self.hid + "/input/input7/event5")
        #expect(!PenPairing.pairs(screen: screen, pen: node(Self.hid + "/input/input8/event6", pen: true, pad: true)))
        #expect(!PenPairing.pairs(screen: screen, pen: node(Self.hid + "/input/input9/event7")))
        #expect(
            !PenPairing.pairs(
                screen: screen, pen: node(Self.hid + "/input/input8/event6", pen: true, initialized: false)))
        #expect(!PenPairing.pairs(screen: screen, pen: node(Self.hid + "/input/input8/input8", pen: true)))
        var both = node(Self.hid + "/input/input8/event6", pen: true)
        both.properties["ID_INPUT_TOUCHSCREEN"] = "1"
        #expect(!PenPairing.isPen(both), "udev calls some old touchscreens tablets too: they are screens")
    }
}
