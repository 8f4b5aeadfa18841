import GestureConfig
import GestureCore
import GestureDaemon
import GestureProtocol
import Testing

@testable import GestureClient

/// The actions file: what it accepts, how it says what is wrong, and which
/// events each action runs for.
@Suite struct ActionsFileTests {
    func load(_ text: String) throws -> ActionsFile {
        try ActionsLoader.load(text: text, file: "actions.toml")
    }

    /// The problems a file has, one `file:line: key: message` each.
    func problems(_ text: String) -> [String] {
        do {
            _ = try ActionsLoader.load(text: text, file: "actions.toml")
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    func event(_ fields: String) throws -> JSONValue {
        try JSONValue.parse(
            #"{"type":"event","time":1.5,"device":"TS","location_mm":[1,2],"location":[0.1,0.2],"# + fields + "}")
    }

    // MARK: - Reading

    @Test func everyKeyInBothForms() throws {
        let f = try load(
            """
            max_running = 2

            [[action]]
            exec = "notify-send swipe"
            kind = "swipe"
            direction = ["left", "right"]
            fingers = 1
            edge = "left"

            [[action]]
            exec = 'echo "$GESTURE_STEP" >> /tmp/steps'
            name = ["volume", "brightness"]
            kind = ["pan"]
            state = "changed"
            fingers = [1, 2]
            edge = ["top_left", "bottom"]
            """)
        #expect(f.maxRunning == 2)
        #expect(f.actions.count == 2)
        let a = f.actions[0], b = f.actions[1]
        #expect(a.exec == "notify-send swipe")
        #expect(a.kinds == [.swipe])
        #expect(a.directions == ["left", "right"])
        #expect(a.fingers == [1])
        #expect(a.edges == ["left"])
        #expect(a.names.isEmpty && a.states.isEmpty)
        #expect(a.line == 3)
        #expect(b.exec == #"echo "$GESTURE_STEP" >> /tmp/steps"#)
        #expect(b.names == ["volume", "brightness"])
        #expect(b.kinds == [.pan])
        #expect(b.states == [.changed])
        #expect(b.fingers == [1, 2])
        #expect(b.edges == ["top_left", "bottom"])
        #expect(b.line == 10)
        #expect(f.warnings.isEmpty)
    }

    @Test func aStringIsAListOfOne() throws {
        let one = try load("[[action]]\nexec = \"x\"\nname = \"a\"\nkind = \"tap\"\nstate = \"began\"\nfingers = 2\n")
        let list = try load(
            "[[action]]\nexec = \"x\"\nname = [\"a\"]\nkind = [\"tap\"]\nstate = [\"began\"]\nfingers = [2]\n")
        #expect(one.actions[0].names == list.actions[0].names)
        #expect(one.actions[0].kinds == list.actions[0].kinds)
        #expect(one.actions[0].states == list.actions[0].states)
        #expect(one.actions[0].fingers == list.actions[0].fingers)
    }

    @Test func noActionsIsAcceptedWithAWarning() throws {
        let f = try load("# nothing yet\n")
        #expect(f.actions.isEmpty)
        #expect(f.maxRunning == nil)
        #expect(f.warnings == ["actions.toml:1: no [[action]] tables: no command will run"])
        #expect(f.subscribeRequest == nil)
    }

    @Test func errorsNameLineAndKey() {
        #expect(
            problems(
                """
                max_running = 0
                [[action]]
                exec = "x"
                kind = "swip"
                direction = ["left",
                             "sideways"]
                fingers = [1, 11]
                state = "possible"
                edge = "middle"
                colour = "red"
                """) == [
                    "actions.toml:1: max_running: expected an integer from 1 to 64, got 0",
                    "actions.toml:4: action.0.kind: unknown kind 'swip'; expected one of: tap, pan, swipe, pinch, rotate, long_press, circle, checkmark, tickle, shape",
                    "actions.toml:6: action.0.direction: unknown direction 'sideways'; expected one of: left, right, up, down, up_left, up_right, down_left, down_right, clockwise, counterclockwise",
                    "actions.toml:7: action.0.fingers: expected an integer from 1 to 10 or a list of them, got integer 11",
                    "actions.toml:8: action.0.state: unknown state 'possible'; expected one of: began, changed, ended, recognized, cancelled, failed",
                    "actions.toml:9: action.0.edge: unknown edge 'middle'; expected one of: left, right, top, bottom, top_left, top_right, bottom_left, bottom_right",
                    "actions.toml:10: action.0.colour: unknown key for an [[action]]; known keys: exec, name, kind, state, direction, fingers, edge",
                ])
    }

    @Test func valuesAreReadAsTheConfigReadsThem() {
        // One reader for both files: a bad item of a list spread over lines is
        // named by its own line, an out-of-range integer by the same words.
        #expect(
            problems("[[action]]\nexec = \"x\"\nkind = [\n  \"tap\",\n  3]\n") == [
                "actions.toml:5: action.0.kind: expected a string or a list of kinds, found integer 3"
            ])
        let config: [String]
        do {
            _ = try ConfigLoader.load(
                text: "[recognizer.r]\nkind = \"tap\"\ndevices = [\n  \"a\",\n  3]\ntaps = 0\n", file: "c.toml")
            config = []
        } catch {
            config = error.errors.map(\.description)
        }
        #expect(
            config == [
                "c.toml:5: recognizer.r.devices: expected a list of names, found integer 3",
                "c.toml:6: recognizer.r.taps: expected an integer from 1 to 10, got 0",
            ])
        #expect(
            problems("max_running = 65\n") == ["actions.toml:1: max_running: expected an integer from 1 to 64, got 65"])
    }

    @Test func theSecondActionIsAction1() {
        #expect(
            problems("[[action]]\nexec = \"a\"\n\n[[action]]\nkind = \"tap\"\n") == [
                "actions.toml:4: action.1: an [[action]] needs exec, the command to run"
            ])
    }

    @Test func wrongShapesAndTypes() {
        #expect(
            problems("[action]\nexec = \"x\"\n") == [
                "actions.toml:1: action: expected [[action]] tables (two brackets), got a table"
            ])
        #expect(
            problems("[[action]]\nexec = [\"a\", \"b\"]\n") == [
                "actions.toml:2: action.0.exec: expected the command as a string, got a list"
            ])
        #expect(
            problems("[[action]]\nexec = \"  \"\n") == [
                "actions.toml:2: action.0.exec: an empty command; write the command to run through /bin/sh -c"
            ])
        #expect(
            problems("[[action]]\nexec = \"a\\u0000b\"\n") == [
                "actions.toml:2: action.0.exec: the command contains a NUL character, which no command line can"
            ])
        #expect(
            problems("[[action]]\nexec = \"x\"\nname = []\n") == [
                "actions.toml:3: action.0.name: an empty list would match nothing; leave the key out to match any"
            ])
        #expect(
            problems("[[action]]\nexec = \"x\"\nfingers = 1.0\n") == [
                "actions.toml:3: action.0.fingers: expected an integer from 1 to 10 or a list of them, got float 1.0"
            ])
        #expect(
            problems("[[action]]\nexec = \"x\"\nkind = 3\n") == [
                "actions.toml:3: action.0.kind: expected a string or a list of kinds, got integer 3"
            ])
        #expect(
            problems("max_running = \"4\"\n") == [
                "actions.toml:1: max_running: expected an integer from 1 to 64, got string \"4\""
            ])
        #expect(
            problems("[[action]]\nexec = \"x\"\nedge = \"none\"\n") == [
                "actions.toml:3: action.0.edge: events carry no edge \"none\" (a recognizer with edge = \"none\" sends no edge field); match it by its name"
            ])
        #expect(
            problems("exec = \"x\"\n") == [
                "actions.toml:1: exec: unknown key; an actions file holds max_running and [[action]] tables"
            ])
    }

    @Test func syntaxAndTextErrorsNameTheirLine() {
        let syntax = problems("[[action]]\nexec = \"x\"\nkind = \"tap\n")
        #expect(syntax.count == 1)
        #expect(syntax.first?.hasPrefix("actions.toml:3: TOML syntax") == true)
        let bytes: [UInt8] = Array("[[action]]\nexec = \"".utf8) + [0xff] + Array("\"\n".utf8)
        #expect(throws: ConfigErrors.self) { try ActionsLoader.load(bytes: bytes, file: "actions.toml") }
        do { _ = try ActionsLoader.load(bytes: bytes, file: "actions.toml") } catch {
            #expect(error.description.hasPrefix("actions.toml:2: invalid UTF-8"))
        }
    }

    @Test func defaultPathFollowsXDG() {
        #expect(ActionsFile.defaultPath(xdgConfigHome: "/x/cfg", home: "/home/u") == "/x/cfg/gestured/actions.toml")
        #expect(ActionsFile.defaultPath(xdgConfigHome: "/x/cfg/", home: "/home/u") == "/x/cfg/gestured/actions.toml")
        // A relative XDG_CONFIG_HOME is invalid and ignored.
        #expect(
            ActionsFile.defaultPath(xdgConfigHome: "cfg", home: "/home/u") == "/home/u/.config/gestured/actions.toml")
        #expect(ActionsFile.defaultPath(xdgConfigHome: "", home: "/home/u") == "/home/u/.config/gestured/actions.toml")
        #expect(ActionsFile.defaultPath(xdgConfigHome: nil, home: nil) == nil)
    }

    // MARK: - Matching

    @Test func withoutStateOnlyRecognizedAndSliderSteps() throws {
        let f = try load("[[action]]\nexec = \"x\"\n")
        let a = f.actions[0]
        #expect(
            try a.matches(event(#""name":"swipe","kind":"swipe","state":"recognized","fingers":1,"direction":"left""#)))
        #expect(try a.matches(event(#""name":"tap","kind":"tap","state":"recognized","fingers":1,"taps":1"#)))
        // A pan's frames: none of them, however many.
        #expect(try !a.matches(event(#""name":"pan","kind":"pan","state":"began","fingers":1"#)))
        #expect(try !a.matches(event(#""name":"pan","kind":"pan","state":"changed","fingers":1"#)))
        #expect(try !a.matches(event(#""name":"pan","kind":"pan","state":"ended","fingers":1"#)))
        #expect(try !a.matches(event(#""name":"pan","kind":"pan","state":"cancelled","fingers":1,"reason":"x""#)))
        #expect(try !a.matches(event(#""name":"swipe","kind":"swipe","state":"failed","fingers":1,"reason":"x""#)))
        // A slider's steps: its began and each changed that carries a step.
        #expect(try a.matches(event(#""name":"vol","kind":"pan","state":"began","fingers":1,"step":1"#)))
        #expect(try a.matches(event(#""name":"vol","kind":"pan","state":"changed","fingers":1,"step":-1"#)))
    }

    @Test func aStateMatchesThatStateOnly() throws {
        let f = try load("[[action]]\nexec = \"x\"\nstate = [\"changed\", \"cancelled\"]\n")
        let a = f.actions[0]
        #expect(try a.matches(event(#""name":"pan","kind":"pan","state":"changed","fingers":1"#)))
        #expect(try a.matches(event(#""name":"pan","kind":"pan","state":"cancelled","fingers":1"#)))
        #expect(try !a.matches(event(#""name":"swipe","kind":"swipe","state":"recognized","fingers":1"#)))
        #expect(try !a.matches(event(#""name":"vol","kind":"pan","state":"began","fingers":1,"step":1"#)))
    }

    @Test func everyMatchMustAccept() throws {
        let f = try load(
            """
            [[action]]
            exec = "x"
            name = "edge_swipe"
            kind = "swipe"
            direction = ["right", "down"]
            fingers = [1, 2]
            edge = "left"
            """)
        let a = f.actions[0]
        let base = #""name":"edge_swipe","kind":"swipe","state":"recognized""#
        #expect(try a.matches(event(base + #","fingers":2,"direction":"right","edge":"left""#)))
        #expect(try !a.matches(event(base + #","fingers":3,"direction":"right","edge":"left""#)))
        #expect(try !a.matches(event(base + #","fingers":1,"direction":"up","edge":"left""#)))
        #expect(try !a.matches(event(base + #","fingers":1,"direction":"right","edge":"right""#)))
        // An event without the field asked about is not matched.
        #expect(try !a.matches(event(base + #","fingers":1,"direction":"right""#)))
        #expect(
            try !a.matches(
                event(
                    #""name":"other","kind":"swipe","state":"recognized","fingers":1,"direction":"right","edge":"left""#
                )))
        #expect(
            try !a.matches(
                event(
                    #""name":"edge_swipe","kind":"pan","state":"recognized","fingers":1,"direction":"right","edge":"left""#
                )))
    }

    @Test func everyMatchingActionRunsInFileOrder() throws {
        let f = try load(
            """
            [[action]]
            exec = "first"
            kind = "swipe"
            [[action]]
            exec = "not a tap"
            kind = "tap"
            [[action]]
            exec = "second"
            direction = "left"
            [[action]]
            exec = "third"
            """)
        let swipe = try event(#""name":"swipe","kind":"swipe","state":"recognized","fingers":1,"direction":"left""#)
        #expect(f.actions(for: swipe).map(\.exec) == ["first", "second", "third"])
    }

    // MARK: - The subscription

    @Test func subscribesToTheUnionOfWhatActionsCanMatch() throws {
        let swipesAndTaps = try load(
            """
            [[action]]
            exec = "x"
            kind = "swipe"
            [[action]]
            exec = "y"
            kind = "tap"
            state = "failed"
            """)
        #expect(
            swipesAndTaps.subscribeRequest
                == #"{"cmd":"subscribe","kind":["swipe","tap"],"state":["recognized","failed"]}"#)
        // An action open on a key leaves that key out of the filter.
        let anyKind = try load(
            """
            [[action]]
            exec = "x"
            kind = "swipe"
            name = "s"
            [[action]]
            exec = "y"
            name = "vol"
            """)
        #expect(
            anyKind.subscribeRequest
                == #"{"cmd":"subscribe","name":["s","vol"],"state":["recognized","began","changed"]}"#)
        // A pan without a state needs began and changed: a slider's steps come as those.
        let slider = try load("[[action]]\nexec = \"x\"\nkind = \"pan\"\n")
        #expect(
            slider.subscribeRequest == #"{"cmd":"subscribe","kind":["pan"],"state":["recognized","began","changed"]}"#)
    }

    @Test func theSubscriptionIsOneTheDaemonAccepts() throws {
        func named(_ n: Int) -> String {
            var text = ""
            for i in 0..<n { text += "[[action]]\nexec = \"x\"\nname = \"recognizer_\(i)\"\n" }
            return text
        }
        let f = try load(named(40))
        let request = try #require(f.subscribeRequest)
        // 40 names are more than a filter list may hold: no name filter, the client filters.
        #expect(!request.contains("\"name\""))
        var session = ClientSession()
        let actions = session.received(Array((request + "\n").utf8))
        #expect(session.subscription != nil, "the daemon refused \(request): \(actions)")
        // With 32 names it keeps them, still within the daemon's limits.
        let few = try load(named(32))
        let fewRequest = try #require(few.subscribeRequest)
        #expect(fewRequest.contains("\"recognizer_31\""))
        var other = ClientSession()
        _ = other.received(Array((fewRequest + "\n").utf8))
        #expect(other.subscription != nil, "the daemon refused \(fewRequest)")
    }
}

/// The example shipped in config/examples is a file the loader accepts.
@Suite struct ActionsExampleTests {
    @Test func theExampleIsValid() throws {
        let tests = String(#filePath).split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(
            separator: "/")
        let path = tests + "/config/examples/actions.toml"
        let bytes = try ConfigFile.read(path: path, limit: ConfigLoader.maxFileBytes).get()
        let f = try ActionsLoader.load(bytes: bytes, file: path)
        #expect(f.actions.count == 6)
        #expect(f.maxRunning == 4)
        #expect(f.warnings.isEmpty)
        // The slider's multi-line command is read whole.
        #expect(f.actions[4].names == ["brightness"])
        #expect(f.actions[4].exec.contains("brightnessctl set 5%+"))
    }
}
