import Foundation
import GestureClient
import GestureConfig
import GestureCore
import GestureLisgd
import GestureTools
import Testing

/// Sxmo's lisgd bindings (sxmo-utils, configs/default_hooks/sxmo_hook_lisgdstart.sh),
/// as its hook passes them, in its order.
let sxmoBindings = [
    "1,DRUL,BR,*,setsid -f sxmo_hook_inputhandler.sh bottomrightcorner",
    "1,DLUR,BL,*,setsid -f sxmo_hook_inputhandler.sh bottomleftcorner",
    "1,ULDR,TL,*,setsid -f sxmo_hook_inputhandler.sh topleftcorner",
    "1,URDL,TR,*,setsid -f sxmo_hook_inputhandler.sh toprightcorner",
    "1,LR,B,L,setsid -f sxmo_hook_inputhandler.sh rightbottomedge",
    "1,RL,B,L,setsid -f sxmo_hook_inputhandler.sh leftbottomedge",
    "1,LR,L,*,setsid -f sxmo_hook_inputhandler.sh rightleftedge",
    "1,RL,R,*,setsid -f sxmo_hook_inputhandler.sh leftrightedge",
    "1,DU,L,*,P,setsid -f sxmo_hook_inputhandler.sh upleftedge",
    "1,UD,L,*,P,setsid -f sxmo_hook_inputhandler.sh downleftedge",
    "1,LR,T,*,P,setsid -f sxmo_hook_inputhandler.sh righttopedge",
    "1,RL,T,*,P,setsid -f sxmo_hook_inputhandler.sh lefttopedge",
    "1,DU,B,*,setsid -f sxmo_hook_inputhandler.sh upbottomedge",
    "1,UD,B,*,setsid -f sxmo_hook_inputhandler.sh downbottomedge",
    "1,UD,T,*,setsid -f sxmo_hook_inputhandler.sh downtopedge",
    "1,DU,T,*,setsid -f sxmo_hook_inputhandler.sh uptopedge",
    "2,UD,T,*,setsid -f sxmo_hook_inputhandler.sh twodowntopedge",
    "2,UD,B,*,setsid -f sxmo_hook_inputhandler.sh twodownbottomedge",
    "1,DU,R,*,P,setsid -f sxmo_hook_inputhandler.sh uprightedge",
    "1,UD,R,*,P,setsid -f sxmo_hook_inputhandler.sh downrightedge",
    "1,LR,R,S,setsid -f sxmo_hook_inputhandler.sh rightrightedge_short",
    "1,RL,L,S,setsid -f sxmo_hook_inputhandler.sh leftrightedge_short",
    "1,RL,*,L,setsid -f sxmo_hook_inputhandler.sh longoneleft",
    "1,LR,*,L,setsid -f sxmo_hook_inputhandler.sh longoneright",
    "1,DU,*,L,setsid -f sxmo_hook_inputhandler.sh longoneup",
    "1,UD,*,L,setsid -f sxmo_hook_inputhandler.sh longonedown",
    "1,RL,*,M,setsid -f sxmo_hook_inputhandler.sh mediumoneleft",
    "1,LR,*,M,setsid -f sxmo_hook_inputhandler.sh mediumoneright",
    "1,DU,*,M,setsid -f sxmo_hook_inputhandler.sh mediumoneup",
    "1,UD,*,M,setsid -f sxmo_hook_inputhandler.sh mediumonedown",
    "1,RL,*,*,setsid -f sxmo_hook_inputhandler.sh oneleft",
    "1,LR,*,*,setsid -f sxmo_hook_inputhandler.sh oneright",
    "1,DU,*,*,setsid -f sxmo_hook_inputhandler.sh oneup",
    "1,UD,*,*,setsid -f sxmo_hook_inputhandler.sh onedown",
    "1,DRUL,*,*,setsid -f sxmo_hook_inputhandler.sh upleft",
    "1,URDL,*,*,setsid -f sxmo_hook_inputhandler.sh downleft",
    "1,DLUR,*,*,setsid -f sxmo_hook_inputhandler.sh upright",
    "1,ULDR,*,*,setsid -f sxmo_hook_inputhandler.sh downright",
    "2,RL,*,*,setsid -f sxmo_hook_inputhandler.sh twoleft",
    "2,LR,*,*,setsid -f sxmo_hook_inputhandler.sh tworight",
    "2,DU,*,*,setsid -f sxmo_hook_inputhandler.sh twoup",
    "2,UD,*,*,setsid -f sxmo_hook_inputhandler.sh twodown",
    "3,RL,*,*,setsid -f sxmo_hook_inputhandler.sh threeleft",
    "3,LR,*,*,setsid -f sxmo_hook_inputhandler.sh threeright",
    "3,DU,*,*,setsid -f sxmo_hook_inputhandler.sh threeup",
    "3,UD,*,*,setsid -f sxmo_hook_inputhandler.sh threedown",
]

