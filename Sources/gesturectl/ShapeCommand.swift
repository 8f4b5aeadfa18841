import ArgumentParser
import FoundationEssentials
import GestureClient
import GestureConfig
import GestureCore
import GestureLisgd
import GestureTools
import Glibc
import LinuxInput
import LinuxSystem

struct ShapeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shape",
        abstract: "Teach gestured a shape of your own.",
        subcommands: [ShapeRecordCommand.self])
}

struct ShapeRecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record examples of a shape and print the config table that teaches it.",
        discussion: """
            Reads one-finger strokes from the touchscreen (or from recordings with \
            --from), says how consistently they were drawn and which recognizers of \
            the config would also take them, and prints a [recognizer.NAME] table of \
            kind "shape" with the examples in it. With --into FILE the table is added \
            to FILE instead, only if FILE still loads whole with it (a running \
            gestured reloads it on its own).
            """)

    @OptionGroup var config: ConfigOption

    @Argument(help: "The recognizer's name (what its events carry in \"name\").")
    var name: String

    @Option(name: .long, help: "How many examples to take.")
    var count = 3

    @Option(
        name: .long, parsing: .upToNextOption,
        help: ArgumentHelp(
            "Take the strokes from these evemu recordings or $1 stroke files (.xml) instead of the touchscreen.",
            valueName: "RECORDING"),
        completion: .file())
    var from: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The touchscreen to read (default: the first one udev knows).", valueName: "NODE"),
        completion: .file())
    var device: String?

    @Option(
        name: .long,
        help:
            "fixed: as drawn (turned at most \(Int(ShapeMatcher.Options().maxRotationDegrees))°, max_rotation_deg); any: at any angle."
    )
    var orientation = "fixed"

    @Option(name: .long, help: "as_drawn: from the same end; either: from either end.")
    var direction = "as_drawn"

    @Flag(
        name: .long,
        help:
            "Teach examples that are not consistent anyway (max_distance is lowered so that their bound is at most \(ShapeTeaching.hundredth(ShapeTeaching.boundCap)))."
    )
    var force = false

    @Option(
        name: .long,
        help: ArgumentHelp("Add the table to this config file (written whole, or not at all).", valueName: "FILE"),
        completion: .file(extensions: ["toml"]))
    var into: String?

    func validate() throws {
        if let problem = RecognizerNames.problem(name) { throw ValidationError("NAME '\(name)': \(problem)") }
        guard (1...ShapeRecognizer.Parameters.exampleCount.upperBound).contains(count) else {
            throw ValidationError("--count: 1 to \(ShapeRecognizer.Parameters.exampleCount.upperBound) examples")
        }
        guard ShapeMatcher.Orientation(rawValue: orientation) != nil else {
            throw ValidationError("--orientation: fixed or any, not '\(orientation)'")
        }
        guard ShapeMatcher.Direction(rawValue: direction) != nil else {
            throw ValidationError("--direction: as_drawn or either, not '\(direction)'")
        }
        if device != nil && !from.isEmpty {
            throw ValidationError("--device reads the touchscreen and --from reads recordings: give one of them")
        }
    }

    func run() throws {
        // The file --into adds to is read now and held until it is written.
        var intoFile: IntoFile?
        if let into {
            do throws(IntoFile.Refusal) { intoFile = try IntoFile(into) } catch {
                throw CleanExit.message(
                    error.missing
                        ? "gesturectl shape record: --into \(into): no such file. --into adds to a config file that exists (copy the shipped gestured.toml there first: a file with only the shape would have no other recognizer); without --into the table is printed"
                        : "gesturectl shape record: --into \(into): \(error.message); nothing written", code: 1)
            }
        }
        let configPath = into ?? ConfigFile.resolve(explicit: config.config)
        let configuration =
            try intoFile.map { try loadConfig(bytes: $0.bytes, file: $0.path) } ?? loadConfig(path: configPath)
        if configuration.recognizers.contains(where: { $0.name == name }) {
            throw CleanExit.message(
                "gesturectl shape record: \(configuration.source) already has a recognizer named '\(name)'; choose another name",
                code: 1)
        }
        let strokes = try from.isEmpty ? readTouchscreen(configuration) : readRecordings(configuration)
        guard !strokes.isEmpty else {
            throw CleanExit.message("gesturectl shape record: no one-finger stroke to learn from", code: 1)
        }
        let options = ShapeMatcher.Options(
            orientation: ShapeMatcher.Orientation(rawValue: orientation)!,
            direction: ShapeMatcher.Direction(rawValue: direction)!)
        // Everything said of the examples is said of them as the table writes them.
        let examples = strokes.map { ShapeTeaching.asWritten(ShapeTeaching.thinned($0.points)) }

        // How consistent: each example against the closest of the others.
        let loo = ShapeMatcher.consistency(examples: examples, options: options)
        let matcher = ShapeMatcher(examples: examples, options: options)
        let maxDistance = ShapeTeaching.suggestedMaxDistance(spread: matcher.spread)
        for (i, s) in strokes.enumerated() {
            let kept = examples[i].count < s.points.count ? " (\(examples[i].count) kept in the table)" : ""
            var line =
                "example \(i): \(s.points.count) points\(kept), \(ShapeTeaching.tenth(s.lengthMM)) mm, \(Int(s.durationMs)) ms"
            if i < loo.count { line += ", \(ShapeTeaching.hundredth(loo[i])) from the closest other" }
            say(line)
        }
        var consistent = true
        if let worst = loo.filter(\.isFinite).max() {
            consistent = worst <= ShapeRecognizer.Parameters().maxDistance
            let verdict =
                consistent ? "consistent" : "not consistent: draw the odd one again, or teach it as a shape of its own"
            say("consistency: largest distance \(ShapeTeaching.hundredth(worst)): \(verdict)")
        } else if examples.count == 1 {
            say("consistency: one example; three or more make a shape that is taken more reliably")
        }
        if !consistent && !force {
            throw CleanExit.message(
                "gesturectl shape record: the examples are not consistent, nothing taught; draw them again (--force teaches them anyway, their bound capped at \(ShapeTeaching.hundredth(ShapeTeaching.boundCap)))",
                code: 1)
        }
        let bound = matcher.bound(maxDistance: maxDistance)
        say(
            "max_distance \(ShapeTeaching.hundredth(maxDistance)): for examples this far apart a stroke is taken within \(ShapeTeaching.hundredth(bound)) of one"
        )

        // Who else would take these strokes, and which taught shapes they are near.
        let relations = ShapeTeaching.relations(in: configuration)
        var collisions = 0
        var heldBack = 0
        var heldBy: [String] = []
        for (i, s) in strokes.enumerated() {
            let takers = ShapeTeaching.takers(of: s, in: configuration).filter { $0 != name }
            let recognizedBy = takers.filter { n in
                configuration.recognizers.first { $0.name == n }.map { $0.kind != .pan && $0.kind != .longPress }
                    ?? true
            }
            if !recognizedBy.isEmpty {
                collisions += 1
                say("example \(i) is also taken by: \(recognizedBy.joined(separator: ", "))")
            }
            let waitedFor = recognizedBy.filter(relations.requiresFailureOf.contains)
            if !waitedFor.isEmpty { heldBack += 1 }
            for n in waitedFor where !heldBy.contains(n) { heldBy.append(n) }
        }
        for r in configuration.recognizers {
            guard case .shape(let p) = r.parameters else { continue }
            let other = ShapeMatcher(examples: p.examples, options: p.matcherOptions)
            let bound = other.bound(maxDistance: p.maxDistance)
            let near = examples.filter { (other.closest($0)?.distance ?? .infinity) <= bound }.count
            if near > 0 { say("\(near) of the examples would be taken by the taught shape '\(r.name)'") }
        }
        if heldBack == examples.count {
            say(
                "warning: every example is taken by \(heldBy.joined(separator: " or ")), which '\(name)' waits for to fail (requires_failure_of): drawn like this, '\(name)' would never fire; teach a shape \(heldBy.count == 1 ? "it does" : "they do") not take"
            )
        } else if collisions > 0 && !relations.requiresFailureOf.isEmpty {
            say(
                "the new shape waits for \(relations.requiresFailureOf.joined(separator: ", ")) to fail (requires_failure_of): where they take a stroke, it does not; teach another shape if that is not what you want"
            )
        }

        let source = configuration.source
        let table = ShapeTeaching.section(
            name: name, examples: examples, options: options, maxDistance: maxDistance,
            requiresFailureOf: relations.requiresFailureOf, simultaneousWith: relations.simultaneousWith,
            comment: ["Taught by `gesturectl shape record` from \(examples.count) example(s)."])
        guard let into, let intoFile else {
            // The table names the config's recognizers (requires_failure_of,
            // simultaneous_with): it is checked after the config, as --into would add it.
            let base: String
            if let configPath {
                do { base = try readTextFile(configPath, limit: ConfigLoader.maxFileBytes) } catch {
                    throw CleanExit.message("gesturectl shape record: \(error)", code: 1)
                }
            } else {
                base = defaultConfigText
            }
            try checked(ShapeTeaching.appending(table, to: base), file: source)
            print(table, terminator: "")
            if configPath != nil {
                say(
                    "the table above loads after \(source): append it to \(source) to use it, or run again with --into \(source) to have it added"
                )
            } else {
                say(
                    "the table above loads after the built-in config (no config file; see --config): put the shipped gestured.toml in \(ConfigLoader.systemPath) and append the table to it, or add it to a config file with --into FILE"
                )
            }
            return
        }
        let joined = ShapeTeaching.appending(table, to: String(decoding: intoFile.bytes, as: UTF8.self))
        try checked(joined, file: into)
        do throws(IntoFile.Refusal) { try intoFile.replace(with: joined) } catch {
            throw CleanExit.message("gesturectl shape record: \(error.message)", code: 1)
        }
        say("added [recognizer.\(name)] to \(into)\(source == into ? "" : " (\(source) was the config read)")")
    }

    private func checked(_ text: String, file: String) throws {
        do { _ = try ConfigLoader.load(text: text, file: file) } catch {
            throw CleanExit.message(
                "gesturectl shape record: the table would not load, nothing written:\n\(error)", code: 1)
        }
    }

    private func readRecordings(_ configuration: Configuration) throws -> [ShapeTeaching.Stroke] {
        var all: [ShapeTeaching.Stroke] = []
        for path in from {
            let frames: [TouchFrame]
            do { frames = try Explanation.frames(of: path, configuration: configuration) } catch {
                throw CleanExit.message("gesturectl shape record: \(Self.readingProblem(error, path: path))", code: 1)
            }
            let reader = ShapeTeaching.reader(of: frames)
            if reader.skipped > 0 {
                say("\(path): \(reader.skipped) touch(es) skipped: \(ShapeTeaching.summary(of: reader.skips))")
            }
            all += reader.strokes
        }
        if all.count > count {
            say("taking the first \(count) of \(all.count) strokes (--count)")
            all = Array(all.prefix(count))
        } else if !all.isEmpty, all.count < count {
            throw CleanExit.message(
                "gesturectl shape record: the recordings hold \(all.count) one-finger stroke(s), fewer than --count \(count): give more, or --count \(all.count) to teach with these",
                code: 1)
        }
        return all
    }

    /// What went wrong reading `path`, its path said once: shape record has no
    /// --desc, so a recording must describe its device or have a NAME.desc beside it.
    static func readingProblem(_ error: any Error, path: String) -> String {
        var text = "\(error)"
        if !text.hasPrefix(path + ": ") { text = path + ": " + text }
        return text.replacing(
            "; give one with --desc FILE",
            with:
                ": give an evemu recording that has them (as evemu-record writes it), one with its NAME.desc beside it, or a $1 stroke file (.xml)"
        )
    }

    private func readTouchscreen(_ configuration: Configuration) throws -> [ShapeTeaching.Stroke] {
        let path = try device ?? firstTouchscreen(configuration)
        let evdev: EvdevDevice
        do { evdev = try LisgdRunner.openDevice(path, option: "--device") } catch {
            throw CleanExit.message("gesturectl shape record: \(error)", code: 1)
        }
        defer { evdev.close() }
        let (matrix, _) = CalibrationMatrix.of(evdev.node)
        guard
            let geometry = configuration.geometry(
                for: evdev.description, syspath: evdev.node.syspath, calibration: matrix)
        else {
            throw CleanExit.message("gesturectl shape record: \(path): no size known for this touchscreen", code: 1)
        }
        let sink = StrokeSink(
            SlotDecoder(
                device: evdev.description, geometry: geometry,
                initialTrackingIDs: evdev.currentTrackingIDs(), initialToolTypes: evdev.currentToolTypes(),
                initialSlot: evdev.currentSlot()))
        say("reading \(path) (\(evdev.description.name)); Ctrl-C stops")
        while sink.reader.strokes.count < count {
            say("draw '\(name)' with one finger (\(sink.reader.strokes.count + 1) of \(count))")
            let before = sink.reader.strokes.count
            var skipped = sink.reader.skipped
            while sink.reader.strokes.count == before {
                if sink.reader.skipped > skipped {
                    // Said as soon as the touch lifts; the same example is asked for again.
                    skipped = sink.reader.skipped
                    say("not taken: \(sink.reader.skips[skipped - 1]); draw it again")
                }
                var p = pollfd(fd: evdev.fd.rawValue, events: Int16(POLLIN), revents: 0)
                let r = poll(&p, 1, -1)
                if r < 0 && errno == EINTR { continue }
                guard r > 0 else { throw CleanExit.message("gesturectl shape record: poll: \(Errno.current)", code: 1) }
                if case .gone(let e) = evdev.read(into: sink) {
                    throw CleanExit.message("gesturectl shape record: \(path) went away: \(e)", code: 1)
                }
            }
        }
        return sink.reader.strokes
    }

    private func firstTouchscreen(_ configuration: Configuration) throws -> String {
        let reports: [DeviceReport]
        do { reports = try DeviceSurvey.run(configuration: configuration) } catch {
            throw CleanExit.message(
                "gesturectl shape record: cannot list input devices: \(error); give --device", code: 1)
        }
        guard let node = reports.first(where: \.inUse)?.devnode else {
            throw CleanExit.message(
                "gesturectl shape record: no touchscreen found (`gesturectl devices` says why); give --device or --from",
                code: 1)
        }
        return node
    }

    private func say(_ text: String) { writeStandardError(text + "\n") }
}

/// Kernel events → frames → strokes, as the touchscreen is read.
private final class StrokeSink: RawEventSink {
    var decoder: SlotDecoder
    var reader = ShapeTeaching.StrokeReader()
    init(_ decoder: SlotDecoder) { self.decoder = decoder }
    func feed(_ e: RawEvent) {
        if decoder.feed(e) { _ = reader.take(decoder.lastFrame) }
    }
    func beginResync() { decoder.beginResync() }
}
