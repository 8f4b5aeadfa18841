import GestureCore
import LinuxInput
import Testing

@testable import GestureTools

/// `gesturectl devices --all` prints what devices call themselves: escaped, as
/// the daemon's log does, so a name cannot add a row or drive the terminal.
@Suite struct DeviceTableTests {
    @Test func aHostileNameStaysInItsCell() {
        let hostile = "Evil\nevent9  Fake Touchscreen\u{1b}[2J\u{1b}]0;x\u{7}\u{202E}"
        let reports = [
            DeviceReport(
                devnode: "/dev/input/event30", syspath: "/sys/devices/virtual/input/input30/event30", name: hostile,
                vendorProduct: "0000:0000", skipped: .notATouchscreen(kind: "keyboard"), udevTouchscreen: false)
        ]
        let table = DeviceSurvey.table(reports)
        let lines = table.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2, "a header and one row: \(table)")
        #expect(
            lines.last?.contains(#"Evil\nevent9  Fake Touchscreen\u{1b}[2J\u{1b}]0;x\u{7}\u{202e}"#) == true, "\(table)"
        )
        #expect(
            !table.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F || $0 == "\u{202E}" })
    }

    @Test func gesturedsTwinOfAnExclusiveTouchscreenIsMarkedNotUsed() {
        func touchscreen(_ node: String, _ syspath: String) -> DeviceReport {
            DeviceReport(
                devnode: node, syspath: syspath, name: "Goodix Capacitive TouchScreen", vendorProduct: "0416:038f",
                skipped: nil, udevTouchscreen: true)
        }
        let panel = touchscreen("/dev/input/event2", "/sys/devices/platform/i2c/input/input2/event2")
        let twin = touchscreen("/dev/input/event7", "/sys/devices/virtual/input/input7/event7")
        var reports = [panel, twin]
        DeviceSurvey.markTwins(&reports) { $0.syspath == panel.syspath }
        #expect(reports[0].inUse)
        #expect(reports[1].skipped == .exclusiveTwin(of: "/dev/input/event2"))
        #expect(DeviceSurvey.table(reports).contains("skipped: gestured's twin of /dev/input/event2"))
        // A uinput panel (as in the guest's tests) and its twin, made after it.
        let uinputPanel = touchscreen("/dev/input/event1", "/sys/devices/virtual/input/input2/event1")
        let uinputTwin = touchscreen("/dev/input/event2", "/sys/devices/virtual/input/input3/event2")
        var virtualOnes = [uinputTwin, uinputPanel]
        DeviceSurvey.markTwins(&virtualOnes) { _ in true }
        #expect(virtualOnes.map(\.skipped) == [.exclusiveTwin(of: "/dev/input/event1"), nil])
        // Without an exclusive rule the same copy is a touchscreen like any other.
        var plain = [panel, twin]
        DeviceSurvey.markTwins(&plain) { _ in false }
        #expect(plain.map(\.skipped) == [nil, nil])
    }
}