/// The hook's command line, as its shell expands it on an X11 phone turned right
/// (`-o 1`), with the hook's defaults.
let sxmoArguments =
    ["-d", "/dev/input/by-path/first-touchscreen", "-o", "1", "-s", "1.0", "-t", "125", "-T", "60"]
    + sxmoBindings.flatMap { ["-g", $0] }

let phoneDir = fixturesDir + "/phone"

func phoneDevice() throws -> DeviceDescription {
    try #require(try Replay.deviceDescription(of: phoneDir + "/strokes.desc"))
}

func parseError(_ args: [String]) -> String? {
    do {
        _ = try LisgdOptions.parse(args)
        return nil
    } catch { return error.message }
}

@Suite("gesturectl lisgd: lisgd's command line")
struct LisgdCommandLineTests {
    @Test func defaultsAreLisgds() throws {
        let o = try LisgdOptions.parse(["-g", "1,LR,*,*,true"])
        #expect(o.device == "/dev/input/touchscreen")
        #expect(o.distanceThresholdPx == 125 && o.pressedThresholdPx == 60)
        #expect(o.leniencyDegrees == 15 && o.timeoutMS == 800 && o.orientation == 0 && o.edgeScale == 1)
        #expect(o.screenWidthPx == nil && o.screenHeightPx == nil && !o.verbose)
    }

