import GestureConfig
import GestureCore

/// lisgd's bindings as gestured recognizers: the text of a gestured.toml (loaded
/// with `ConfigLoader`, so that what `--print-config` shows is what runs), an
/// actions.toml for `gesturectl actions`, and which binding each recognizer's
/// events run.
///
/// - A released binding is a swipe recognizer: its fingers, its one direction,
///   its edge judged at the start or the end of the stroke (`edge_at =
///   "start_or_end"`, lisgd's 50 px × `-s` as `edge_mm`), `-t` as
///   `min_distance_mm`, its distance class as `min_length`, `-r` as
///   `max_angle_deg`, `-m` as `max_duration_ms`, and no speed or straightness
///   requirement (lisgd has none).
/// - Pressed bindings are pan sliders: one per fingers + edge + axis, `-T` as
///   `step_mm`, each binding run by the steps of its sign (right and down +1).
/// - Recognizers are listed in argument order, a slider where its first binding
///   is: when several decide in the same frame the first listed wins, as the
///   first matching binding does in lisgd.
///
/// lisgd's pixels are the screen's (`-w`, `-h`), spread over the touchscreen's
/// extent; without `-w`/`-h` the touchscreen's own axis ranges stand in for the
/// screen, one pixel per device unit.
public struct LisgdTranslation: Sendable {
    /// What a recognizer's events run.
    public enum Route: Sendable, Equatable {
        /// A swipe: its binding, when recognized.
        case swipe(LisgdBinding)
        /// A slider: the binding of each step sign (+1 right/down, −1 left/up).
        case slider(plus: LisgdBinding?, minus: LisgdBinding?)
    }

    public var gesturedTOML: String
    public var actionsTOML: String
    /// Recognizer names in config order, with what each runs.
    public var routes: [(name: String, route: Route)] {
        didSet { routeIndex = Self.index(of: routes) }
    }
    /// Each recognizer's place in `routes`, by name: an event's route is found
    /// with one hash, not by comparing names down the list.
    private var routeIndex: [String: Int] = [:]
    /// Where the translation differs from lisgd or guesses (for stderr and for
    /// comments in the printed config).
    public var notes: [String]
    /// Millimetres per lisgd pixel.
    public var mmPerPx: Double

    /// The route of a recognizer by name.
    public func route(named name: String) -> Route? { routeIndex[name].map { routes[$0].route } }

    private static func index(of routes: [(name: String, route: Route)]) -> [String: Int] {
        var index: [String: Int] = [:]
        // The first of a name, as a search down the list would find it.
        for (i, r) in routes.enumerated().reversed() { index[r.name] = i }
        return index
    }

    /// Binding names read as lisgd's: b05_1_LR_B_L is the fifth -g.
    static func name(of b: LisgdBinding, width: Int) -> String {
        let n = String(b.number)
        return "b" + String(repeating: "0", count: max(0, width - n.count)) + n
            + "_\(b.fingers)_\(b.swipe.rawValue)_\(b.edge.label)_\(b.distance.label)"
    }

    static func sliderName(fingers: Int, edge: LisgdEdge, axis: String) -> String {
        "slider_\(fingers)_\(edge.label)_\(axis)"
    }

    public init(options o: LisgdOptions, device: DeviceDescription, arguments: [String]) throws(LisgdError) {
        guard let xAxis = device.xAxis, let yAxis = device.yAxis, xAxis.isUsable, yAxis.isUsable else {
            throw LisgdError("'\(device.name)' has no usable X/Y axes; it is not a touchscreen")
        }
        var notes: [String] = []
        let m = Measures.of(o, device: device, xAxis: xAxis, yAxis: yAxis, notes: &notes)
        let plan = Plan(o, notes: &notes)
        var toml = Self.configHeader(o, device: device, arguments: arguments, measures: m, notes: notes)
        var actions = Self.actionsHeader(arguments: arguments)
        var routes: [(name: String, route: Route)] = []
        let width = String(o.bindings.count).count
        for entry in plan.entries {
            switch entry {
            case .swipe(let b, let note):
                let name = Self.name(of: b, width: width)
                Self.writeSwipe(b, note: note, name: name, measures: m, plan: plan, toml: &toml, actions: &actions)
                routes.append((name, .swipe(b)))
            case .slider(let name):
                let s = plan.sliders[name]!
                Self.writeSlider(s, measures: m, toml: &toml, actions: &actions)
                routes.append((name, .slider(plus: s.plus, minus: s.minus)))
            }
        }
        // Long commands can make the files larger than gestured reads: said here,
        // as a problem with the command line, not found when the config is loaded.
        for (text, what) in [(toml, "gestured.toml"), (actions, "actions.toml")]
        where text.utf8.count > ConfigLoader.maxFileBytes {
            throw LisgdError(
                "the \(o.bindings.count) bindings make a \(what) of \(text.utf8.count) bytes, more than the \(ConfigLoader.maxFileBytes) bytes (1 MiB) gestured reads; give fewer bindings or shorter commands (a long command can live in a script)"
            )
        }
        gesturedTOML = toml
        actionsTOML = actions
        self.routes = routes
        routeIndex = Self.index(of: routes)
        self.notes = notes
        mmPerPx = m.scale
    }

