import GestureCore
import Glibc

/// lisgd's command line, read as lisgd 0.3.7 and upstream lisgd read it, with
/// clear errors where lisgd would silently take `atoi`'s 0 or leave a field unset.
///
/// ```
/// lisgd [-v] [-d DEVICE] [-o 0..3] [-t PX] [-T PX] [-r DEG] [-m MS] [-w PX -h PX] [-s FACTOR]
///       [-g 'FINGERS,SWIPE,EDGE,DISTANCE[,MODE],COMMAND']…
/// ```
///
/// Options may come in any order and a later one replaces an earlier one, as in
/// lisgd. `gesturectl lisgd` adds its own long options (`--print-config`,
/// `--desc FILE`, `--replay FILE`, `--help`).
public struct LisgdOptions: Sendable, Equatable {
    /// `-d`: the touchscreen's device node (lisgd's compiled-in default).
    public var device = "/dev/input/touchscreen"
    /// `-g`, in argument order: the first that matches a stroke runs.
    public var bindings: [LisgdBinding] = []
    /// `-t`: a released swipe is at least this long, in screen pixels.
    public var distanceThresholdPx = 125
    /// `-T`: a pressed binding repeats each time the finger moved this far, in pixels.
    public var pressedThresholdPx = 60
    /// `-r`: how far off its direction a stroke may be, in degrees.
    public var leniencyDegrees = 15
    /// `-m`: from the first finger down to the last lift (released), or between
    /// two repeats (pressed), in ms.
    public var timeoutMS = 800
    /// `-o`: quarter turns of the screen (lisgd's orientation, 0…3).
    public var orientation = 0
    /// `-w`, `-h`: the screen in pixels; nil: the touchscreen's own extent stands in.
    public var screenWidthPx: Int?
    public var screenHeightPx: Int?
    /// `-s`: upstream lisgd's factor on its 50-pixel edges.
    public var edgeScale = 1.0
    /// `-v`
    public var verbose = false
    /// `--print-config`: print gestured.toml and actions.toml instead of running.
    public var printConfig = false
    /// `--desc FILE`: the device description from an evemu file instead of the device.
    public var descPath: String?
    /// `--replay FILE`: run an evemu recording instead of the device; print what fires.
    public var replayPath: String?
    /// `--help`
    public var help = false

    public init() {}

    /// The rotation gestured applies for lisgd's `-o`: lisgd turns its bindings
    /// a quarter counterclockwise per step (`-o 1` makes a binding's up the
    /// panel's right), which is gestured's clockwise 270.
    public var rotation: Rotation {
        switch orientation % 4 {
        case 1: .cw270
        case 2: .cw180
        case 3: .cw90
        default: .none
        }
    }
}

/// lisgd's eight stroke directions, by its own names.
public enum LisgdSwipe: String, Sendable, CaseIterable {
    case LR, RL, DU, UD, DLUR, URDL, ULDR, DRUL

    /// gestured's name for the direction.
    public var direction: String {
        switch self {
        case .LR: "right"
        case .RL: "left"
        case .DU: "up"
        case .UD: "down"
        case .DLUR: "up_right"
        case .URDL: "down_left"
        case .ULDR: "down_right"
        case .DRUL: "up_left"
        }
    }

    public var isDiagonal: Bool { rawValue.count == 4 }

    /// The slider axis and step sign of a straight direction: right and down are +1.
    public var slider: (axis: String, step: Int)? {
        switch self {
        case .LR: ("x", 1)
        case .RL: ("x", -1)
        case .UD: ("y", 1)
        case .DU: ("y", -1)
        default: nil
        }
    }
}

/// Where a stroke must start or end: an edge, a corner, no edge (`N`) or anywhere (`*`).
public enum LisgdEdge: String, Sendable, CaseIterable {
    case any = "*", none = "N"
    case L, R, T, B, TL, TR, BL, BR

    /// gestured's `edge` value; nil for anywhere.
    public var gesturedEdge: String? {
        switch self {
        case .any: nil
        case .none: "none"
        case .L: "left"
        case .R: "right"
        case .T: "top"
        case .B: "bottom"
        case .TL: "top_left"
        case .TR: "top_right"
        case .BL: "bottom_left"
        case .BR: "bottom_right"
        }
    }

    /// For names: `*` reads `any`.
    public var label: String { self == .any ? "any" : rawValue }
}

/// lisgd's length classes, relative to the screen's extent along the stroke.
public enum LisgdDistance: String, Sendable, CaseIterable {
    case any = "*", S, M, L

    /// gestured's `min_length`: a binding's class is a minimum (S is no minimum).
    public var minLength: Double {
        switch self {
        case .any, .S: 0
        case .M: 0.33
        case .L: 0.66
        }
    }

