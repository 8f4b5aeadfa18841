import ArgumentParser
import FoundationEssentials
import GestureConfig
import GestureCore
import GestureTools

struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract:
            "Measure accuracy: run labelled strokes and recordings through the real arena; print recall and false accepts per recognizer.",
        discussion: """
            CORPUS is any mix of $1-style stroke files (<Gesture><Point X= Y= T=/>…, labelled by file \
            name: circle07.xml is a circle), evemu recordings (labelled by a RECORDING.label sidecar \
            or a class word in the name: finger-circle-fast.events) and directories of them. Circles \
            are also run mirrored left-right, for the other direction, and count toward circle recall.
            """)

    @OptionGroup var config: ConfigOption

    @Option(name: .customLong("px-per-mm"), help: "Stroke pixels per millimetre (the $1 logs: 4.5).")
    var pxPerMM: Double = StrokeFrames.defaultPxPerMM

    @Flag(name: .long, help: "Print the report as JSON.")
    var json = false

    @Flag(
        name: .long,
        help:
            "List every missed and falsely accepted input with its reason (and, leaving one subject out, those of each subject left out)."
    )
    var details = false

    @Option(
        name: .long,
        help: ArgumentHelp("Add Gaussian jitter of this standard deviation to every stroke point.", valueName: "MM"))
    var jitter: Double = 0

    @Option(
        name: .long,
        help: ArgumentHelp("Add a hook this long at both ends of every stroke, in a random direction.", valueName: "MM")
    )
    var hook: Double = 0

    @Option(name: .long, help: "Seed for --jitter and --hook.")
    var seed: UInt64 = 1

    @Flag(name: .customLong("no-mirror"), help: "Do not add mirrored circles.")
    var noMirror = false

    @Flag(
        name: .customLong("leave-one-subject-out"),
        help:
            "Also tune the main circle and checkmark parameters on all subjects but one and report on that one, for each subject."
    )
    var leaveOneSubjectOut = false

    @Option(
        name: .customLong("loso-budget"),
        help: ArgumentHelp(
            "False accepts allowed on the training subjects when choosing, in percent.", valueName: "PERCENT"))
    var losoBudget: Double = LeaveOneSubjectOut.defaultFalseAcceptBudget * 100

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Measure a shape taught by example instead: the $1 paper's user-dependent protocol with rejection, with the options of the config's first shape recognizer.",
            discussion: "")
    )
    var templates = false

    @Option(
        name: .long,
        help: ArgumentHelp("With --templates: examples drawn per subject and class.", valueName: "N,N,…"))
    var examples = "1,3,5"

    @Option(name: .long, help: "With --templates: random draws of the examples per subject and class (from --seed).")
    var draws = 10

    @Argument(help: "Stroke files, recordings, directories.", completion: .file())
    var corpus: [String]

    func validate() throws {
        guard pxPerMM > 0 else { throw ValidationError("--px-per-mm must be > 0") }
        guard jitter >= 0, hook >= 0 else { throw ValidationError("--jitter and --hook are lengths in mm, ≥ 0") }
        guard (1...100).contains(draws) else { throw ValidationError("--draws must be 1 to 100") }
        guard let counts = exampleCounts, !counts.isEmpty, counts.allSatisfy({ (1...20).contains($0) }) else {
            throw ValidationError("--examples must be a comma-separated list of counts from 1 to 20")
        }
        if templates && details {
            throw ValidationError(
                "--details goes without --templates: the template protocol reports per subject and class, over random draws of the examples, not per stroke"
            )
        }
    }

    var exampleCounts: [Int]? {
        let parts = examples.split(separator: ",").map { Int($0.trimmingSpaces()) }
        guard !parts.contains(nil) else { return nil }
        var seen: Set<Int> = []
        return parts.compactMap { $0 }.filter { seen.insert($0).inserted }
    }

    /// The template protocol with the options of the config's first shape, else the defaults.
    func runTemplates(_ configuration: Configuration, _ items: [CorpusItem]) throws {
        var parameters = ShapeRecognizer.Parameters()
        var from = "the shape defaults"
        for r in configuration.recognizers {
            if case .shape(let p) = r.parameters {
                parameters = p
                from = "\(r.name) in \(configuration.source)"
                break
            }
        }
        let counts = exampleCounts ?? [1, 3, 5]
        // Per subject, the strokes of each class: the protocol draws examples
        // from one class and tests on the rest of it and on the other classes.
        var classes: [String: [String: Int]] = [:]
        for item in items where !item.mirrored {
            if case .stroke = item.input { classes[item.subject, default: [:]][item.label, default: 0] += 1 }
        }
        let fewest = counts.min() ?? 1
        guard classes.values.contains(where: { $0.count >= 2 && $0.values.contains { $0 > fewest } }) else {
            throw CleanExit.message(
                "gesturectl evaluate --templates: \(corpus.joined(separator: " ")) has no subject with more than \(fewest) stroke(s) of one class and strokes of another: the template protocol needs $1-style stroke files (.xml) of several classes from each subject (the Subject attribute, or a folder sNN)",
                code: 1)
        }
        let report = TemplateProtocol.run(
            items: items, parameters: parameters, pxPerMM: pxPerMM, exampleCounts: counts, draws: draws, seed: seed,
            losoExamples: counts.contains(3) ? 3 : counts[0], falseAcceptBudget: losoBudget / 100)
        let out = json ? try report.json() + "\n" : "options from \(from)\n" + report.text()
        writeStandardOutput(out)
    }

    func run() throws {
        let configuration = try config.load()
        var items: [CorpusItem]
        let perturbation = Perturbation(jitterMM: jitter, hookMM: hook, seed: seed)
        do {
            items = try Corpus.load(corpus, mirrorCircles: !noMirror && !templates) { warning in
                writeStandardError(warning + "\n")
            }
            items = Corpus.perturbed(items, perturbation, pxPerMM: pxPerMM)
        } catch {
            throw CleanExit.message("gesturectl evaluate: \(error)", code: 1)
        }
        guard !items.isEmpty else {
            throw CleanExit.message(
                "gesturectl evaluate: no labelled inputs in \(corpus.joined(separator: " "))", code: 1)
        }
        if templates {
            try runTemplates(configuration, items)
            return
        }
        let evaluator = Evaluator(configuration: configuration, pxPerMM: pxPerMM)
        let outcomes: [Outcome]
        do { outcomes = try evaluator.outcomes(of: items) } catch {
            throw CleanExit.message("gesturectl evaluate: \(error)", code: 1)
        }
        let report = AccuracyReport(items: items, outcomes: outcomes, configuration: configuration)
        var out =
            json
            ? try report.json() + "\n"
            : "config: \(configuration.source)\n"
                + (perturbation.isNone ? "" : "strokes perturbed: \(perturbation.description)\n")
                + report.text(details: details)
        if leaveOneSubjectOut {
            let loso = LeaveOneSubjectOut.run(
                items: items, configuration: configuration, pxPerMM: pxPerMM,
                falseAcceptBudget: losoBudget / 100)
            out += json ? try loso.json() + "\n" : "\n" + loso.text(details: details)
        }
        writeStandardOutput(out)
    }
}
