import GestureConfig
import GestureCore
import Glibc
import LinuxInput
import LinuxSystem
import Testing

@testable import GestureDaemon

/// A device names itself (EVIOCGNAME, udev's NAME): a hostile USB device can
/// put a newline in its name to forge a journal line, or an escape sequence to
/// drive the terminal of whoever reads the log. Every line that names a device
/// escapes the name, as client names are escaped.
@Suite struct DeviceNameTests {
    /// A newline and a forged line, a screen-clearing sequence, a title-setting
    /// one, a bidi override, and what an invalid UTF-8 byte decodes to.
    static let hostile = "Evil\ngestured: fake line\u{1b}[2J\u{1b}]0;x\u{7}\u{202E}\u{FFFD}"
    static let shown = #"Evil\ngestured: fake line\u{1b}[2J\u{1b}]0;x\u{7}\u{202e}�"#

    @Test func aHostileNameIsEscapedInTheOpenSkipAndErrorLines() throws {
        var d = EmbeddedDaemon(at: EventTime(microseconds: 5_000_000))
        let panel = d.plug(ControlTests.panel(Self.hostile), event: 30)
        _ = d.plug(DeviceDescription(name: Self.hostile), event: 31, touchscreen: false)
        d.start()
        #expect(d.open == [panel.syspath])
        d.read(panel.syspath, end: .gone(Errno(rawValue: EIO), at: d.now))
        let text = d.logText
        #expect(text.contains { $0.hasPrefix("using /dev/input/event30 '\(Self.shown)': ") }, "\(text)")
        #expect(
            text.contains("debug: skipping /dev/input/event31 '\(Self.shown)': not a touchscreen (keyboard)"), "\(text)"
        )
        #expect(
            text.contains { $0.hasPrefix("error (device/kernel): /dev/input/event30 '\(Self.shown)': read failed: ") },
            "\(text)")
        #expect(text.contains { $0.hasPrefix("removed /dev/input/event30 '\(Self.shown)': read failed: ") }, "\(text)")
        for line in text {
            #expect(
                !line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{202E}" }, "\(line)")
        }
    }

    @Test func theEscapeShowsEveryKindOfHiddenCharacter() {
        #expect(
            sanitizedForLog("a\u{0}b\u{9b}c\u{200B}d\u{FEFF}e\u{2066}f\u{2028}g\\")
                == #"a\u{0}b\u{9b}c\u{200b}d\u{feff}e\u{2066}f\u{2028}g\\"#)
        #expect(sanitizedForLog(String(decoding: [0x41, 0xFF, 0x1B, 0x42] as [UInt8], as: UTF8.self)) == #"A�\u{1b}B"#)
        #expect(sanitizedForLog("Ünïcødé Touch 触摸屏") == "Ünïcødé Touch 触摸屏", "what can be read stays as it is")
    }
}