    public var label: String { self == .any ? "any" : rawValue }
}

/// One `-g` binding.
public struct LisgdBinding: Sendable, Equatable {
    public enum Mode: String, Sendable { case released = "R", pressed = "P" }

    /// 1-based position among the `-g` options.
    public var number: Int
    public var fingers: Int
    public var swipe: LisgdSwipe
    public var edge: LisgdEdge
    public var distance: LisgdDistance
    public var mode: Mode
    public var command: String
    /// The `-g` value as given.
    public var text: String

    public init(
        number: Int, fingers: Int, swipe: LisgdSwipe, edge: LisgdEdge, distance: LisgdDistance,
        mode: Mode, command: String, text: String
    ) {
        self.number = number
        self.fingers = fingers
        self.swipe = swipe
        self.edge = edge
        self.distance = distance
        self.mode = mode
        self.command = command
        self.text = text
    }

    /// `FINGERS,SWIPE,EDGE,DISTANCE[,MODE],COMMAND`. The mode field is there when it
    /// is `P` or `R`; everything after it (or after DISTANCE) is the command,
    /// commas included. (lisgd cuts its fields with strtok and so keeps only the
    /// command's text up to its first comma; a command with a comma is kept
    /// whole here.)
    public static func parse(_ text: String, number: Int) throws(LisgdError) -> LisgdBinding {
        let fields = text.split(separator: ",", maxSplits: 5, omittingEmptySubsequences: false).map(String.init)
        func bad(_ what: String) -> LisgdError {
            LisgdError(
                "-g '\(text)' (binding \(number)): \(what); expected FINGERS,SWIPE,EDGE,DISTANCE[,P|R],COMMAND as in '1,LR,L,*,R,notify-send swiped'"
            )
        }
        guard fields.count >= 5 else { throw bad("\(fields.count) field\(fields.count == 1 ? "" : "s")") }
        guard let fingers = Int(fields[0].trimmed), (1...10).contains(fingers) else {
            throw bad("fingers '\(fields[0])' is not a number from 1 to 10")
        }
        guard let swipe = LisgdSwipe(rawValue: fields[1]) else {
            throw bad(
                "swipe '\(fields[1])' is not one of \(LisgdSwipe.allCases.map(\.rawValue).joined(separator: " "))")
        }
        guard let edge = LisgdEdge(rawValue: fields[2]) else {
            throw bad("edge '\(fields[2])' is not one of \(LisgdEdge.allCases.map(\.rawValue).joined(separator: " "))")
        }
        guard let distance = LisgdDistance(rawValue: fields[3]) else {
            throw bad(
                "distance '\(fields[3])' is not one of \(LisgdDistance.allCases.map(\.rawValue).joined(separator: " "))"
            )
        }
        var mode = Mode.released
        var command: String
        if let m = Mode(rawValue: fields[4]) {
            mode = m
            guard fields.count == 6 else { throw bad("no command after the mode \(m.rawValue)") }
            command = fields[5]
        } else {
            command = fields[4...].joined(separator: ",")
        }
        guard !command.trimmed.isEmpty else { throw bad("the command is empty") }
        return LisgdBinding(
            number: number, fingers: fingers, swipe: swipe, edge: edge, distance: distance,
            mode: mode, command: command, text: text)
    }
}

/// A command line lisgd would refuse, or one that gesturectl cannot honour.
public struct LisgdError: Error, CustomStringConvertible, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension LisgdOptions {
    /// lisgd's usage line, with gesturectl's own options.
    public static let usage = """
        usage: gesturectl lisgd [-v] [-d DEVICE] [-o 0..3] [-t PX] [-T PX] [-r DEG] [-m MS] [-w PX -h PX] [-s FACTOR]
                                [-g 'FINGERS,SWIPE,EDGE,DISTANCE[,P|R],COMMAND']… [--print-config] [--desc FILE] [--replay FILE]
          e.g. -g '1,LR,L,*,R,notify-send swiped left to right from left edge'
        """

