import GestureConfig
import GestureCore
import LinuxInput
import Testing

@Suite("Which input nodes the daemon uses")
struct SelectionTests {
    static let touchscreenPath = "/sys/devices/pci0000:00/usb1/1-1/input/input7/event5"

    func node(
        _ sysname: String = "event5", syspath: String = touchscreenPath, name: String = "Atmel maXTouch Touchscreen",
        vendor: UInt16 = 0x03eb, product: UInt16 = 0x8a03, initialized: Bool = true,
        _ props: [String: String] = ["ID_INPUT": "1", "ID_INPUT_TOUCHSCREEN": "1"]
    ) -> InputNode {
        InputNode(
            syspath: syspath, sysname: sysname, devnode: "/dev/input/\(sysname)", devnum: 0x0d45,
            isInitialized: initialized, properties: props, name: name, vendor: vendor, product: product)
    }

    func config(_ toml: String = "") throws -> Configuration {
        try ConfigLoader.load(text: "[recognizer.tap]\nkind = \"tap\"\n" + toml, file: "test.toml")
    }

    @Test func touchscreenIsUsed() throws {
        #expect(try DeviceSelection.check(node(), configuration: config()) == nil)
    }

    @Test func onlyInitializedEventNodes() throws {
        let c = try config()
        #expect(DeviceSelection.check(node("input7", syspath: "/sys/x/input7"), configuration: c) == .notAnEventNode)
        #expect(DeviceSelection.check(node("mouse2", syspath: "/sys/x/mouse2"), configuration: c) == .notAnEventNode)
        #expect(DeviceSelection.check(node(initialized: false), configuration: c) == .uninitialized)
    }

    @Test func keyboardAndPenAreSkipped() throws {
        let c = try config()
        let keyboard = node(
            name: "AT Translated Set 2 keyboard",
            ["ID_INPUT": "1", "ID_INPUT_KEY": "1", "ID_INPUT_KEYBOARD": "1"])
        #expect(DeviceSelection.check(keyboard, configuration: c) == .notATouchscreen(kind: "keyboard"))
        let pen = node(name: "Wacom HID 5256 Pen", ["ID_INPUT": "1", "ID_INPUT_TABLET": "1"])
        #expect(DeviceSelection.check(pen, configuration: c) == .pen)
        let pad = node(name: "Wacom Pad", ["ID_INPUT": "1", "ID_INPUT_TABLET": "1", "ID_INPUT_TABLET_PAD": "1"])
        #expect(DeviceSelection.check(pad, configuration: c) == .pen)
    }

    /// udev tags the N-Trig (BTN_TOUCH, no INPUT_PROP_DIRECT, no pen tools) as
    /// tablet and touchscreen at once: it is used; only pen keys, seen once the
    /// node is open, make a node a pen.
    @Test func tabletAndTouchscreenWithoutPenKeysIsATouchscreen() throws {
        let ntrig = node(
            name: "N-Trig-MultiTouch-Virtual-Device",
            ["ID_INPUT": "1", "ID_INPUT_TABLET": "1", "ID_INPUT_TOUCHSCREEN": "1"])
        #expect(try DeviceSelection.check(ntrig, configuration: config()) == nil)
    }

    @Test func denyByNameVendorProductOrSyspath() throws {
        for rule in ["match = \"maXTouch\"", "vendor_product = \"03EB:8A03\"", "syspath = \"\(Self.touchscreenPath)\""]
        {
            let c = try config("[[device]]\n\(rule)\nuse = false\n")
            let skip = DeviceSelection.check(node(), configuration: c)
            #expect(skip?.code == "denied-by-config", "rule \(rule)")
        }
        // A rule for another device leaves this one alone.
        let other = try config("[[device]]\nvendor_product = \"1234:5678\"\nuse = false\n")
        #expect(DeviceSelection.check(node(), configuration: other) == nil)
        let otherPath = try config("[[device]]\nsyspath = \"/sys/devices/other/event9\"\nuse = false\n")
        #expect(DeviceSelection.check(node(), configuration: otherPath) == nil)
    }

    @Test func allowAddsANodeUdevDoesNotCallATouchscreenButNeverAPen() throws {
        let c = try config("[[device]]\nmatch = \"Custom Panel\"\nuse = true\n")
        let unclassified = node(name: "Custom Panel", ["ID_INPUT": "1"])
        #expect(DeviceSelection.check(unclassified, configuration: c) == nil)
        let penPanel = node(name: "Custom Panel Pen", ["ID_INPUT": "1", "ID_INPUT_TABLET": "1"])
        #expect(DeviceSelection.check(penPanel, configuration: c) == .pen)
    }

    @Test func afterOpeningPenKeysOrMissingAxesSkip() {
        var d = DeviceDescription(name: "x")
        d.axes[ABS.X] = AxisInfo(minimum: 0, maximum: 100)
        d.axes[ABS.Y] = AxisInfo(minimum: 0, maximum: 100)
        #expect(DeviceSelection.check(d) == nil)
        var pen = d
        pen.keys = [BTN.TOOL_PEN]
        #expect(DeviceSelection.check(pen) == .pen)
        #expect(DeviceSelection.check(DeviceDescription(name: "keys only")) == .noPositionAxes)
    }
}