    @Test func bothBindingFormsAreRead() throws {
        let o = try LisgdOptions.parse([
            "-g", "1,LR,L,*,R,notify-send swiped", "-g", "2,DLUR,TR,M,P,xdotool key a",
            "-g", "3,UD,*,L,echo five fields", "-g", "1,RL,N,S,printf '%s\\n' a,b,c",
        ])
        let b = o.bindings
        #expect(b.map(\.number) == [1, 2, 3, 4])
        #expect(
            b[0]
                == LisgdBinding(
                    number: 1, fingers: 1, swipe: .LR, edge: .L, distance: .any, mode: .released,
                    command: "notify-send swiped", text: "1,LR,L,*,R,notify-send swiped"))
        #expect(b[1].swipe == .DLUR && b[1].edge == .TR && b[1].distance == .M && b[1].mode == .pressed)
        #expect(b[2].mode == .released && b[2].command == "echo five fields")
        #expect(b[3].edge == LisgdEdge.none && b[3].command == "printf '%s\\n' a,b,c", "the command keeps its commas")
    }

    @Test func laterOptionsReplaceEarlierOnesAsInLisgd() throws {
        let o = try LisgdOptions.parse([
            "-t", "100", "-g", "1,LR,*,*,x", "-t", "200", "-v", "-o", "3", "-w", "720", "-h", "1440",
        ])
        #expect(o.distanceThresholdPx == 200 && o.verbose && o.orientation == 3 && o.rotation == .cw90)
        #expect(o.screenWidthPx == 720 && o.screenHeightPx == 1440, "-h is the height, as in lisgd, not help")
    }

    @Test func lisgdsOrientationIsGesturedsRotationTheOtherWayRound() throws {
        let turns = try [0, 1, 2, 3].map { try LisgdOptions.parse(["-o", String($0), "-g", "1,LR,*,*,x"]).rotation }
        #expect(turns == [Rotation.none, .cw270, .cw180, .cw90])
    }

    @Test func badInputIsNamed() {
        #expect(parseError(["-g", "1,LR,*,*,x", "-t"]) == "option -t expects a value")
        #expect(
            parseError(["-g", "1,LR,*,*,x", "-t", "far"])
                == "option -t expects a distance in pixels from 1 to 100000, got 'far'")
        #expect(parseError(["-g", "1,LR,*,*,x", "-o", "4"]) == "option -o expects an orientation from 0 to 3, got '4'")
        #expect(
            parseError(["-g", "1,LR,*,*,x", "-s", "0"])
                == "option -s expects an edge size factor above 0 (1.0: lisgd's 50-pixel edges), got '0'")
        #expect(
            parseError(["-g", "1,LR,*,*,x", "-w", "720"])
                == "give both -w and -h (the screen in pixels), or neither (the touchscreen's own extent then stands in)"
        )
        #expect(
            parseError(["-g", "1,XY,*,*,x"])
                == "-g '1,XY,*,*,x' (binding 1): swipe 'XY' is not one of LR RL DU UD DLUR URDL ULDR DRUL; expected FINGERS,SWIPE,EDGE,DISTANCE[,P|R],COMMAND as in '1,LR,L,*,R,notify-send swiped'"
        )
        #expect(
            parseError(["-g", "1,LR,*,*,x", "-g", "1,LR,Q,*,x"])?.hasPrefix(
                "-g '1,LR,Q,*,x' (binding 2): edge 'Q' is not one of * N L R T B TL TR BL BR;") == true)
        #expect(
            parseError(["-g", "1,LR,*,XL,x"])?.hasPrefix(
                "-g '1,LR,*,XL,x' (binding 1): distance 'XL' is not one of * S M L;") == true)
        #expect(parseError(["-g", "0,LR,*,*,x"])?.contains("fingers '0' is not a number from 1 to 10") == true)
        #expect(parseError(["-g", "1,LR,*,*"])?.contains("4 fields") == true)
        #expect(parseError(["-g", "1,LR,*,*,P"])?.contains("no command after the mode P") == true)
        #expect(parseError(["-g", "1,LR,*,*,R, "])?.contains("the command is empty") == true)
        #expect(parseError(["-x"])?.hasPrefix("unknown option '-x'\nusage: gesturectl lisgd") == true)
        #expect(parseError(["-v"])?.hasPrefix("no -g bindings") == true)
    }

    /// Each binding is a recognizer every touch goes through: at most
    /// `maxBindings` (1000), refused as a usage error beyond, and the most that
    /// are taken translate to a config that loads (not the "bug in gestured" of
    /// a config larger than gestured reads).
    @Test func bindingsAreCappedAndTheMostTakenTranslate() throws {
        #expect(LisgdOptions.maxBindings == 1000)
        func bindings(_ n: Int, command: String = "echo") -> [String] {
            (0..<n).flatMap { ["-g", "\(1 + $0 % 10),\(LisgdSwipe.allCases[$0 % 8].rawValue),*,*,R,\(command) \($0)"] }
        }
        #expect(
            parseError(bindings(1001))
                == "1001 -g bindings; at most 1000 are taken (each becomes a recognizer that every touch goes through, and their config must stay within gestured's 1 MiB)"
        )
        let args = ["-w", "720", "-h", "1440"] + bindings(1000)
        let t = try LisgdTranslation(options: try LisgdOptions.parse(args), device: try phoneDevice(), arguments: args)
        #expect(try t.configuration().recognizers.count == 1000)
        #expect(try ActionsLoader.load(text: t.actionsTOML, file: "actions.toml").actions.count == 1000)
        // Long commands: the files would be larger than gestured reads; said as a usage error.
        let long = ["-w", "720", "-h", "1440"] + bindings(600, command: String(repeating: "x", count: 2000))
        #expect(throws: LisgdError.self) {
            try LisgdTranslation(options: try LisgdOptions.parse(long), device: try phoneDevice(), arguments: long)
        }
        let options = try LisgdOptions.parse(long), device = try phoneDevice()
        do throws(LisgdError) { _ = try LisgdTranslation(options: options, device: device, arguments: long) } catch {
            #expect(error.message.hasPrefix("the 600 bindings make a gestured.toml of "), "\(error)")
            #expect(
                error.message.hasSuffix(
                    "bytes, more than the 1048576 bytes (1 MiB) gestured reads; give fewer bindings or shorter commands (a long command can live in a script)"
                ))
        }
    }

    /// lisgd runs a command's bytes; here a command is UTF-8 text, so bytes
    /// that are not UTF-8 would run as another command (U+FFFD): refused.
    @Test func anArgumentThatIsNotUTF8IsRefused() {
        let raw: [[UInt8]] = [Array("-g".utf8), Array("1,LR,*,*,R,echo caf".utf8) + [0xE9, 0x21]]
        #expect(
            LisgdOptions.encodingProblem(rawArguments: raw)?.message
                == "the value of -g (argument 2) is not UTF-8 (byte 0xE9 at byte 20): lisgd runs such bytes as they are, but gesturectl lisgd runs commands as UTF-8 text and would run another command; write it in UTF-8, or put it in a script and bind the script"
        )
        #expect(
            LisgdOptions.encodingProblem(rawArguments: [Array("-g".utf8), Array("1,LR,*,*,R,echo café".utf8)]) == nil)
        #expect(
            LisgdOptions.encodingProblem(rawArguments: [[0xFF]])?.message.hasPrefix(
                "argument 1 is not UTF-8 (byte 0xFF at byte 1)") == true)
    }

    @Test func sxmosHookLineIsReadWhole() throws {
        let o = try LisgdOptions.parse(sxmoArguments)
        #expect(o.bindings.count == 46)
        #expect(o.device == "/dev/input/by-path/first-touchscreen" && o.orientation == 1 && o.edgeScale == 1)
        #expect(o.bindings.filter { $0.mode == .pressed }.map(\.number) == [9, 10, 11, 12, 19, 20])
        #expect(o.bindings.allSatisfy { $0.command.hasPrefix("setsid -f sxmo_hook_inputhandler.sh ") })
        #expect(
            o.bindings[4].distance == .L && o.bindings[4].edge == .B && o.bindings[4].mode == .released,
            "the five-field form: 1,LR,B,L,command")
    }
}

