/// Parameters of one recognizer, by kind.
public enum RecognizerParameters: Sendable, Equatable {
    case tap(TapRecognizer.Parameters)
    case pan(PanRecognizer.Parameters)
    case circle(CircleRecognizer.Parameters)
    case checkmark(CheckmarkRecognizer.Parameters)
    case tickle(TickleRecognizer.Parameters)
    case swipe(SwipeRecognizer.Parameters)
    case longPress(LongPressRecognizer.Parameters)
    case pinch(TwoFingerTransformRecognizer.Parameters)
    case rotate(TwoFingerTransformRecognizer.Parameters)
    case shape(ShapeRecognizer.Parameters)

    public var kind: GestureKind {
        switch self {
        case .tap: .tap
        case .pan: .pan
        case .circle: .circle
        case .checkmark: .checkmark
        case .tickle: .tickle
        case .swipe: .swipe
        case .longPress: .longPress
        case .pinch: .pinch
        case .rotate: .rotate
        case .shape: .shape
        }
    }

    public static func defaults(for kind: GestureKind) -> RecognizerParameters {
        switch kind {
        case .tap: .tap(.init())
        case .pan: .pan(.init())
        case .circle: .circle(.init())
        case .checkmark: .checkmark(.init())
        case .tickle: .tickle(.init())
        case .swipe: .swipe(.init())
        case .longPress: .longPress(.init())
        case .pinch: .pinch(.init())
        case .rotate: .rotate(.init())
        case .shape: .shape(.init())
        }
    }

    /// A lower and an upper bound of one quantity, by their config keys, with
    /// their values here.
    public struct Bounds: Sendable, Equatable {
        public var lowerKey: String
        public var lower: Double
        public var upperKey: String
        public var upper: Double
    }

    /// Every pair of parameters that bound one quantity from both sides (a key
    /// of the kind's table with `atMost`): when the lower is above the upper,
    /// nothing could ever be recognized.
    public var bounds: [Bounds] {
        struct Pairs: ParameterTableVisitor {
            var bounds: [Bounds] = []
            mutating func visit<P>(_ keys: [ParameterKey<P>], _ p: inout P) {
                for k in keys {
                    guard let upperKey = k.atMost, let upper = keys.first(where: { $0.key == upperKey }),
                        let lo = k.number(in: p), let hi = upper.number(in: p)
                    else { continue }
                    bounds.append(Bounds(lowerKey: k.key, lower: lo, upperKey: upperKey, upper: hi))
                }
            }
        }
        var pairs = Pairs()
        var p = self
        p.visitTable(&pairs)
        return pairs.bounds
    }

    /// The pairs of `bounds` whose lower bound is above their upper one.
    public var crossedBounds: [Bounds] { bounds.filter { $0.lower > $0.upper } }

    public func makeRecognizer() -> any Recognizer { makeRecognizer(sharing: SharedMotion()) }

    /// A recognizer whose per-frame motion, if it follows one (swipe, pan), is
    /// worked out once for all that share `motion` (those of one arena).
    func makeRecognizer(sharing motion: SharedMotion) -> any Recognizer {
        switch self {
        case .tap(let p): TapRecognizer(p)
        case .pan(let p): PanRecognizer(p, sharing: motion)
        case .circle(let p): CircleRecognizer(p)
        case .checkmark(let p): CheckmarkRecognizer(p)
        case .tickle(let p): TickleRecognizer(p)
        case .swipe(let p): SwipeRecognizer(p, sharing: motion)
        case .longPress(let p): LongPressRecognizer(p)
        case .pinch(let p): TwoFingerTransformRecognizer(.pinch, p)
        case .rotate(let p): TwoFingerTransformRecognizer(.rotate, p)
        case .shape(let p): ShapeRecognizer(p)
        }
    }
}

/// One configured recognizer: a name, a kind with its parameters, a filter and
/// its relations to the others (by name).
public struct RecognizerConfig: Sendable, Equatable {
    public var name: String
    public var parameters: RecognizerParameters
    public var filter = RecognizerFilter()
    public var requiresFailureOf: [String] = []
    public var simultaneousWith: [String] = []
    public var canPrevent = true
    public var canBePrevented = true
    /// Its touches are kept from the apps on an exclusive device (`consume`):
    /// a sequence it could take is held back until it fails, and one it takes
    /// never reaches the device's twin.
    public var consume = false

    public init(name: String, parameters: RecognizerParameters) {
        self.name = name
        self.parameters = parameters
    }
    public var kind: GestureKind { parameters.kind }
}

/// How a `[[device]]` rule picks devices.
public struct DeviceMatch: Sendable, Equatable {
    /// Substring of the device name.
    public var name: String?
    /// "vvvv:pppp" in hex.
    public var vendorProduct: String?
    public var syspath: String?
    public init(name: String? = nil, vendorProduct: String? = nil, syspath: String? = nil) {
        self.name = name
        self.vendorProduct = vendorProduct
        self.syspath = syspath
    }

    public func matches(_ d: DeviceDescription, syspath: String? = nil) -> Bool {
        if let name, !d.name.includes(name) { return false }
        if let vendorProduct, vendorProduct.lowercased() != d.vendorProduct { return false }
        if let want = self.syspath, want != syspath { return false }
        return name != nil || vendorProduct != nil || self.syspath != nil
    }
}

