import GestureConfig
import GestureCore
import Glibc
import LinuxInput
import Testing

@testable import GestureDaemon
@testable import GestureProtocol

/// Live rotation, profiles and pause, as a client asks for them: the daemon's
/// decisions on a fake clock, the protocol's parsing, and the socket's replies.
@Suite struct ControlTests {
    /// A 200 × 100 mm panel, 10 units per mm.
    static func panel(_ name: String = "Test Panel") -> DeviceDescription {
        var d = DeviceDescription(name: name)
        d.axes[ABS.MT_SLOT] = AxisInfo(minimum: 0, maximum: 9)
        d.axes[ABS.MT_TRACKING_ID] = AxisInfo(minimum: 0, maximum: 65535)
        d.axes[ABS.MT_POSITION_X] = AxisInfo(minimum: 0, maximum: 2000, resolution: 10)
        d.axes[ABS.MT_POSITION_Y] = AxisInfo(minimum: 0, maximum: 1000, resolution: 10)
        d.axes[ABS.X] = AxisInfo(minimum: 0, maximum: 2000, resolution: 10)
        d.axes[ABS.Y] = AxisInfo(minimum: 0, maximum: 1000, resolution: 10)
        d.properties = [InputProp.direct]
        return d
    }

    static let config = """
        [recognizer.swipe]
        kind = "swipe"

        [recognizer.home_tap]
        kind = "tap"

        [recognizer.lock_tap]
        kind = "tap"
        profiles = ["locked"]
        """

    func started(_ text: String = ControlTests.config, panels: [String] = ["Test Panel"]) throws -> (
        EmbeddedDaemon, [InputNode]
    ) {
        var d = EmbeddedDaemon(
            configuration: try ConfigLoader.load(text: text, file: "/etc/gestured/gestured.toml"),
            at: EventTime(microseconds: 5_000_000))
        var nodes: [InputNode] = []
        for (i, name) in panels.enumerated() { nodes.append(d.plug(Self.panel(name), event: 20 + i)) }
        d.start()
        return (d, nodes)
    }

    /// A one-finger swipe on the panel from (x0, y0) to (x1, y1) mm, 10 frames
    /// 10 ms apart, starting 100 ms after the daemon's clock.
    func swipe(_ d: inout EmbeddedDaemon, _ node: InputNode, from a: Point, to b: Point, id: Int32, lift: Bool = true)
        -> Touches
    {
        let t = Touches(device: Self.panel(), at: d.now + Millis(100))
        d.input(node, t.down(id: id, x: Int32(a.x * 10), y: Int32(a.y * 10)))
        for i in 1...10 {
            let p = a + (b - a) * (Double(i) / 10)
            d.input(node, t.at(Double(i) * 10).move(x: Int32(p.x * 10), y: Int32(p.y * 10)))
        }
        if lift { d.input(node, t.at(110).up()) }
        return t
    }

    func recognizedSwipes(_ d: EmbeddedDaemon) -> [(direction: String, location: Point)] {
        d.events(named: "swipe").compactMap {
            guard $0.state == .recognized, case .swipe(let dir, _, _) = $0.detail else { return nil }
            return (dir.rawValue, $0.location)
        }
    }

    func close(_ a: Point, _ b: Point) -> Bool { a.distance(to: b) < 1e-6 }
    func mm(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

    // MARK: rotation

    @Test func aRotationTurnsTheNextSwipeAndItsLocation() throws {
        var (d, nodes) = try started()
        _ = swipe(&d, nodes[0], from: mm(50, 30), to: mm(90, 30), id: 1)
        #expect(d.control(.rotate(.cw90, device: nil)) == .rotated(.cw90, devices: ["Test Panel"]))
        _ = swipe(&d, nodes[0], from: mm(50, 30), to: mm(90, 30), id: 2)
        // Turned 90° clockwise the panel is seen 100 × 200 mm, a point (x, y) at (100 - y, x).
        let s = recognizedSwipes(d)
        #expect(s.map(\.direction) == ["right", "down"])
        #expect(s.count == 2 && close(s[0].location, mm(50, 30)) && close(s[1].location, mm(70, 50)))
        #expect(d.info.devices.map(\.rotation) == [.cw90])
        #expect(
            d.logText.contains(
                "client 1 (pid 1, uid 1000): rotation 90° for every touchscreen from its next touch sequence"))
    }