@Suite("gesturectl lisgd: translation into recognizers")
struct LisgdTranslationTests {
    func translate(_ args: [String]) throws -> (LisgdTranslation, Configuration) {
        let o = try LisgdOptions.parse(args)
        let t = try LisgdTranslation(options: o, device: try phoneDevice(), arguments: args)
        return (t, try t.configuration())
    }

    @Test func sxmosBindingsBecomeSwipesAndThreeSlidersInArgumentOrder() throws {
        let (t, c) = try translate(sxmoArguments)
        #expect(c.recognizers.count == 43, "40 released bindings and 3 sliders for the 6 pressed ones")
        let names = c.recognizers.map(\.name)
        #expect(
            Array(names.prefix(9)) == [
                "b01_1_DRUL_BR_any", "b02_1_DLUR_BL_any", "b03_1_ULDR_TL_any", "b04_1_URDL_TR_any",
                "b05_1_LR_B_L", "b06_1_RL_B_L", "b07_1_LR_L_any", "b08_1_RL_R_any", "slider_1_L_y",
            ])
        #expect(names.filter { $0.hasPrefix("slider") } == ["slider_1_L_y", "slider_1_T_x", "slider_1_R_y"])
        #expect(
            c.devices.count == 1 && c.devices[0].rotation == .cw270 && c.devices[0].match.name == "gestured phone panel"
        )
        guard case .swipe(let corner) = c.recognizers[0].parameters else {
            Issue.record("not a swipe")
            return
        }
        #expect(corner.directions == [.upLeft] && corner.fingers == 1 && corner.maxAngleDegrees == 15)
        #expect(corner.minSpeedMMPerS == 0 && corner.minStraightness == 0 && corner.maxDuration == Millis(800))
        #expect(abs(corner.minDistanceMM - 125 / 11.0) < 0.01, "-t 125 px on an 11 units/mm panel")
        #expect(c.recognizers[0].filter.edge == EdgeFilter(edge: .bottomRight, marginMM: 4.55, at: .startOrEnd))
        let long = try #require(c.recognizers.first { $0.name == "b23_1_RL_any_L" })
        if case .swipe(let p) = long.parameters { #expect(p.minLength == 0.66 && p.directions == [.left]) }
        #expect(long.filter.edge == nil)
        let slider = try #require(c.recognizers.first { $0.name == "slider_1_L_y" })
        guard case .pan(let pan) = slider.parameters else {
            Issue.record("not a pan")
            return
        }
        #expect(abs(pan.stepMM - 60 / 11.0) < 0.01 && pan.axis == .y && pan.minFingers == 1 && pan.maxFingers == 1)
        #expect(slider.filter.edge?.edge == .left && slider.filter.edge?.at == .start)
        #expect(slider.filter.edge?.range != nil, "with corner bindings, a slider does not start in a corner")
        let sxmoBindings = try LisgdOptions.parse(sxmoArguments).bindings
        #expect(t.route(named: "slider_1_L_y") == .slider(plus: sxmoBindings[9], minus: sxmoBindings[8]))
        // actions.toml: one action per recognizer, the sliders by the sign of the step.
        #expect(t.actionsTOML.components(separatedBy: "[[action]]").count - 1 == 43)
        #expect(
            t.actionsTOML.contains(
                """
                name = "slider_1_L_y"
                exec = "case \\"$GESTURE_STEP\\" in -1) eval 'setsid -f sxmo_hook_inputhandler.sh upleftedge' ;; 1) eval 'setsid -f sxmo_hook_inputhandler.sh downleftedge' ;; esac"
                """))
    }

    @Test func theTouchscreensExtentStandsInForTheScreen() throws {
        // The phone panel is 720 × 1440 units: without -w/-h it is the same as -w 720 -h 1440.
        let args = ["-g", "1,DU,B,*,x", "-g", "1,DU,L,*,P,y"]
        let (a, ca) = try translate(args)
        let (b, cb) = try translate(args + ["-w", "720", "-h", "1440"])
        #expect(ca.recognizers == cb.recognizers)
        #expect(abs(a.mmPerPx - b.mmPerPx) < 1e-9 && abs(a.mmPerPx - 1 / 11.0) < 1e-9)
        // A screen of half the pixels makes every pixel twice as long.
        let (h, ch) = try translate(args + ["-w", "360", "-h", "720", "-s", "2"])
        #expect(abs(h.mmPerPx - 2 / 11.0) < 1e-9)
        #expect(ch.recognizers[0].filter.edge?.marginMM == 18.18, "50 px × 2 at 2/11 mm a pixel")
    }

    @Test func pressedBindingsThatCannotSlideAreSwipesWithANote() throws {
        let (t, c) = try translate([
            "-g", "1,DLUR,*,*,P,diag", "-g", "1,DU,L,M,P,medium", "-g", "1,DU,L,*,P,up", "-g", "1,DU,L,*,P,again",
        ])
        #expect(c.recognizers.map(\.name) == ["b1_1_DLUR_any_any", "b2_1_DU_L_M", "slider_1_L_y"])
        #expect(t.notes.contains { $0.contains("pressed diagonal") })
        #expect(t.notes.contains("-g '1,DU,L,*,P,again' never fires: binding 3 comes first with the same stroke"))
        #expect(
            t.gesturedTOML.contains(
                "# note: pressed with distance M: lisgd fires it only at the lift, as a released binding"))
    }

    @Test func aSwipeTheSliderHasNoBindingForIsNotExcludedByIt() throws {
        // lisgd's pressed mode ignores a downward slide when only up is bound:
        // the released binding for down still fires at the lift.
        let (_, c) = try translate(["-g", "1,DU,L,*,P,up", "-g", "1,UD,L,*,down", "-g", "1,DU,L,*,R,upswipe"])
        #expect(c.recognizers.first { $0.name == "b2_1_UD_L_any" }?.simultaneousWith == ["slider_1_L_y"])
        #expect(c.recognizers.first { $0.name == "b3_1_DU_L_any" }?.simultaneousWith == [])
    }

    @Test func aDeviceWithoutAxesIsRefused() throws {
        let keyboard = try #require(try Replay.deviceDescription(of: repoRoot + "/Tests/vm/devices/keyboard.desc"))
        let o = try LisgdOptions.parse(["-g", "1,LR,*,*,x"])
        #expect(throws: LisgdError("'\(keyboard.name)' has no usable X/Y axes; it is not a touchscreen")) {
            try LisgdTranslation(options: o, device: keyboard, arguments: [])
        }
    }
}

