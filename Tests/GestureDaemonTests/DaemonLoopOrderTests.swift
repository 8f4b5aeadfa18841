import GestureConfig
import GestureCore
import LinuxInput
import LinuxSystem
import Testing

@testable import GestureDaemon

/// The loop carries out one action list at a time: what an action asks the
/// world (an open, a listing, a read, a reload) answers with an input that is
/// handled after the list is done, as an event loop runs what was queued
/// meanwhile. A list is never interrupted by another, so its later actions and
/// the timer it arms are never older than what the core has decided since.
@Suite struct DaemonLoopOrderTests {
    final class Lines { var all: [String] = [] }

    @Test func anActionListIsFinishedBeforeTheInputsItsActionsAnswer() throws {
        let lines = Lines()
        let log = Logger(program: "gestured", verbose: true) { lines.all.append($0) }
        let loop = try DaemonLoop(
            configuration: ConfigLoader.builtIn(), options: .init(), listener: nil,
            notifier: SystemdNotifier(environment: [:], log: log), log: log)
        // A touchscreen that is gone before it can be opened, then a keyboard.
        let gone = InputNode(
            syspath: "/sys/devices/virtual/input/input90/event90", sysname: "event90",
            devnode: "/nonexistent/event90", properties: ["ID_INPUT": "1", "ID_INPUT_TOUCHSCREEN": "1"],
            name: "Gone Panel")
        let keyboard = InputNode(
            syspath: "/sys/devices/virtual/input/input91/event91", sysname: "event91",
            devnode: "/nonexistent/event91", properties: ["ID_INPUT": "1", "ID_INPUT_KEYBOARD": "1"],
            name: "Keyboard")
        // The listing's list: open event90, then a line skipping event91. The
        // open fails at once; its answer (a line about event90) comes after the list.
        loop.send(.devicesListed([gone, keyboard]))
        let about = lines.all.filter { $0.contains("event90") || $0.contains("event91") }
        #expect(about.count == 2, "\(lines.all)")
        #expect(
            about.first == "gestured: debug: skipping /nonexistent/event91 'Keyboard': not a touchscreen (keyboard)",
            "\(about)")
        #expect(
            about.last?.hasPrefix("gestured: /nonexistent/event90 went away before it could be used") == true,
            "\(about)")
        #expect(loop.core.openDevices.isEmpty)
    }
}