    /// lisgd's pixels, angles and times in gestured's millimetres, degrees and
    /// milliseconds, clamped to what gestured allows; a note for each guess and
    /// each value that had to change.
    private struct Measures {
        var geometry: DeviceGeometry
        /// The touchscreen's extent in device units (lisgd's axis range, max − min + 1).
        var unitsX: Double, unitsY: Double
        /// Millimetres per lisgd pixel.
        var scale: Double
        var edgeMM: Double
        var minDistanceMM: Double
        var stepMM: Double
        var durationMS: Int
        var straightAngle: Double
        var diagonalAngle: Double
        /// Whether any binding is diagonal, and the turned screen's size in mm (for `cornerFreeRange`).
        var diagonals: Bool
        var screen: Point

        /// The measures of `o` on this device, and a note for each guess and change.
        static func of(
            _ o: LisgdOptions, device: DeviceDescription, xAxis: AxisInfo, yAxis: AxisInfo,
            notes: inout [String]
        ) -> Measures {
            let geometry = DeviceGeometry(x: xAxis, y: yAxis)
            if geometry.sizeSource == .fallback {
                notes.append(
                    "'\(device.name)' reports no resolution: its size is taken as \(formatFixed(geometry.sizeMM.x, decimals: 0)) × \(formatFixed(geometry.sizeMM.y, decimals: 0)) mm, so lisgd's pixels are guessed too"
                )
            }
            // lisgd maps the axis range (max − min + 1 units) onto the screen's pixels.
            let unitsX = Double(xAxis.span + 1), unitsY = Double(yAxis.span + 1)
            let widthPx = Double(o.screenWidthPx ?? Int(unitsX)), heightPx = Double(o.screenHeightPx ?? Int(unitsY))
            let mmPerUnitX = geometry.sizeMM.x / Double(xAxis.span), mmPerUnitY = geometry.sizeMM.y / Double(yAxis.span)
            let scaleX = mmPerUnitX * unitsX / widthPx, scaleY = mmPerUnitY * unitsY / heightPx
            let scale = (scaleX + scaleY) / 2
            if abs(scaleX - scaleY) > 0.1 * scale {
                notes.append(
                    "a pixel is \(formatFixed(scaleX, decimals: 3)) mm wide and \(formatFixed(scaleY, decimals: 3)) mm high (-w/-h do not have the panel's proportions); lisgd's distances use the mean, \(formatFixed(scale, decimals: 3)) mm"
                )
            }
            if o.screenWidthPx == nil {
                let perMM = 1 / scale
                if perMM < 3 || perMM > 30 {
                    notes.append(
                        "'\(device.name)' has \(formatFixed(perMM, decimals: 1)) units per mm, far from a phone screen's 10–16 pixels per mm: lisgd's -t \(o.distanceThresholdPx), -T \(o.pressedThresholdPx) and 50-pixel edges become \(formatFixed(Double(o.distanceThresholdPx) * scale, decimals: 1)), \(formatFixed(Double(o.pressedThresholdPx) * scale, decimals: 1)) and \(formatFixed(50 * o.edgeScale * scale, decimals: 1)) mm; give -w and -h (the screen in pixels) to keep lisgd's sizes"
                    )
                }
            }
            var edgeMM = max(0.1, 50 * o.edgeScale * scale)
            if edgeMM > 100 {
                notes.append(
                    "-s \(formatFixed(o.edgeScale, decimals: 2)): edges of \(formatFixed(edgeMM, decimals: 1)) mm are taken as 100 mm, the most gestured allows"
                )
                edgeMM = 100
            }
            if o.pressedThresholdPx > o.distanceThresholdPx && o.bindings.contains(where: { $0.mode == .pressed }) {
                notes.append(
                    "-T \(o.pressedThresholdPx) is above -t \(o.distanceThresholdPx): lisgd also fires a pressed binding at the lift for a stroke between the two; gestured's sliders fire only every -T pixels"
                )
            }
            let minDistanceMM = min(1000, max(1, Double(o.distanceThresholdPx) * scale))
            let stepMM = min(1000, max(0.5, Double(o.pressedThresholdPx) * scale))
            let durationMS = max(50, o.timeoutMS)
            if durationMS != o.timeoutMS {
                notes.append(
                    "-m \(o.timeoutMS): a swipe may last at most \(durationMS) ms here, the least gestured allows")
            }
            let straightAngle = min(45, max(1, Double(o.leniencyDegrees)))
            let diagonalAngle = min(22.5, max(1, Double(o.leniencyDegrees)))
            if o.leniencyDegrees < 1 {
                notes.append(
                    "-r 0: a stroke may be up to 1° off its direction here (lisgd's -r 0 asks for an exact angle)")
            }
            if o.leniencyDegrees > 22 && o.bindings.contains(where: { $0.swipe.isDiagonal }) {
                notes.append(
                    "-r \(o.leniencyDegrees): diagonal bindings take at most 22.5°; lisgd's overlapping sectors (its order: up, up-right, right, …) are not copied"
                )
            }
            return Measures(
                geometry: geometry, unitsX: unitsX, unitsY: unitsY, scale: scale, edgeMM: edgeMM,
                minDistanceMM: minDistanceMM, stepMM: stepMM, durationMS: durationMS,
                straightAngle: straightAngle, diagonalAngle: diagonalAngle,
                diagonals: o.bindings.contains { $0.swipe.isDiagonal },
                screen: DeviceGeometry(x: xAxis, y: yAxis, rotation: o.rotation).orientedSizeMM)
        }