@Suite("gesturectl lisgd: Sxmo's bindings on labelled phone strokes")
struct LisgdStrokeTests {
    struct Stroke {
        var start: Double
        var expect: String
        var pressed: Int
        var what: String
    }

    func strokes() throws -> [Stroke] {
        let text = try String(contentsOfFile: phoneDir + "/strokes.strokes.tsv", encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Stroke(start: Double(f[1])!, expect: f[3], pressed: Int(f[4])!, what: f[5])
        }
    }

    /// Each stroke's fired labels, with Sxmo's bindings whose commands are their labels.
    func fired(_ extra: [String] = []) throws -> [[String]] {
        let args =
            ["-t", "125", "-T", "60"] + extra
            + sxmoBindings.flatMap { b -> [String] in
                let label = b.split(separator: " ").last!
                return ["-g", String(b[..<b.lastIndex(of: ",")!]) + ",\(label)"]
            }
        let o = try LisgdOptions.parse(args)
        let t = try LisgdTranslation(options: o, device: try phoneDevice(), arguments: args)
        let c = try t.configuration()
        let list = try strokes()
        var out = Array(repeating: [String](), count: list.count)
        // The recording's first event is at 1.0 s.
        try Replay.stream(recording: phoneDir + "/strokes.events", descPath: nil, configuration: c) { e in
            guard let b = t.binding(for: e) else { return }
            let k = list.lastIndex { $0.start + 1.0 <= e.time.seconds } ?? 0
            out[k].append(b.command)
        }
        return out
    }