    /// docs/PROTOCOL.md's worked swipe: a 68 × 136 mm phone panel (portrait),
    /// turned a quarter counter-clockwise (xrandr "right", lisgd -o 1), so its
    /// native top edge is on the user's left: `gesturectl rotate 270`.
    @Test func theWorkedSwipeOfTheDocs() throws {
        var phone = Self.panel("Phone Panel")
        phone.axes[ABS.MT_POSITION_X] = AxisInfo(minimum: 0, maximum: 680, resolution: 10)
        phone.axes[ABS.MT_POSITION_Y] = AxisInfo(minimum: 0, maximum: 1360, resolution: 10)
        phone.axes[ABS.X] = phone.axes[ABS.MT_POSITION_X]
        phone.axes[ABS.Y] = phone.axes[ABS.MT_POSITION_Y]
        var d = EmbeddedDaemon(configuration: try ConfigLoader.load(text: Self.config, file: "t.toml"))
        let node = d.plug(phone, event: 7)
        d.start()
        d.control(.rotate(.cw270, device: nil))
        // The finger lands 51 mm from the panel's native left and 34 mm from its
        // native top, and moves 40 mm towards its native bottom.
        _ = swipe(&d, node, from: mm(51, 34), to: mm(51, 74), id: 1)
        let e = try #require(d.events(named: "swipe").first { $0.state == .recognized })
        guard case .swipe(let direction, let translation, _) = e.detail else {
            Issue.record("not a swipe")
            return
        }
        #expect(direction == .right)
        #expect(close(translation, mm(40, 0)))
        #expect(close(e.location, mm(34, 17)))
        #expect(close(e.locationNormalised, Point(x: 0.25, y: 0.25)))
        #expect(e.json.contains(#""location_mm":[34.00,17.00],"location":[0.2500,0.2500]"#), "\(e.json)")
    }

    @Test func aRotationAskedForMidSwipeWaitsForTheNextSequence() throws {
        var (d, nodes) = try started()
        let t = swipe(&d, nodes[0], from: mm(50, 30), to: mm(90, 30), id: 1, lift: false)
        #expect(d.control(.rotate(.cw270, device: "Test Panel")) == .rotated(.cw270, devices: ["Test Panel"]))
        #expect(d.info.devices.map(\.rotation) == [.cw270], "status shows what the next sequence gets")
        d.input(nodes[0], t.at(110).up())
        _ = swipe(&d, nodes[0], from: mm(50, 30), to: mm(90, 30), id: 2)
        // Turned 270°, a point (x, y) is seen at (y, 200 - x).
        let s = recognizedSwipes(d)
        #expect(s.map(\.direction) == ["right", "up"], "the swipe in flight keeps its orientation")
        #expect(s.count == 2 && close(s[1].location, mm(30, 150)))
    }

    @Test func aRotationOutlivesAReloadAndAReplug() throws {
        var (d, nodes) = try started()
        d.control(.rotate(.cw180, device: "Test Panel"))
        d.nextConfig = .success(
            try ConfigLoader.load(
                text: Self.config + "\n[recognizer.extra]\nkind = \"tap\"\ntaps = 3\n",
                file: "/etc/gestured/gestured.toml"))
        d.send(.signal(SIGHUP, at: d.now))
        #expect(d.info.recognizers.map(\.name).contains("extra"), "the reload happened")
        #expect(d.info.devices.map(\.rotation) == [.cw180])
        _ = swipe(&d, nodes[0], from: mm(50, 30), to: mm(90, 30), id: 1)
        #expect(recognizedSwipes(d).map(\.direction) == ["left"])
        // Unplugged and plugged again, it is still turned.
        d.udevEvent(.remove, nodes[0])
        d.udevEvent(.add, nodes[0])
        #expect(d.info.devices.map(\.rotation) == [.cw180])
    }