        // A stroke at 45° out of a corner moves as far along a slider's axis as
        // across it, so the slider could take it; lisgd's pressed mode wants the
        // stroke within -r of the axis and leaves it to the diagonal binding.
        // With diagonal bindings, sliders do not start in a corner.
        func cornerFreeRange(_ edge: LisgdEdge) -> ClosedRange<Double>? {
            guard diagonals else { return nil }
            let extent: Double
            switch edge {
            case .L, .R: extent = screen.y
            case .T, .B: extent = screen.x
            default: return nil
            }
            let f = edgeMM / extent
            return f < 0.5 ? f...(1 - f) : nil
        }
    }

    /// The bindings in argument order as recognizers: a swipe per released
    /// binding (and per pressed one gestured cannot slide), and one slider per
    /// fingers + edge + axis for the pressed ones, where its first binding is.
    private struct Plan {
        struct Slider {
            var name: String
            var fingers: Int
            var edge: LisgdEdge
            var axis: String
            var plus: LisgdBinding?
            var minus: LisgdBinding?
        }
        enum Entry { case swipe(LisgdBinding, note: String?), slider(String) }
        var sliders: [String: Slider] = [:]
        var entries: [Entry] = []

        init(_ o: LisgdOptions, notes: inout [String]) {
            for b in o.bindings {
                guard b.mode == .pressed else {
                    entries.append(.swipe(b, note: nil))
                    continue
                }
                if b.distance != .any {
                    // lisgd matches a pressed stroke only against bindings of distance *,
                    // so this one can fire only as a released stroke does.
                    entries.append(
                        .swipe(
                            b,
                            note:
                                "pressed with distance \(b.distance.rawValue): lisgd fires it only at the lift, as a released binding"
                        ))
                    continue
                }
                guard let (axis, step) = b.swipe.slider else {
                    let note =
                        "pressed diagonal: gestured's sliders move along x or y, so this fires once at the lift (lisgd repeats it every -T pixels)"
                    notes.append("-g '\(b.text)': \(note)")
                    entries.append(.swipe(b, note: note))
                    continue
                }
                let name = LisgdTranslation.sliderName(fingers: b.fingers, edge: b.edge, axis: axis)
                var s = sliders[name] ?? Slider(name: name, fingers: b.fingers, edge: b.edge, axis: axis)
                if sliders[name] == nil { entries.append(.slider(name)) }
                if step > 0 {
                    if let earlier = s.plus {
                        notes.append(
                            "-g '\(b.text)' never fires: binding \(earlier.number) comes first with the same stroke")
                    } else {
                        s.plus = b
                    }
                } else {
                    if let earlier = s.minus {
                        notes.append(
                            "-g '\(b.text)' never fires: binding \(earlier.number) comes first with the same stroke")
                    } else {
                        s.minus = b
                    }
                }
                sliders[name] = s
            }
        }