    /// The swipes and sliders of one arena work out each frame's motion once
    /// (SharedMotion); every event, failures and their reasons included, is what
    /// the same recognizers give each working out its own.
    @Test func recognizersSharingTheirMotionDecideAsEachAloneWould() throws {
        let sxmo = try SxmoReplay()
        let c = sxmo.configuration
        let geometry = try #require(c.geometry(for: sxmo.device))
        let shared = c.makeArena(device: sxmo.device.name)
        // As Configuration.makeArena adds them, each with a recognizer of its own.
        let alone = c.makeArena(device: sxmo.device.name) { $0.parameters.makeRecognizer() }
        var decoder = SlotDecoder(device: sxmo.device, geometry: geometry)
        var a: [GestureEvent] = [], b: [GestureEvent] = []
        for e in sxmo.raw where decoder.feed(e) {
            shared.handle(decoder.lastFrame, into: &a)
            alone.handle(decoder.lastFrame, into: &b)
        }
        #expect(c.recognizers.count == 43)
        #expect(a.count == b.count)
        #expect(a.filter { $0.state == .recognized }.count > 10)
        for (x, y) in zip(a, b) where x != y {
            Issue.record("shared: \(x.json)\nalone:  \(y.json)")
            break
        }
    }

    @Test func everyStrokeFiresTheBindingLisgdFires() throws {
        let list = try strokes()
        #expect(list.count == 49)
        let got = try fired()
        for (s, labels) in zip(list, got) {
            if s.expect == "-" {
                #expect(labels.isEmpty, "\(s.what): fired \(labels)")
            } else if s.pressed > 0 {
                #expect(Set(labels) == [s.expect], "\(s.what)")
                #expect(
                    abs(labels.count - s.pressed) <= 1,
                    "\(s.what): \(labels.count) repeats for \(s.pressed) steps of travel")
            } else {
                #expect(labels == [s.expect], "\(s.what)")
            }
        }
    }

    @Test func turningTheScreenTurnsWhatFires() throws {
        // -o 2: the screen upside down. Up from the panel's bottom edge is, as the
        // user sees it, down from the top; the panel's bottom-right corner is the top-left.
        let list = try strokes()
        let got = try fired(["-o", "2"])
        func at(_ what: String) -> [String] { got[list.firstIndex { $0.what == what }!] }
        #expect(at("up from the bottom edge") == ["downtopedge"])
        #expect(at("from the bottom-right corner, up-left") == ["topleftcorner"])
        #expect(at("right from the left edge") == ["leftrightedge"])
        #expect(Set(at("slide up the left edge")) == ["downrightedge"])
        // -o 1 (Sxmo's "right"): the panel's up is the user's left, its bottom edge the user's right.
        let right = try fired(["-o", "1"])
        #expect(right[list.firstIndex { $0.what == "up from the bottom edge" }!] == ["leftrightedge"])
    }

    @Test func theCommittedStrokesAreWhatTheGeneratorWrites() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lisgd-strokes-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", repoRoot + "/Tests/vm/tools/gen_phone_strokes.py", dir + "/strokes.events"]
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "python3 Tests/vm/tools/gen_phone_strokes.py failed")
        for f in ["strokes.events", "strokes.desc", "strokes.strokes.tsv"] {
            #expect(
                FileManager.default.contentsEqual(atPath: dir + "/" + f, andPath: phoneDir + "/" + f),
                "\(f) differs from the generator's output: run Tests/vm/tools/gen_phone_strokes.py Tests/fixtures/phone/strokes.events"
            )
        }
    }
}