    /// Reads lisgd's arguments (without the program name).
    public static func parse(_ arguments: [String]) throws(LisgdError) -> LisgdOptions {
        var o = LisgdOptions()
        var i = 0
        func value(_ option: String) throws(LisgdError) -> String {
            i += 1
            guard i < arguments.count else { throw LisgdError("option \(option) expects a value") }
            return arguments[i]
        }
        func integer(_ option: String, _ what: String, _ range: ClosedRange<Int>) throws(LisgdError) -> Int {
            let v = try value(option)
            guard let n = Int(v.trimmed), range.contains(n) else {
                throw LisgdError(
                    "option \(option) expects \(what) from \(range.lowerBound) to \(range.upperBound), got '\(v)'")
            }
            return n
        }
        while i < arguments.count {
            let a = arguments[i]
            switch a {
            case "-v": o.verbose = true
            case "-d":
                o.device = try value(a)
                if o.device.isEmpty { throw LisgdError("option -d expects a device node, got an empty string") }
            case "-t": o.distanceThresholdPx = try integer(a, "a distance in pixels", 1...100_000)
            case "-T": o.pressedThresholdPx = try integer(a, "a distance in pixels", 1...100_000)
            case "-r": o.leniencyDegrees = try integer(a, "an angle in degrees", 0...45)
            case "-m": o.timeoutMS = try integer(a, "a time in milliseconds", 1...10_000)
            case "-o": o.orientation = try integer(a, "an orientation", 0...3)
            case "-w": o.screenWidthPx = try integer(a, "a width in pixels", 1...100_000)
            case "-h": o.screenHeightPx = try integer(a, "a height in pixels", 1...100_000)
            case "-s":
                let v = try value(a)
                guard let s = Double(v.trimmed), s.isFinite, s > 0, s <= 100 else {
                    throw LisgdError(
                        "option -s expects an edge size factor above 0 (1.0: lisgd's 50-pixel edges), got '\(v)'")
                }
                o.edgeScale = s
            case "-g":
                o.bindings.append(try LisgdBinding.parse(try value(a), number: o.bindings.count + 1))
            case "--print-config": o.printConfig = true
            case "--desc": o.descPath = try value(a)
            case "--replay": o.replayPath = try value(a)
            case "--help": o.help = true
            default:
                throw LisgdError("unknown option '\(a)'\n\(usage)")
            }
            i += 1
        }
        if o.help { return o }
        if (o.screenWidthPx == nil) != (o.screenHeightPx == nil) {
            throw LisgdError(
                "give both -w and -h (the screen in pixels), or neither (the touchscreen's own extent then stands in)")
        }
        if o.bindings.isEmpty {
            throw LisgdError("no -g bindings: lisgd would use the set compiled into it; give them with -g\n\(usage)")
        }
        if o.bindings.count > maxBindings {
            throw LisgdError(
                "\(o.bindings.count) -g bindings; at most \(maxBindings) are taken (each becomes a recognizer that every touch goes through, and their config must stay within gestured's 1 MiB)"
            )
        }
        return o
    }

    /// The most `-g` bindings taken: about twenty times Sxmo's 46, and more than
    /// the 640 distinct bindings of one finger count (8 directions × 10 edges ×
    /// 4 distances × 2 modes), while the translated files (about 330 bytes a
    /// binding for both, with short commands) stay well within the 1 MiB
    /// gestured reads, and a touch goes through a bounded number of recognizers.
    public static let maxBindings = 1000

    /// Why the arguments cannot be run as given, if one is not UTF-8: lisgd
    /// would run a command's bytes as they are, but here a command is text that
    /// goes through actions.toml (TOML is UTF-8) and would run with U+FFFD in
    /// place of those bytes, which is another command. `rawArguments` are the
    /// arguments after `lisgd`, as the kernel passed them.
    public static func encodingProblem(rawArguments: [[UInt8]]) -> LisgdError? {
        for (i, raw) in rawArguments.enumerated() {
            guard String(validating: raw, as: UTF8.self) == nil else { continue }
            var offset = 0
            var it = raw.makeIterator()
            var decoder = UTF8()
            decoding: while true {
                switch decoder.decode(&it) {
                case .scalarValue(let s): offset += UTF8.width(s)
                case .emptyInput, .error: break decoding
                }
            }
            let bad = offset < raw.count ? raw[offset] : 0
            let option = i > 0 ? String(decoding: rawArguments[i - 1], as: UTF8.self) : ""
            let which = option.hasPrefix("-") ? "the value of \(option) (argument \(i + 1))" : "argument \(i + 1)"
            return LisgdError(
                "\(which) is not UTF-8 (byte 0x\(String(bad, radix: 16, uppercase: true)) at byte \(offset + 1)): lisgd runs such bytes as they are, but gesturectl lisgd runs commands as UTF-8 text and would run another command; write it in UTF-8, or put it in a script and bind the script"
            )
        }
        return nil
    }

    /// This process's arguments from `index` on, as the bytes the kernel passed
    /// (CommandLine.arguments has replaced what is not UTF-8).
    public static func rawProcessArguments(from index: Int) -> [[UInt8]] {
        var out: [[UInt8]] = []
        let argv = CommandLine.unsafeArgv
        for i in index..<max(index, Int(CommandLine.argc)) {
            guard let p = argv[i] else { continue }
            out.append(
                Array(
                    UnsafeBufferPointer(
                        start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: strlen(p))))
        }
        return out
    }
}

extension String {
    var trimmed: Substring {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return s
    }
}