/// Per-device settings: size for devices without resolution, rotation, and
/// whether to use the device at all.
public struct DeviceRule: Sendable, Equatable {
    public var match: DeviceMatch
    public var sizeMM: Point?
    public var rotation: Rotation = .none
    /// false: never use this device (deny); true: use it even if udev does not
    /// call it a touchscreen (allow).
    public var use: Bool?
    /// Grab the device and hand the apps a uinput twin of it that gets every
    /// touch no consuming recognizer takes (`exclusive`).
    public var exclusive = false
    /// How long a touch sequence a consuming recognizer could take is held back
    /// from the twin at most (`hold_ms`); after it, the touch goes to the apps as it is.
    public var hold = DeviceRule.defaultHold
    public static let defaultHold = Millis(300)
    public init(match: DeviceMatch) { self.match = match }
}

/// A whole, validated configuration.
public struct Configuration: Sendable, Equatable {
    public var recognizers: [RecognizerConfig]
    public var devices: [DeviceRule]
    /// Where it came from, for messages.
    public var source: String
    /// What is allowed but probably not meant, as "FILE:LINE: message" lines
    /// (a file with no recognizers): the daemon logs them, `gesturectl check`
    /// prints them.
    public var warnings: [String] = []
    /// How long a screen's touches stay ignored after its pen left proximity
    /// (`[pen] release_ms`; libinput's touch arbitration waits 90 ms).
    public var penRelease = TouchArbitration.defaultRelease

    public init(recognizers: [RecognizerConfig], devices: [DeviceRule] = [], source: String = "<built-in>") {
        self.recognizers = recognizers
        self.devices = devices
        self.source = source
    }

    /// The first rule that matches the device, if any.
    public func rule(for d: DeviceDescription, syspath: String? = nil) -> DeviceRule? {
        devices.first { $0.match.matches(d, syspath: syspath) }
    }

    /// The geometry to use for a device: its resolution, else the configured size,
    /// else the fallback (the caller warns when `sizeSource == .fallback`).
    public func geometry(
        for d: DeviceDescription, syspath: String? = nil,
        calibration: [Double] = DeviceGeometry.identity
    ) -> DeviceGeometry? {
        guard let x = d.xAxis, let y = d.yAxis else { return nil }
        let r = rule(for: d, syspath: syspath)
        let hasResolution = x.resolution > 0 && y.resolution > 0
        return DeviceGeometry(
            x: x, y: y, sizeMM: hasResolution ? nil : r?.sizeMM,
            calibration: calibration, rotation: r?.rotation ?? .none)
    }

    /// A fresh arena with every configured recognizer, for one device.
    public func makeArena(device: String) -> Arena {
        let motion = SharedMotion()
        return makeArena(device: device) { $0.parameters.makeRecognizer(sharing: motion) }
    }

    /// A fresh arena of the configured recognizers, filtered and related as
    /// configured, each made by `makeRecognizer` (`makeArena(device:)` makes
    /// them sharing one motion).
    public func makeArena(device: String, makeRecognizer: (RecognizerConfig) -> any Recognizer) -> Arena {
        let arena = Arena(device: device)
        var index: [String: Int] = [:]
        for (i, r) in recognizers.enumerated() { index[r.name] = i }
        for r in recognizers {
            arena.add(
                name: r.name, recognizer: makeRecognizer(r), filter: r.filter,
                relations: Relations(
                    requiresFailureOf: r.requiresFailureOf.compactMap { index[$0] },
                    simultaneousWith: r.simultaneousWith.compactMap { index[$0] },
                    canPrevent: r.canPrevent, canBePrevented: r.canBePrevented))
        }
        arena.consumers = recognizers.indices.filter { recognizers[$0].consume }
        return arena
    }

    /// A problem with the relations between recognizers.
    public struct RelationProblem: Sendable, Equatable {
        public var recognizer: String
        public var key: String
        public var message: String
    }

    /// Unknown names, self-references and require-to-fail cycles.
    public func relationProblems() -> [RelationProblem] {
        var problems: [RelationProblem] = []
        let names = Set(recognizers.map(\.name))
        for r in recognizers {
            for (key, list) in [
                ("requires_failure_of", r.requiresFailureOf), ("simultaneous_with", r.simultaneousWith),
            ] {
                for other in list {
                    if other == r.name {
                        problems.append(.init(recognizer: r.name, key: key, message: "a recognizer cannot name itself"))
                    } else if !names.contains(other) {
                        let known = recognizers.map(\.name).joined(separator: ", ")
                        problems.append(
                            .init(
                                recognizer: r.name, key: key,
                                message: "no recognizer named '\(other)' (known: \(known))"))
                    }
                }
            }
        }
        // Cycles in requires_failure_of: depth-first search with colours.
        var colour: [String: Int] = [:]
        let edges = Dictionary(
            recognizers.map { ($0.name, $0.requiresFailureOf.filter { names.contains($0) }) },
            uniquingKeysWith: { a, _ in a })
        func visit(_ n: String, _ path: [String]) -> [String]? {
            colour[n] = 1
            for m in edges[n] ?? [] {
                if colour[m] == 1 { return path + [n, m] }
                if colour[m] == nil, let c = visit(m, path + [n]) { return c }
            }
            colour[n] = 2
            return nil
        }
        for r in recognizers where colour[r.name] == nil {
            if let cycle = visit(r.name, []) {
                let start = cycle.firstIndex(of: cycle.last!)!
                let loop = cycle[start...].joined(separator: " → ")
                problems.append(
                    .init(
                        recognizer: cycle[cycle.count - 2], key: "requires_failure_of",
                        message: "require-to-fail cycle: \(loop); none of them could ever be recognized"))
                break
            }
        }
        return problems
    }
}