        // Released swipes that a slider on their edge must not exclude: those in
        // the slider's axis direction that it has no binding for (lisgd's
        // pressed mode ignores that direction, so the released binding fires).
        func unboundSliders(for b: LisgdBinding) -> [String] {
            guard let (axis, step) = b.swipe.slider else { return [] }
            return sliders.values.filter { s in
                s.axis == axis && s.fingers == b.fingers && (step > 0 ? s.plus == nil : s.minus == nil)
            }.map(\.name).sorted()
        }
    }

    /// The gestured.toml's opening comments: the command line, the device, the
    /// measures in mm, the notes, and the rotation for `-o`.
    private static func configHeader(
        _ o: LisgdOptions, device: DeviceDescription, arguments: [String],
        measures m: Measures, notes: [String]
    ) -> String {
        var toml = """
            # gestured.toml equivalent of lisgd's bindings, from `gesturectl lisgd --print-config`:
            #   \(commentSafe(shellWords(["lisgd"] + arguments)))
            # Device: '\(commentSafe(device.name))', \(formatFixed(m.geometry.sizeMM.x, decimals: 1)) × \(formatFixed(m.geometry.sizeMM.y, decimals: 1)) mm; \
            a lisgd pixel is \(formatFixed(m.scale, decimals: 4)) mm (\(o.screenWidthPx.map { "-w \($0) -h \(o.screenHeightPx ?? 0)" } ?? "the touchscreen's \(Int(m.unitsX)) × \(Int(m.unitsY)) units stand in for the screen")).
            # -t \(o.distanceThresholdPx) px = \(formatFixed(m.minDistanceMM, decimals: 2)) mm, -T \(o.pressedThresholdPx) px = \(formatFixed(m.stepMM, decimals: 2)) mm, \
            edges 50 px × \(formatFixed(o.edgeScale, decimals: 2)) = \(formatFixed(m.edgeMM, decimals: 2)) mm, -r \(o.leniencyDegrees)°, -m \(o.timeoutMS) ms.
            # Listed in argument order: when several recognize in the same frame, the first listed wins.

            """
        for n in notes { toml += "# note: \(commentSafe(n))\n" }
        if o.rotation != .none {
            toml += """

                # -o \(o.orientation): the screen is turned; gestured turns the touches, so bindings keep their names.
                [[device]]
                match = \(tomlQuoted(device.name))
                rotation = \(o.rotation.rawValue)

                """
        }
        return toml
    }

    /// The actions.toml's opening comments.
    private static func actionsHeader(arguments: [String]) -> String {
        """
        # actions.toml for `gesturectl actions`, from `gesturectl lisgd --print-config`:
        #   \(commentSafe(shellWords(["lisgd"] + arguments)))
        # Sliders run one command per step; $GESTURE_STEP is 1 (right or down) or -1 (left or up).

        """
    }

