import GestureCore
import Glibc
import LinuxInput
import LinuxSystem
import Testing

@testable import GestureConfig
@testable import GestureDaemon

/// The daemon's decisions, driven directly on a fake clock: hotplug, removal,
/// reload, resync, two devices, the timer, udev trouble. No devices, no sleeps.
@Suite struct DaemonCoreTests {
    static let fixtures: String = {
        // #filePath is Tests/GestureDaemonTests/DaemonCoreTests.swift.
        let here = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        return here.dropLast(2).joined(separator: "/") + "/fixtures/recordings/"
    }()

    static func load(_ name: String) throws -> EvemuRecording {
        let fd = try FileDescriptor.openInputNode(fixtures + name)
        defer { fd.close() }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try fd.read(into: $0) }
            if n == 0 { break }
            bytes += chunk[0..<n]
        }
        return try EvemuRecording(parsing: String(decoding: bytes, as: UTF8.self))
    }

    static func device(_ desc: String) throws -> DeviceDescription {
        try #require(try load(desc).device)
    }

    /// A recording's events cut into frames (each ending with SYN_REPORT).
    static func frames(_ events: [RawEvent]) -> [[RawEvent]] {
        var out: [[RawEvent]] = [], current: [RawEvent] = []
        for e in events {
            current.append(e)
            if e.type == EV.SYN && e.code == SYN.REPORT {
                out.append(current)
                current = []
            }
        }
        return out
    }

    /// A daemon started with one Atmel panel plugged in, its clock just before `t0`.
    func started(with descs: [String] = ["Atmel-maXTouch-Touchscreen.desc"]) throws -> (EmbeddedDaemon, [InputNode]) {
        var d = EmbeddedDaemon(at: EventTime(microseconds: 5_000_000))
        var nodes: [InputNode] = []
        for (i, desc) in descs.enumerated() { nodes.append(d.plug(try Self.device(desc), event: 10 + i)) }
        d.start()
        return (d, nodes)
    }

    let t0 = EventTime(microseconds: 10_000_000)

    /// The EP0430M09's two-finger scroll played until its pan has changed once:
    /// the daemon, its one device, the recording's frames and the next frame to play.
    func midScroll() throws -> (EmbeddedDaemon, [InputNode], [[RawEvent]], Int) {
        var (d, nodes) = try started(with: ["EP0430M09.desc"])
        let frames = Self.frames(try Self.load("EP0430M09.2-finger-scroll-down.events").events)
        var i = 0
        while d.states("pan").last != .changed && i < frames.count {
            d.input(nodes[0], frames[i])
            i += 1
        }
        return (d, nodes, frames, i)
    }

    // MARK: start and hotplug

    @Test func startOpensTheTouchscreensPresentThenSaysReady() throws {
        let (d, nodes) = try started()
        #expect(d.watched == [nodes[0].syspath])
        #expect(
            d.notified == [
                .ready(status: "1 touchscreen, \(ConfigLoader.builtIn().recognizers.count) recognizers, 0 subscribers")
            ])
        #expect(d.info.devices.map(\.node) == ["/dev/input/event10"])
        #expect(d.logText.contains { $0.hasPrefix("using /dev/input/event10 'Atmel maXTouch Touchscreen'") })
    }

    @Test func startWithNoTouchscreenWaitsForOne() {
        var d = EmbeddedDaemon()
        d.start()
        #expect(d.open.isEmpty)
        #expect(d.logText.contains("no touchscreen yet; waiting for one to appear"))
        #expect(d.notified.count == 1)
    }

    @Test func aKeyboardPluggedInIsNotOpenedAndATouchscreenIs() throws {
        var (d, _) = try started(with: [])
        let keyboard = d.plug(DeviceDescription(name: "AT Translated Set 2 keyboard"), event: 3, touchscreen: false)
        d.udevEvent(.add, keyboard)
        #expect(d.open.isEmpty)
        // Quiet unless -v: a keyboard is not news.
        #expect(
            d.logs.last
                == .init(
                    level: .debug,
                    message: "skipping /dev/input/event3 'AT Translated Set 2 keyboard': not a touchscreen (keyboard)"))
        #expect(d.info.devices.isEmpty)

        let panel = d.plug(try Self.device("EP0430M09.desc"), event: 4)
        d.udevEvent(.add, panel)
        #expect(d.watched == [panel.syspath])
        #expect(d.info.devices.map(\.name) == ["EP0430M09"])
        #expect(
            d.notified.last
                == .status("1 touchscreen, \(ConfigLoader.builtIn().recognizers.count) recognizers, 0 subscribers"))
        // A second add (udev "change") does not open it twice.
        d.udevEvent(.change, panel)
        #expect(d.open == [panel.syspath])
    }

    @Test func aDeviceDeniedByConfigIsSkippedWithAReason() throws {
        let config = try ConfigLoader.load(text: "[[device]]\nmatch = \"EP0430M09\"\nuse = false\n", file: "t.toml")
        var d = EmbeddedDaemon(configuration: config)
        let panel = d.plug(try Self.device("EP0430M09.desc"), event: 4)
        d.start()
        #expect(d.open.isEmpty)
        #expect(d.logs.contains { $0.level == .info && $0.message.contains("denied by config") })
        _ = panel
    }

    // MARK: removal

    @Test func aDeviceRemovedMidPanCancelsThePanOnceAndClosesIt() throws {
        var (d, nodes, frames, i) = try midScroll()
        #expect(d.states("pan").first == .began)
        #expect(i < frames.count / 2)

        d.udevEvent(.remove, nodes[0])
        let pan = d.events(named: "pan")
        #expect(pan.last?.state == .cancelled)
        #expect(pan.last?.reason == "device removed")
        #expect(d.open.isEmpty)
        #expect(d.info.devices.isEmpty)
        #expect(d.logText.last == "removed /dev/input/event10 'EP0430M09': udev remove")

        // The ENODEV of the read that follows finds nothing left to end.
        let before = d.published.count
        d.read(nodes[0].syspath, end: .gone(.noDevice, at: d.now))
        #expect(d.published.count == before)
        #expect(d.timer == nil)
    }

    @Test func ENODEVOnReadRemovesTheDevice() throws {
        var (d, nodes) = try started()
        let t = Touches(device: try Self.device("Atmel-maXTouch-Touchscreen.desc"), at: t0)
        d.input(nodes[0], t.down(id: 1, x: 400, y: 240))
        d.read(nodes[0].syspath, end: .gone(.noDevice, at: t0 + Millis(50)))
        #expect(d.open.isEmpty)
        #expect(d.logText.last == "removed /dev/input/event10 'Atmel maXTouch Touchscreen': ENODEV: unplugged")
        // The touch was down: long press and tap had started watching it and end as failed or cancelled, never recognized.
        #expect(!d.published.contains { $0.state == .recognized || $0.state == .began })
        #expect(d.states("long_press") == [.failed])
    }

    @Test func aHangUpAfterTheLastReadRemovesTheDeviceAfterItsInputIsUsed() throws {
        var (d, nodes) = try started()
        let t = Touches(device: try Self.device("Atmel-maXTouch-Touchscreen.desc"), at: t0)
        d.input(nodes[0], t.down(id: 1, x: 400, y: 240))
        // The lift and the hang-up come in the same wakeup: the lift is used first.
        d.queue(nodes[0], t.at(60).up())
        d.read(nodes[0].syspath, end: .hangup("readable|hangup", at: t0 + Millis(61)))
        #expect(d.open.isEmpty)
        #expect(
            d.logText.last
                == "removed /dev/input/event10 'Atmel maXTouch Touchscreen': the kernel reported readable|hangup")
        // The tap was waiting for double_tap's window: both end with the device.
        #expect(d.states("double_tap") == [.failed])
        #expect(d.states("tap") == [.failed])
        #expect(d.events(named: "double_tap").last?.reason == "device removed")
        #expect(d.events(named: "tap").last?.reason == "device removed")
    }

    // MARK: reload

    @Test func aReloadThatDeniesAnOpenDeviceClosesIt() throws {
        var (d, nodes) = try started(with: ["Atmel-maXTouch-Touchscreen.desc", "EP0430M09.desc"])
        d.nextConfig = .success(
            try ConfigLoader.load(
                text: "[[device]]\nmatch = \"EP0430M09\"\nuse = false\n", file: "/etc/gestured/gestured.toml"))
        d.send(.signal(SIGHUP, at: d.now))
        #expect(d.open == [nodes[0].syspath])
        #expect(
            d.logText.contains(
                "removed /dev/input/event11 'EP0430M09': after reload: denied by config (match = \"EP0430M09\")"))
        #expect(d.info.devices.map(\.name) == ["Atmel maXTouch Touchscreen"])
        #expect(d.info.configSource == "/etc/gestured/gestured.toml")
        // Listing again after the reload does not reopen it.
        d.send(.udevOverflow)
        #expect(d.open == [nodes[0].syspath])
    }

    @Test func aReloadMidGestureCancelsItAndFingersStayIgnoredUntilLifted() throws {
        var (d, nodes, frames, i) = try midScroll()
        d.notified.removeAll()

        d.send(.signal(SIGHUP, at: d.now))
        #expect(d.states("pan").last == .cancelled)
        #expect(d.events(named: "pan").last?.reason == "config reloaded")
        #expect(d.notified.first == .reloading)
        #expect(
            d.notified.last
                == .ready(
                    status: "1 touchscreen, \(ConfigLoader.builtIn().recognizers.count) recognizers, 0 subscribers"))
        #expect(d.open == [nodes[0].syspath])

        // The rest of the scroll: the fingers that were down are ignored until they lift.
        let count = d.published.count
        while i < frames.count {
            d.input(nodes[0], frames[i])
            i += 1
        }
        d.advanceTime(byMS: 2000)
        #expect(d.published.count == count)

        // A new touch is seen by the new arena.
        let t = Touches(device: try Self.device("EP0430M09.desc"), at: d.now + Millis(100))
        d.input(nodes[0], t.down(id: 900, x: 600, y: 300))
        d.input(nodes[0], t.at(80).up())
        d.advanceTime(byMS: 1000)
        #expect(d.states("tap").last == .recognized)
        #expect(d.events(named: "tap").filter { $0.state == .recognized }.count == 1)
    }

    @Test func aReloadThatFailsKeepsTheRunningConfigAndTheGestureInFlight() throws {
        var (d, nodes, frames, i) = try midScroll()
        d.notified.removeAll()
        let running = d.core.configuration
        d.nextConfig = .failure(
            .init(
                description:
                    "/etc/gestured/gestured.toml:12: recognizer.tap.max_duration_ms: expected a number\n/etc/gestured/gestured.toml:30: recognizer.pan.kind: unknown kind 'pann'"
            ))

        d.send(.signal(SIGHUP, at: d.now))
        #expect(d.core.configuration == running)
        #expect(
            d.logs.filter { $0.level == .error(.config) }.map(\.message) == [
                "/etc/gestured/gestured.toml:12: recognizer.tap.max_duration_ms: expected a number",
                "/etc/gestured/gestured.toml:30: recognizer.pan.kind: unknown kind 'pann'",
            ])
        #expect(
            d.notified == [
                .reloading,
                .ready(
                    status:
                        "reload refused, previous config kept: /etc/gestured/gestured.toml:12: recognizer.tap.max_duration_ms: expected a number"
                ),
            ])
        #expect(d.states("pan").last == .changed)

        // The pan goes on and ends at lift, as if nothing happened.
        while i < frames.count {
            d.input(nodes[0], frames[i])
            i += 1
        }
        #expect(d.states("pan").last == .ended)
        #expect(!d.states("pan").contains(.cancelled))
    }

    @Test func aReloadToAnEmptyFileKeepsTheRunningConfigurationAndSaysWhy() throws {
        var (d, nodes, frames, i) = try midScroll()
        d.notified.removeAll()
        let running = d.core.configuration
        // A FIFO used to read as this; a file caught just after truncation still does.
        d.nextConfig = .success(try ConfigLoader.load(text: "", file: "/etc/gestured/gestured.toml"))
        for input in [DaemonCore.Input.configFileChanged, .signal(SIGHUP, at: d.now)] {
            d.send(input)
            #expect(d.core.configuration == running)
            #expect(d.logs.last?.level == .warning(.config))
            #expect(
                d.logs.last?.message.contains(
                    "/etc/gestured/gestured.toml is empty (no recognizers, no device rules); keeping the running configuration (\(running.recognizers.count) recognizers)"
                ) == true)
        }
        #expect(
            d.notified.last
                == .ready(status: "reload refused, previous config kept: /etc/gestured/gestured.toml is empty"))
        // The pan in flight goes on.
        while i < frames.count {
            d.input(nodes[0], frames[i])
            i += 1
        }
        #expect(d.states("pan").last == .ended)
    }

    @Test func aDaemonStartedWithAnEmptyFileReloadsItsFirstRecognizers() throws {
        let empty = try ConfigLoader.load(text: "", file: "/etc/gestured/gestured.toml")
        var d = EmbeddedDaemon(configuration: empty, options: .init(configPath: "/etc/gestured/gestured.toml"))
        d.start()
        d.nextConfig = .success(
            try ConfigLoader.load(text: "[recognizer.t]\nkind = \"tap\"\n", file: "/etc/gestured/gestured.toml"))
        d.send(.configFileChanged)
        #expect(d.core.configuration.recognizers.map(\.name) == ["t"])
        // And from one to none again is refused, as from any.
        d.nextConfig = .success(empty)
        d.send(.configFileChanged)
        #expect(d.core.configuration.recognizers.map(\.name) == ["t"])
    }

    /// A service whose file was refused at start runs recognizing nothing, says
    /// why in its status, and takes the file once it is fixed.
    @Test func aFileRefusedAtStartIsLoadedWhenFixed() throws {
        let path = "/etc/gestured/gestured.toml"
        var options = DaemonCore.Options(configPath: path)
        options.refusedAtStart = "\(path):3: TOML syntax: expected a value"
        var d = EmbeddedDaemon(configuration: Configuration(recognizers: [], source: path), options: options)
        d.start()
        #expect(
            d.notified.last
                == .ready(
                    status:
                        "config refused, recognizing nothing until it is fixed: \(path):3: TOML syntax: expected a value; 0 touchscreens, 0 recognizers, 0 subscribers"
                ))
        // Clients are told too (status's config_refused).
        #expect(d.info.configRefused == "\(path):3: TOML syntax: expected a value")
        // Still wrong: refused again, and still said.
        d.nextConfig = .failure(.init(description: "\(path):3: TOML syntax: expected a value"))
        d.send(.configFileChanged)
        #expect(d.core.configuration.recognizers.isEmpty)
        #expect(d.core.statusLine.hasPrefix("config refused, recognizing nothing until it is fixed"))
        // Not "previous config kept": there was none.
        #expect(d.notified.last == .ready(status: d.core.statusLine))
        d.nextConfig = .success(try ConfigLoader.load(text: "[recognizer.t]\nkind = \"tap\"\n", file: path))
        d.send(.configFileChanged)
        #expect(d.core.configuration.recognizers.map(\.name) == ["t"])
        #expect(d.core.statusLine == "0 touchscreens, 1 recognizers, 0 subscribers")
        #expect(d.info.configRefused == nil)
    }

    @Test func anEditorTouchingTheFileWithoutChangingItReloadsNothing() throws {
        var d = EmbeddedDaemon(options: .init(configPath: "/etc/gestured/gestured.toml"))
        d.start()
        d.notified.removeAll()
        d.send(.configFileChanged)
        #expect(d.notified.isEmpty)
        #expect(
            d.logText.last == "debug: /etc/gestured/gestured.toml changed: \(ConfigLoader.builtIn().source) unchanged")
    }

    // MARK: resync

    @Test func SYN_DROPPEDMidTapCancelsTheTapAndSaysWhy() throws {
        var (d, nodes) = try started()
        let t = Touches(device: try Self.device("Atmel-maXTouch-Touchscreen.desc"), at: t0)
        d.input(nodes[0], t.down(id: 7, x: 400, y: 240))
        // The buffer overflowed while the finger lifted: libevdev's resync says slot 0 is empty now.
        d.queueDrop(nodes[0])
        d.queue(nodes[0], t.at(120).up())
        d.read(nodes[0].syspath)
        d.advanceTime(byMS: 1000)
        #expect(d.states("tap") != [.recognized])
        #expect(!d.published.contains { $0.state == .recognized })
        #expect(
            d.logs.contains {
                $0.level == .warning(.system)
                    && $0.message.hasPrefix(
                        "/dev/input/event10 'Atmel maXTouch Touchscreen': the kernel's event buffer overflowed (SYN_DROPPED)"
                    )
            })

        // The next tap is a tap.
        d.input(nodes[0], t.at(2000).down(id: 8, x: 400, y: 240))
        d.input(nodes[0], t.at(2080).up())
        d.advanceTime(byMS: 1000)
        #expect(d.states("tap").last == .recognized)
    }

    // MARK: two devices

    @Test func twoDevicesAtOnceKeepTheirOwnGestures() throws {
        var (d, nodes) = try started(with: ["Atmel-maXTouch-Touchscreen.desc", "EP0430M09.desc"])
        #expect(d.info.devices.map(\.name) == ["Atmel maXTouch Touchscreen", "EP0430M09"])
        let frames = Self.frames(try Self.load("EP0430M09.2-finger-scroll-down.events").events)
        let start = frames[0][0].time
        let tap = Touches(device: try Self.device("Atmel-maXTouch-Touchscreen.desc"), at: start)
        // A tap on the Atmel panel while two fingers scroll on the other.
        for (i, frame) in frames.enumerated() {
            d.input(nodes[1], frame)
            if i == 2 { d.input(nodes[0], tap.at(1).down(id: 3, x: 100, y: 100)) }
            if i == 6 { d.input(nodes[0], tap.at(60).up()) }
        }
        d.advanceTime(byMS: 1000)
        #expect(
            d.events(named: "tap").filter { $0.state == .recognized }.map(\.device) == ["Atmel maXTouch Touchscreen"])
        let pan = d.events(named: "pan").filter { $0.device == "EP0430M09" }
        #expect(pan.first?.state == .began)
        #expect(pan.last?.state == .ended)
        #expect(!d.events(named: "pan").contains { $0.device == "Atmel maXTouch Touchscreen" && $0.state != .failed })
    }

    // MARK: the timer

    @Test func inputQueuedBeforeTheDeadlineIsReadBeforeTimeAdvances() throws {
        var (d, nodes) = try started()
        let t = Touches(device: try Self.device("Atmel-maXTouch-Touchscreen.desc"), at: t0)
        d.input(nodes[0], t.down(id: 1, x: 400, y: 240))
        // A tap's and a two-finger tap's longest press are the first deadlines.
        #expect(d.timer == t0 + Millis(350))
        while let due = d.timer, due < t0 + Millis(500) { d.advanceTime(to: due) }
        // Then the finger lifts at 480 ms, 20 ms before the long press's 500 ms, but the
        // loop is busy and wakes for the timer only at 510 ms, with the lift still queued.
        let longPressDue = try #require(d.timer)
        #expect(longPressDue == t0 + Millis(500))
        d.queue(nodes[0], t.at(480).up())
        d.advanceTime(to: t0 + Millis(510))
        #expect(d.states("long_press") == [.failed])
        #expect(d.events(named: "long_press").last?.time == t0 + Millis(480))
        #expect(d.queued.isEmpty)
    }

    @Test func aLongPressHeldPastItsDeadlineBeginsOnTheTimer() throws {
        var (d, nodes) = try started()
        let t = Touches(device: try Self.device("Atmel-maXTouch-Touchscreen.desc"), at: t0)
        d.input(nodes[0], t.down(id: 1, x: 400, y: 240))
        d.advanceTime(to: t0 + Millis(510))
        #expect(d.states("long_press") == [.began])
        d.input(nodes[0], t.at(700).up())
        #expect(d.states("long_press") == [.began, .ended])
    }

    @Test func theTimerIsArmedOnlyWhenTheEarliestDeadlineChanges() throws {
        var (d, nodes) = try started()
        #expect(d.timer == nil)
        var armings = 0
        let t = Touches(device: try Self.device("Atmel-maXTouch-Touchscreen.desc"), at: t0)
        for (i, events) in [
            t.down(id: 1, x: 400, y: 240), t.at(10).move(x: 401, y: 240), t.at(20).move(x: 402, y: 240),
        ].enumerated() {
            d.queue(nodes[0], events)
            for a in d.core.handle(
                .read(syspath: nodes[0].syspath, d.queued.removeValue(forKey: nodes[0].syspath)!, end: .drained))
            {
                if case .armTimer = a { armings += 1 }
                d.execute(a)
            }
            #expect(armings == 1, "frame \(i)")
        }
    }

    @Test func theWatchdogIsPingedFromTheTimer() {
        var d = EmbeddedDaemon(options: .init(watchdogInterval: Millis(10_000)))
        d.start()
        #expect(d.timer == d.now)
        d.advanceTime(byMS: 0)
        #expect(d.notified.filter { $0 == .watchdog }.count == 1)
        d.advanceTime(byMS: 9_999)
        #expect(d.notified.filter { $0 == .watchdog }.count == 1)
        d.advanceTime(byMS: 1)
        #expect(d.notified.filter { $0 == .watchdog }.count == 2)
    }

    // MARK: udev trouble

    @Test func aUdevReceiveErrorPausesTheMonitorRateLimitsTheLogAndListsAgain() throws {
        var (d, _) = try started()
        let listings = d.rescans
        d.send(.udevFailed(Errno(rawValue: ENOMEM), at: d.now))
        #expect(!d.udevWatched)
        #expect(d.logs.last?.level == .error(.system))
        #expect(d.logs.last?.message.hasPrefix("reading udev events: ") == true)
        // Back after a second, with a fresh listing for what was missed.
        d.advanceTime(byMS: 999)
        #expect(!d.udevWatched)
        d.advanceTime(byMS: 1)
        #expect(d.udevWatched)
        #expect(d.rescans == listings + 1)

        // An error that recurs on every wakeup is logged three times a minute, then summed up.
        for _ in 0..<20 {
            d.send(.udevFailed(Errno(rawValue: ENOMEM), at: d.now))
            d.advanceTime(byMS: 1000)
        }
        let reported = d.logs.filter { $0.message.hasPrefix("reading udev events") }
        #expect(reported.count == 3)
        d.advanceTime(byMS: 60_000)
        d.send(.udevFailed(Errno(rawValue: ENOMEM), at: d.now))
        #expect(d.logs.last?.message.contains("(18 more since the last report)") == true)
    }

    @Test func aListingThatFailsAtStartIsTriedAgainWithBackoffUntilItWorks() throws {
        // Start-up under a low descriptor limit: udev cannot list (EMFILE) until descriptors free up.
        var d = EmbeddedDaemon(at: EventTime(microseconds: 5_000_000))
        let panel = d.plug(try Self.device("Atmel-maXTouch-Touchscreen.desc"), event: 10)
        d.listingFailures = [Errno(rawValue: EMFILE), Errno(rawValue: EMFILE)]
        d.start()
        #expect(d.open.isEmpty)
        #expect(
            d.logs.contains(
                .init(
                    level: .error(.system),
                    message:
                        "cannot enumerate input devices through udev: \(Errno(rawValue: EMFILE)); trying again in 1000 ms"
                )))
        // systemd hears ready (the daemon waits for devices), and the retry is on the timer.
        #expect(d.notified.count == 1)
        #expect(d.timer == EventTime(microseconds: 6_000_000))
        d.advanceTime(byMS: 999)
        #expect(d.rescans == 1)
        d.advanceTime(byMS: 1)
        #expect(d.rescans == 2)
        #expect(
            d.logs.last { $0.message.hasPrefix("cannot enumerate") }?.message.hasSuffix("trying again in 2000 ms")
                == true)
        d.advanceTime(byMS: 2000)
        #expect(d.rescans == 3)
        #expect(d.open == [panel.syspath])
        #expect(d.logText.contains("listed input devices again after a failed listing"))
        #expect(
            d.notified.last
                == .status("1 touchscreen, \(ConfigLoader.builtIn().recognizers.count) recognizers, 0 subscribers"))
        // Nothing more is due: no further listing.
        #expect(d.timer == nil)
        d.advanceTime(byMS: 120_000)
        #expect(d.rescans == 3)
    }

    @Test func aListingThatKeepsFailingWaitsAtMostAMinuteBetweenTries() throws {
        var d = EmbeddedDaemon(at: EventTime(microseconds: 5_000_000))
        d.listingFailures = Array(repeating: Errno(rawValue: EMFILE), count: 12)
        d.start()
        var waits: [String] = []
        for _ in 0..<9 {
            let failure = d.logs.last { $0.message.hasPrefix("cannot enumerate") }?.message ?? ""
            waits.append(failure.split(separator: " ").suffix(2).joined(separator: " "))
            let due = try #require(d.timer)
            d.advanceTime(to: due)
        }
        #expect(
            waits == [
                "1000 ms", "2000 ms", "4000 ms", "8000 ms", "16000 ms", "32000 ms", "60000 ms", "60000 ms", "60000 ms",
            ])
    }

    @Test func aUdevOverflowListsAgainAndFindsWhatChanged() throws {
        var (d, nodes) = try started()
        let other = d.plug(try Self.device("EP0430M09.desc"), event: 20)
        d.unplug(nodes[0])
        d.send(.udevOverflow)
        #expect(d.open == [other.syspath])
        #expect(d.logText.contains("removed /dev/input/event10 'Atmel maXTouch Touchscreen': no longer listed by udev"))
        #expect(
            d.notified.last
                == .status("1 touchscreen, \(ConfigLoader.builtIn().recognizers.count) recognizers, 0 subscribers"))
    }

    // MARK: stopping

    @Test func SIGTERMCancelsWhatIsInFlightClosesEverythingAndStops() throws {
        var (d, nodes, frames, i) = try midScroll()
        d.send(.signal(SIGTERM, at: d.now))
        #expect(d.events(named: "pan").last?.reason == "daemon stopping")
        #expect(d.open.isEmpty)
        #expect(d.notified.last == .stopping)
        #expect(d.exitStatus == 0)
        // Nothing after the stop.
        let count = d.published.count
        d.input(nodes[0], frames[i])
        #expect(d.published.count == count)
    }

    @Test func aClosedStdoutStopsTheDaemonWithStatus1() throws {
        var d = EmbeddedDaemon(options: .init(printEvents: true))
        d.start()
        d.send(.outputFailed(.brokenPipe, at: d.now))
        #expect(d.exitStatus == 1)
        #expect(d.logs.contains { $0.level == .error(.system) && $0.message.hasPrefix("cannot write events") })
    }
}