    /// A reload builds a fresh decoder: it must know where each slot's last touch
    /// was, as the kernel does not repeat a position that did not change.
    @Test func aTouchAfterAReloadLandingWhereTheLastOneWasIsWhereItIs() throws {
        var (d, nodes) = try started()
        d.control(.rotate(.cw270, device: nil))
        _ = swipe(&d, nodes[0], from: mm(51, 34), to: mm(51, 74), id: 1)
        // libevdev's view after that swipe: slot 0 last at x 510, y 740.
        d.kernel[nodes[0].syspath]!.positions = [SlotPosition(x: 510, y: 740)]
        d.nextConfig = .success(try ConfigLoader.load(text: Self.config, file: "/etc/gestured/gestured.toml"))
        d.send(.signal(SIGHUP, at: d.now))
        // The same swipe again: the kernel sends no x, as x did not change.
        let t = Touches(device: Self.panel(), at: d.now + Millis(100))
        func noX(_ events: [RawEvent]) -> [RawEvent] {
            events.filter { $0.type != EV.ABS || ($0.code != ABS.MT_POSITION_X && $0.code != ABS.X) }
        }
        d.input(nodes[0], noX(t.down(id: 2, x: 510, y: 340)))
        for i in 1...10 { d.input(nodes[0], noX(t.at(Double(i) * 10).move(x: 510, y: 340 + Int32(i) * 40))) }
        d.input(nodes[0], t.at(110).up())
        let s = recognizedSwipes(d)
        #expect(s.map(\.direction) == ["right", "right"])
        #expect(s.count == 2 && close(s[1].location, s[0].location), "\(s.map(\.location))")
    }

    @Test func aRestartForgetsTheRotation() throws {
        var (d, _) = try started()
        d.control(.rotate(.cw90, device: nil))
        let (fresh, _) = try started()
        #expect(d.info.devices.map(\.rotation) == [.cw90])
        #expect(fresh.info.devices.map(\.rotation) == [Rotation.none])
    }

    @Test func aNamedRotationTurnsThatTouchscreenOnly() throws {
        var (d, _) = try started(panels: ["Left Panel", "Right Panel"])
        #expect(d.control(.rotate(.cw90, device: "Right Panel")) == .rotated(.cw90, devices: ["Right Panel"]))
        #expect(d.info.devices.map(\.rotation) == [.none, .cw90])
        // One for every touchscreen replaces the named ones.
        d.control(.rotate(.cw180, device: nil))
        #expect(d.info.devices.map(\.rotation) == [.cw180, .cw180])
    }