func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

@Suite("gesturectl lisgd: commands")
struct LisgdCommandTests {
    /// Waits up to 60 s (a loaded machine) for every started command to finish and be reaped.
    func drain(_ c: ActionRunner) {
        let end = monotonicSeconds() + 60
        while !c.running.isEmpty && monotonicSeconds() < end {
            c.reap()
            usleep(10_000)
        }
    }

    @Test func commandsRunWithSignalsUnblockedAndAreReaped() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lisgd-cmd-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The runner blocks its signals for the signalfd; a command must not
        // inherit that, or `kill` could not stop it.
        var mask = sigset_t(), old = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &mask, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        var said: [String] = []
        let c = ActionRunner(maxRunning: LisgdRunner.maxRunning, newSession: false, reportsExits: true) {
            said.append($0)
        }
        // Each command waits for the test to open its gate (at most 60 s): if run()
        // waited for its command, none would still be running when it returned.
        let gate = "i=0; while [ ! -e \(dir)/go ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done; "
        for (i, command) in [
            "grep SigBlk /proc/self/status > \(dir)/mask",
            "echo one, two > \(dir)/commas",
            "ps -o sid= -p $$ > \(dir)/session; exit 3",
        ].enumerated() {
            c.run([.init(exec: gate + command, label: "binding \(i + 1)")], eventLine: nil, environment: [], event: "b")
        }
        #expect(c.running.count == 3, "started without waiting")
        #expect(FileManager.default.createFile(atPath: dir + "/go", contents: nil))
        drain(c)
        #expect(c.running.isEmpty)
        let blocked = try String(contentsOfFile: dir + "/mask", encoding: .utf8)
        #expect(blocked.trimmingCharacters(in: .whitespacesAndNewlines) == "SigBlk:\t0000000000000000")
        #expect(try String(contentsOfFile: dir + "/commas", encoding: .utf8) == "one, two\n")
        #expect(said.contains { $0.hasSuffix("exited with status 3") })
        // In our session, as lisgd's system() runs it.
        let session = try String(contentsOfFile: dir + "/session", encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(session == String(getsid(0)))
    }

