import ArgumentParser
import Foundation
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

    @Flag(name: .long, help: "List every missed and falsely accepted input with its reason.")
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

    @Argument(help: "Stroke files, recordings, directories.", completion: .file())
    var corpus: [String]

    func validate() throws {
        guard pxPerMM > 0 else { throw ValidationError("--px-per-mm must be > 0") }
        guard jitter >= 0, hook >= 0 else { throw ValidationError("--jitter and --hook are lengths in mm, ≥ 0") }
    }

    func run() throws {
        let configuration = try config.load()
        var items: [CorpusItem]
        let perturbation = Perturbation(jitterMM: jitter, hookMM: hook, seed: seed)
        do {
            items = try Corpus.load(corpus, mirrorCircles: !noMirror) { warning in
                FileHandle.standardError.write(Data((warning + "\n").utf8))
            }
            items = Corpus.perturbed(items, perturbation, pxPerMM: pxPerMM)
        } catch {
            throw CleanExit.message("gesturectl evaluate: \(error)", code: 1)
        }
        guard !items.isEmpty else {
            throw CleanExit.message(
                "gesturectl evaluate: no labelled inputs in \(corpus.joined(separator: " "))", code: 1)
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
            out += json ? try loso.json() + "\n" : "\n" + loso.text()
        }
        FileHandle.standardOutput.write(Data(out.utf8))
    }
}