    @Test func anUnknownDeviceIsRefusedAndChangesNothing() throws {
        var (d, _) = try started()
        let reply = d.control(.rotate(.cw90, device: "Test"))
        #expect(
            reply
                == .refused(.unknownDevice, "no touchscreen named 'Test' is in use; touchscreens in use: 'Test Panel'"))
        #expect(d.info.devices.map(\.rotation) == [Rotation.none])
    }

    // MARK: profiles

    func taps(_ d: inout EmbeddedDaemon, _ node: InputNode, id: Int32) {
        let t = Touches(device: Self.panel(), at: d.now + Millis(100))
        d.input(node, t.down(id: id, x: 500, y: 500))
        d.input(node, t.at(60).up())
        d.advanceTime(byMS: 1000)
    }

    func recognized(_ d: EmbeddedDaemon) -> [String] { d.published.filter { $0.state == .recognized }.map(\.name) }

    @Test func aProfileSwitchLetsOnlyItsRecognizersFire() throws {
        var (d, nodes) = try started()
        taps(&d, nodes[0], id: 1)
        #expect(recognized(d) == ["home_tap"])
        let reply = d.control(.profile("locked"))
        #expect(reply == .profile(RuntimeProfile(name: "locked"), recognizers: ["lock_tap"], warning: nil))
        taps(&d, nodes[0], id: 2)
        #expect(recognized(d) == ["home_tap", "lock_tap"])
        #expect(d.info.profile == RuntimeProfile(name: "locked"))
        #expect(d.notified.last == .status("1 touchscreen, 3 recognizers, profile locked, 0 subscribers"))
    }

    @Test func pausedNothingFiresAndResumeReturnsToTheProfileBefore() throws {
        var (d, nodes) = try started()
        d.control(.profile("locked"))
        #expect(
            d.control(.pause) == .profile(RuntimeProfile(name: "locked", paused: true), recognizers: [], warning: nil))
        #expect(d.notified.last == .status("1 touchscreen, 3 recognizers, paused, 0 subscribers"))
        taps(&d, nodes[0], id: 1)
        _ = swipe(&d, nodes[0], from: mm(50, 30), to: mm(90, 30), id: 2)
        d.advanceTime(byMS: 1000)
        #expect(d.published.isEmpty, "not even failures: nobody took part")
        #expect(d.timer == nil)
        #expect(d.info.profile.paused)
        #expect(d.control(.resume) == .profile(RuntimeProfile(name: "locked"), recognizers: ["lock_tap"], warning: nil))
        taps(&d, nodes[0], id: 3)
        #expect(recognized(d) == ["lock_tap"])
    }

    @Test func aPauseDuringAGestureLetsItFinish() throws {
        var (d, nodes) = try started("[recognizer.pan]\nkind = \"pan\"\n")
        let t = swipe(&d, nodes[0], from: mm(50, 30), to: mm(90, 30), id: 1, lift: false)
        #expect(d.states("pan").first == .began)
        d.control(.pause)
        d.input(nodes[0], t.at(120).move(x: 950, y: 300))
        d.input(nodes[0], t.at(130).up())
        #expect(d.states("pan").last == .ended)
        let count = d.published.count
        _ = swipe(&d, nodes[0], from: mm(50, 30), to: mm(90, 30), id: 2)
        #expect(d.published.count == count)
    }

    @Test func profileAndPauseOutliveAReloadAndApplyToNewDevices() throws {
        var (d, nodes) = try started()
        d.control(.profile("locked"))
        d.nextConfig = .success(
            try ConfigLoader.load(
                text: Self.config + "\n[recognizer.extra]\nkind = \"tap\"\ntaps = 3\n",
                file: "/etc/gestured/gestured.toml"))
        d.send(.signal(SIGHUP, at: d.now))
        #expect(d.info.recognizers.map(\.name).contains("extra"), "the reload happened")
        #expect(d.info.profile == RuntimeProfile(name: "locked"))
        taps(&d, nodes[0], id: 1)
        #expect(recognized(d) == ["lock_tap"])
        d.control(.pause)
        let other = d.plug(Self.panel("Second Panel"), event: 30)
        d.udevEvent(.add, other)
        taps(&d, other, id: 1)
        #expect(recognized(d) == ["lock_tap"], "a device opened while paused is paused too")
    }

    @Test func aProfileNoRecognizerHasIsAcceptedWithAWarning() throws {
        var (d, nodes) = try started()
        let reply = d.control(.profile("dnd"))
        #expect(
            reply
                == .profile(
                    RuntimeProfile(name: "dnd"), recognizers: [],
                    warning:
                        "no recognizer has the profile 'dnd': none takes part until another profile is chosen or a reload brings one"
                ))
        taps(&d, nodes[0], id: 1)
        #expect(d.published.isEmpty)
        #expect(
            d.logText.last?.hasSuffix(
                "profile 'dnd' from the next touch sequence; no recognizer has the profile 'dnd': none takes part until another profile is chosen or a reload brings one"
            ) == true)
    }

    /// Names that look like `default` but are not, or that hide what they are:
    /// a config cannot define them, so no client can switch to them.
    @Test func profileNamesThatLookAlikeAreRefused() {
        for (name, found) in [
            ("d\u{435}fault", "U+0435 at character 2"), ("default\u{200B}", "U+200B at character 8"),
            ("\u{202E}tluafed", "U+202E at character 1"), ("lock ed", "U+0020 at character 5"),
            ("-locked", "'-' at character 1"),
        ] {
            var line = ""
            JSONWriter.appendQuoted(name, to: &line)
            #expect(
                errorMessage(#"{"cmd":"profile","name":"# + line + "}")
                    == "'name': a profile name is made of ASCII letters, digits, '_', '-' and '.', and begins with a letter or a digit; found \(found)",
                "\(name.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        #expect(
            actions(#"{"cmd":"profile","name":"phone-locked_2.b"}"#) == [
                .control(.profile("phone-locked_2.b"), id: nil)
            ])
    }

    /// What a client sent comes back in a reply escaped, as the log escapes it.
    @Test func echoedStringsAreEscaped() throws {
        #expect(
            errorMessage(#"{"cmd":"subscribe","kind":"\u001b[2Jtap"}"#)?.hasPrefix(
                #"unknown kind '\u{1b}[2Jtap'; kinds are"#) == true)
        #expect(
            errorMessage(#"{"cmd":"rotate","rotation":90,"screen\u202e":"x"}"#)
                == #"unknown key 'screen\u{202e}': expected one of device, rotation"#)
        #expect(errorMessage(#"{"cmd":"rotate","rotation":"\n9\u001b"}"#)?.hasSuffix(#"got "\\n9\\u001b""#) == true)
        var s = ClientSession()
        let reply = try #require(s.received(Array(#"{"cmd":"pi\u001b]0;owned\u0007ng"}"#.utf8) + [0x0A]).first)
        guard case .send(let line) = reply else {
            Issue.record("\(reply)")
            return
        }
        let message = try #require(try JSONValue.parse(line)["message"]?.string)
        #expect(message.hasPrefix(#"unknown command 'pi\u{1b}]0;owned\u{7}ng'"#))
        #expect(!message.unicodeScalars.contains { $0.value < 0x20 })

        // rotate's unknown device: the name asked for, and the names in use (from hardware).
        var (d, _) = try started(panels: ["Evil\nPanel\u{1b}[31m"])
        #expect(
            d.control(.rotate(.cw90, device: "x\n\u{202E}y"))
                == .refused(
                    .unknownDevice,
                    #"no touchscreen named 'x\n\u{202e}y' is in use; touchscreens in use: 'Evil\nPanel\u{1b}[31m'"#))
    }

    /// A subscriber's recognizer names follow the config's rule for them.
    @Test func filterNamesNoConfigCanDefineAreRefused() {
        #expect(
            errorMessage(#"{"cmd":"subscribe","name":["tap","t\u200bap"]}"#)
                == #"'name' 't\u{200b}ap': a recognizer name must not contain invisible or reordering characters such as U+200B"#
        )
        #expect(
            errorMessage(#"{"cmd":"subscribe","name":"a\nb"}"#)
                == #"'name' 'a\nb': a recognizer name must not contain control characters or line breaks"#)
        #expect(actions(#"{"cmd":"subscribe","name":"double.tap"}"#).count == 2)
    }

    @Test func aStoppingDaemonRefusesRequests() throws {
        var (d, _) = try started()
        d.send(.signal(SIGTERM, at: d.now))
        #expect(d.control(.pause) == .refused(.unavailable, "gestured is stopping"))
    }

    // MARK: the protocol

    func actions(_ line: String) -> [ClientSession.Action] {
        var s = ClientSession()
        return s.received(Array((line + "\n").utf8))
    }

    func errorMessage(_ line: String) -> String? {
        guard case .send(let reply)? = actions(line).first, let v = try? JSONValue.parse(reply),
            v["code"] == .string("bad_argument")
        else { return nil }
        return v["message"]?.string
    }

    @Test func requestsAreRead() {
        #expect(
            actions(#"{"cmd":"rotate","rotation":90,"id":4}"#) == [
                .control(.rotate(.cw90, device: nil), id: .number(4))
            ])
        #expect(
            actions(#"{"cmd":"rotate","rotation":270.0,"device":"ELAN Touchscreen"}"#)
                == [.control(.rotate(.cw270, device: "ELAN Touchscreen"), id: nil)])
        #expect(actions(#"{"cmd":"profile","name":"locked"}"#) == [.control(.profile("locked"), id: nil)])
        #expect(actions(#"{"cmd":"pause"}"#) == [.control(.pause, id: nil)])
        #expect(actions(#"{"cmd":"resume","id":"r"}"#) == [.control(.resume, id: .string("r"))])
    }

    @Test func badRequestsAreAnsweredWithWhatIsExpected() {
        let expected = "0, 90, 180 or 270 (degrees clockwise, as a [[device]] rotation in the config)"
        #expect(errorMessage(#"{"cmd":"rotate"}"#) == "'rotation' is required: \(expected)")
        #expect(errorMessage(#"{"cmd":"rotate","rotation":45}"#) == "'rotation' is \(expected), got 45")
        #expect(errorMessage(#"{"cmd":"rotate","rotation":"90"}"#) == "'rotation' is \(expected), got \"90\"")
        #expect(errorMessage(#"{"cmd":"rotate","rotation":1e300}"#) == "'rotation' is \(expected), got 1e+300")
        #expect(errorMessage(#"{"cmd":"rotate","rotation":-90}"#) == "'rotation' is \(expected), got -90")
        #expect(
            errorMessage(#"{"cmd":"rotate","rotation":90,"device":""}"#)
                == "'device' is a touchscreen's name as status and hello show it; leave it out for every touchscreen")
        #expect(
            errorMessage(#"{"cmd":"rotate","rotation":90,"screen":"x"}"#)
                == "unknown key 'screen': expected one of device, rotation")
        #expect(errorMessage(#"{"cmd":"profile"}"#) == "'name' is required: the profile to make active, a string")
        #expect(errorMessage(#"{"cmd":"profile","name":""}"#) == "'name': a profile name must not be empty")
        #expect(
            errorMessage(#"{"cmd":"profile","name":"a\nb"}"#)
                == "'name': a profile name is made of ASCII letters, digits, '_', '-' and '.', and begins with a letter or a digit; found U+000A at character 2"
        )
        #expect(errorMessage(#"{"cmd":"pause","name":"x"}"#) == "unknown key 'name': it takes no arguments")
    }
}

/// The socket carries a control request to the daemon and its answer back, in request order.
@Suite(.serialized) struct ControlSocketTests {
    final class Recorder: DaemonControl {
        var requests: [ControlRequest] = []
        func control(_ request: ControlRequest, from client: String) -> ControlReply {
            requests.append(request)
            if case .rotate(_, let name?) = request {
                return .refused(.unknownDevice, "no touchscreen named '\(name)' is in use")
            }
            if case .rotate(let r, nil) = request { return .rotated(r, devices: ["Test Touchscreen"]) }
            return .profile(RuntimeProfile(name: "locked", paused: request == .pause), recognizers: [], warning: "none")
        }
    }

    @Test func repliesComeInRequestOrderWithTheirIDs() throws {
        let path = temporarySocketPath("control")
        let server = SocketServer(
            listener: try ListeningSocket.bind(path: path, group: nil), info: DaemonInfo(), log: { _ in })
        let recorder = Recorder()
        server.controller = recorder
        let driver = PollDriver()
        server.start(on: driver)
        defer { server.shutdown() }
        let c = try TestClient(path: path)
        _ = c.line(server, driver)  // hello
        c.send(
            #"{"cmd":"rotate","rotation":90,"id":1}"# + "\n" + #"{"cmd":"rotate","rotation":0,"device":"X","id":2}"#
                + "\n"
                + #"{"cmd":"pause","id":3}"# + "\n" + #"{"cmd":"ping","id":4}"# + "\n")
        var lines: [String] = []
        for _ in 0..<4 { if let l = c.line(server, driver) { lines.append(l) } }
        #expect(
            lines == [
                #"{"type":"rotated","rotation":90,"devices":["Test Touchscreen"],"id":1}"#,
                #"{"type":"error","code":"unknown_device","message":"no touchscreen named 'X' is in use","id":2}"#,
                #"{"type":"profile","profile":"locked","paused":true,"recognizers":[],"warning":"none","id":3}"#,
                #"{"type":"pong","id":4}"#,
            ])
        #expect(recorder.requests == [.rotate(.cw90, device: nil), .rotate(.none, device: "X"), .pause])
    }

    @Test func withoutADaemonBehindTheSocketARequestIsRefused() throws {
        let path = temporarySocketPath("nocontrol")
        let server = SocketServer(
            listener: try ListeningSocket.bind(path: path, group: nil), info: DaemonInfo(), log: { _ in })
        let driver = PollDriver()
        server.start(on: driver)
        defer { server.shutdown() }
        let c = try TestClient(path: path)
        _ = c.line(server, driver)
        c.send(#"{"cmd":"resume"}"# + "\n")
        let reply = try JSONValue.parse(#require(c.line(server, driver)))
        #expect(reply["code"] == .string("unavailable"))
    }
}