    @Test func atTheLimitACommandIsNotStartedAndThatIsSaid() {
        var said: [String] = []
        let c = ActionRunner(maxRunning: 1, newSession: false, reportsExits: false) { said.append($0) }
        c.run([.init(exec: "sleep 1", label: "binding 1")], eventLine: nil, environment: [], event: "b01")
        c.run([.init(exec: "true", label: "binding 2")], eventLine: nil, environment: [], event: "b02")
        #expect(c.running.count == 1)
        #expect(said == ["gesturectl: b02: not running binding 2: 1 commands still running (max_running = 1)"])
        drain(c)
    }
}

@Suite("gesturectl lisgd: outside input the translation must carry")
struct LisgdTranslationInputTests {
    func translate(_ args: [String]) throws -> (LisgdTranslation, Configuration) {
        let o = try LisgdOptions.parse(args)
        let t = try LisgdTranslation(options: o, device: try phoneDevice(), arguments: args)
        return (t, try t.configuration())
    }

    @Test func aLineBreakInACommandStaysInsideItsCommentAndString() throws {
        let (t, c) = try translate(["-w", "720", "-h", "1440", "-g", "1,LR,*,*,R,notify-send a\nnotify-send b"])
        #expect(c.recognizers.count == 1)
        #expect(!t.gesturedTOML.contains("\nnotify-send b"), "the command is not read as TOML")
        let actions = try ActionsLoader.load(text: t.actionsTOML, file: "actions.toml")
        #expect(actions.actions.first?.exec == "notify-send a\nnotify-send b")
    }

    @Test func edgesWiderThanGesturedTakesAreCappedWithANote() throws {
        let (t, c) = try translate(["-w", "720", "-h", "1440", "-s", "30", "-g", "1,LR,L,*,true"])
        #expect(c.recognizers.first?.filter.edge?.marginMM == 100)
        #expect(t.notes.contains { $0.hasPrefix("-s 30.00: edges of") })
    }

    @Test func aPressedDiagonalKeepsSlidersOutOfTheCorners() throws {
        let (_, c) = try translate(["-w", "720", "-h", "1440", "-g", "1,DLUR,BL,*,P,corner", "-g", "1,DU,L,*,P,up"])
        let slider = try #require(c.recognizers.first { $0.name.hasPrefix("slider") })
        #expect(slider.filter.edge?.range != nil)
    }

    @Test func aPressedStepAboveTheSwipeLengthIsNoted() throws {
        let (t, _) = try translate(["-w", "720", "-h", "1440", "-T", "300", "-t", "125", "-g", "1,DU,L,*,P,up"])
        #expect(t.notes.contains { $0.hasPrefix("-T 300 is above -t 125") })
    }
}
