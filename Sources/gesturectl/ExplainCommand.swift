import ArgumentParser
import FoundationEssentials
import GestureConfig
import GestureCore
import GestureTools
import Glibc
import LinuxSystem

struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract:
            "Draw why: each touch's path in mm and, for every recognizer that looked at it, its evidence, decision and reason.",
        discussion: """
            INPUT is an evemu recording or a $1-style stroke file (.xml). The SVG shows the \
            fitted circle (and the ellipse of a circle measured as an oval), its centre and inner box, bounding boxes, the checkmark vertex and \
            arms, tickle reversals and tap radius, with a legend, a 10 mm grid and a scale bar; \
            every decision is printed too. --png needs rsvg-convert (Debian: librsvg2-bin).
            """)

    @OptionGroup var config: ConfigOption

    @Option(name: .long, help: ArgumentHelp("Write the picture as SVG here.", valueName: "FILE"), completion: .file())
    var svg: String?

    @Option(
        name: .long, help: ArgumentHelp("Also write it as PNG here (rsvg-convert).", valueName: "FILE"),
        completion: .file())
    var png: String?

    @Option(name: .customLong("px-per-mm"), help: "Stroke pixels per millimetre for .xml strokes.")
    var pxPerMM: Double = StrokeFrames.defaultPxPerMM

    @OptionGroup var recording: RecordingOptions

    @Argument(help: "A recording (.events/.event) or a stroke (.xml).", completion: .file())
    var input: String

    func validate() throws {
        guard svg != nil || png != nil else { throw ValidationError("give --svg FILE (and/or --png FILE)") }
        guard pxPerMM > 0 else { throw ValidationError("--px-per-mm must be > 0") }
    }

    func run() throws {
        let configuration = try config.load()
        var explanation: Explanation
        do {
            let read = try Explanation.input(
                of: input, configuration: configuration, pxPerMM: pxPerMM, pen: recording.pen, desc: recording.desc)
            let name = input.split(separator: "/").suffix(3).joined(separator: "/")
            explanation = Explanation(
                title: "\(name) — config \(configuration.source)", frames: read.frames,
                configuration: configuration)
            explanation.setAside = read.setAside
        } catch {
            throw CleanExit.message("gesturectl explain: \(error)", code: 1)
        }
        let text = explanation.svg()
        if let svg {
            // Written in place (a path may name /dev/stdout or a link), every
            // byte or an error.
            let fd = open(svg, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                throw CleanExit.message("gesturectl explain: cannot write \(svg): \(Errno.current)", code: 1)
            }
            defer { close(fd) }
            do throws(Errno) { try FileDescriptor(rawValue: fd).writeAll(text) } catch {
                throw CleanExit.message("gesturectl explain: cannot write \(svg): \(error)", code: 1)
            }
        }
        do {
            if let png { try PNGRenderer.render(svg: text, to: png) }
        } catch {
            throw CleanExit.message("gesturectl explain: \(error)", code: 1)
        }
        var out = ""
        for d in explanation.decisions {
            // As the picture says it: the reason, or what was recognized (a
            // shape's closest example and distance, a circle's radius…).
            out += "\(d.name) (\(d.kind.rawValue)): \(d.state.rawValue)"
            if let r = d.reason { out += " — \(r)" } else if let s = Explanation.summary(d) { out += " — \(s)" }
            out += "\n"
        }
        for t in explanation.setAside { out += Explanation.line(t) + "\n" }
        writeStandardOutput(out)
    }
}