    /// A swipe recognizer and its action.
    private static func writeSwipe(
        _ b: LisgdBinding, note: String?, name: String, measures m: Measures, plan: Plan,
        toml: inout String, actions: inout String
    ) {
        toml += "\n# -g '\(commentSafe(b.text))'\n"
        if let note { toml += "# note: \(commentSafe(note))\n" }
        toml += "[recognizer.\(name)]\nkind = \"swipe\"\nfingers = \(b.fingers)\n"
        toml += "directions = [\"\(b.swipe.direction)\"]\n"
        if let edge = b.edge.gesturedEdge {
            toml += "edge = \"\(edge)\"\nedge_mm = \(formatFixed(m.edgeMM, decimals: 2))\nedge_at = \"start_or_end\"\n"
        }
        toml += "min_distance_mm = \(formatFixed(m.minDistanceMM, decimals: 2))\n"
        if b.distance.minLength > 0 { toml += "min_length = \(formatFixed(b.distance.minLength, decimals: 2))\n" }
        toml += "max_angle_deg = \(formatFixed(b.swipe.isDiagonal ? m.diagonalAngle : m.straightAngle, decimals: 1))\n"
        toml += "max_duration_ms = \(m.durationMS)\nmin_speed_mm_s = 0\nmin_straightness = 0\n"
        let free = plan.unboundSliders(for: b)
        if !free.isEmpty { toml += "simultaneous_with = [\(free.map { "\"\($0)\"" }.joined(separator: ", "))]\n" }
        actions += "\n[[action]]\nname = \(tomlQuoted(name))\nexec = \(tomlQuoted(b.command))\n"
    }

    /// A slider (a pan along one axis) and its action, which runs the binding of the step's sign.
    private static func writeSlider(_ s: Plan.Slider, measures m: Measures, toml: inout String, actions: inout String) {
        toml += "\n"
        for b in [s.minus, s.plus].compactMap({ $0 }).sorted(by: { $0.number < $1.number }) {
            toml += "# -g '\(commentSafe(b.text))'\n"
        }
        toml += "[recognizer.\(s.name)]\nkind = \"pan\"\nmin_fingers = \(s.fingers)\nmax_fingers = \(s.fingers)\n"
        toml += "step_mm = \(formatFixed(m.stepMM, decimals: 2))\naxis = \"\(s.axis)\"\n"
        if let edge = s.edge.gesturedEdge {
            toml += "edge = \"\(edge)\"\nedge_mm = \(formatFixed(m.edgeMM, decimals: 2))\n"
            if let range = m.cornerFreeRange(s.edge) {
                toml +=
                    "edge_range = [\(formatFixed(range.lowerBound, decimals: 4)), \(formatFixed(range.upperBound, decimals: 4))]   # not from a corner: a diagonal stroke from there is not a slide\n"
            }
        }
        var cases: [String] = []
        if let b = s.minus { cases.append("-1) eval \(shellQuoted(b.command)) ;;") }
        if let b = s.plus { cases.append("1) eval \(shellQuoted(b.command)) ;;") }
        let exec = "case \"$GESTURE_STEP\" in \(cases.joined(separator: " ")) esac"
        actions += "\n[[action]]\nname = \(tomlQuoted(s.name))\nexec = \(tomlQuoted(exec))\n"
    }

    /// The translated configuration, as the daemon would load it.
    public func configuration(file: String = "<gesturectl lisgd>") throws(ConfigErrors) -> Configuration {
        try ConfigLoader.load(text: gesturedTOML, file: file)
    }

    /// The binding an event runs, if any: a recognized swipe, or a slider's
    /// began or changed with the step of a bound sign.
    public func binding(for e: GestureEvent) -> LisgdBinding? {
        // Most events are failures (every recognizer that did not take a stroke
        // says so): they run nothing, whatever their route.
        switch e.state {
        case .recognized, .began, .changed: break
        case .possible, .ended, .cancelled, .failed: return nil
        }
        guard let route = route(named: e.name) else { return nil }
        switch route {
        case .swipe(let b):
            return e.state == .recognized ? b : nil
        case .slider(let plus, let minus):
            guard e.state == .began || e.state == .changed, let step = e.step else { return nil }
            return step > 0 ? plus : minus
        }
    }
}

/// A word for /bin/sh: single-quoted unless plain.
public func shellQuoted(_ s: String) -> String {
    let plain =
        !s.isEmpty
        && s.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)
                || c == 0x2d || c == 0x5f || c == 0x2e || c == 0x2f || c == 0x3a || c == 0x2c || c == 0x3d || c == 0x2b
        }
    if plain { return s }
    var out = "'"
    for c in s { if c == "'" { out += "'\\''" } else { out.append(c) } }
    return out + "'"
}

func shellWords(_ words: [String]) -> String { words.map(shellQuoted).joined(separator: " ") }

/// Outside text (a command, a device's name) as it may stand in a TOML comment:
/// a line break or other control character would end the comment and be read
/// as TOML, so each is written as `\u{…}`.
func commentSafe(_ s: String) -> String {
    var out = ""
    for u in s.unicodeScalars {
        if u.value < 0x20 || u.value == 0x7f || u.value == 0x2028 || u.value == 0x2029 {
            out += "\\u{\(String(u.value, radix: 16))}"
        } else {
            out.unicodeScalars.append(u)
        }
    }
    return out
}
