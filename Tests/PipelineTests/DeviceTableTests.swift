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
}
