import ArgumentParser
import CAllocCounter
import Foundation
import GestureConfig
import GestureCore
import GestureDaemon
import GestureTools

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure the hot path: replay recordings through decoder, arena and the socket's serialisation; print the time per kernel event and the heap allocations per frame.",
        discussion: """
            Each recording is replayed once to warm up, then --iterations times without \
            serialisation and --iterations times with every event encoded as the socket's \
            `event` line; then --allocation-iterations times counting heap allocations \
            per frame. A moving frame is one where touches moved and none began or ended; \
            a steady one is a moving frame that decided nothing (it emitted nothing or \
            only `changed`). With --quick (fewer iterations, for CI) the exit status is 1 \
            when a steady frame allocated; timing never fails it.
            """)

    @OptionGroup var config: ConfigOption

    @Option(help: "Timed replays of each recording, per pass (default 200; 20 with --quick).")
    var iterations: Int?

    @Option(help: "Replays counted for allocations, after the warm-up replay.")
    var allocationIterations = 3

    @Flag(help: "Few iterations; exit 1 if a steady moving frame allocated (never on timing).")
    var quick = false

    @Argument(help: "evemu recordings.")
    var recordings: [String]

    func validate() throws {
        if let iterations, iterations < 1 { throw ValidationError("--iterations must be at least 1") }
        if allocationIterations < 0 { throw ValidationError("--allocation-iterations must not be negative") }
    }

    func run() throws {
        let counted = gestured_allocations_counted() != 0
        let r = try Benchmark.run(recordings: recordings, configuration: try config.load(),
                                  iterations: iterations ?? (quick ? 20 : 200),
                                  allocationIterations: allocationIterations,
                                  allocations: counted ? { gestured_allocations() } : nil)
        print(Self.table(r))
        if !counted { print("(allocations not counted: a sanitizer build brings its own malloc)") }
        let t = r.total
        if let first = t.firstAllocatingSteadyFrame {
            let message = "\(t.allocatingSteadyFrames) steady moving frame(s) allocated, \(t.allocationsInSteadyFrames) allocations over \(t.allocationIterations) replays; the first at \(first.time) with \(first.allocations) allocation(s), emitting \(first.emitted)"
            if quick { throw CleanExit.message("gesturectl bench: FAIL: \(message)", code: 1) }
            print("note: \(message)")
        }
    }

    static func table(_ r: Benchmark.Result) -> String {
        func fmt(_ v: Double?, _ d: Int) -> String { v.map { formatFixed($0, decimals: d) } ?? "-" }
        let header = ["recording", "events", "frames", "moving", "steady", "gestures",
                      "ns/event", "ns/event no JSON", "ns/frame", "allocs/frame", "allocs/moving", "allocs/steady"]
        var rows: [[String]] = [header]
        for f in r.recordings + [r.total] {
            rows.append([f.name, String(f.events), String(f.frames), String(f.movingFrames), String(f.steadyFrames),
                         String(f.gestureEvents), fmt(f.nanosecondsPerEvent, 0), fmt(f.nanosecondsPerEventPipelineOnly, 0),
                         fmt(f.nanosecondsPerFrame, 0), fmt(f.allocationsPerFrame, 3), fmt(f.allocationsPerMovingFrame, 3),
                         fmt(f.allocationsPerSteadyFrame, 3)])
        }
        let widths = header.indices.map { c in rows.map { $0[c].count }.max() ?? 0 }
        let lines = rows.map { row in
            row.enumerated().map { c, v in
                c == 0 ? v.padding(toLength: widths[0], withPad: " ", startingAt: 0)
                       : String(repeating: " ", count: widths[c] - v.count) + v
            }.joined(separator: "  ")
        }
        let t = r.total
        return lines.joined(separator: "\n") + "\n"
            + "per recording and replay; \(t.iterations) timed replays per pass (the fastest of 5 rounds counts), \(t.allocationIterations) counted for allocations; "
            + "ns/event includes encoding every emitted event as a socket line (\(t.bytes) bytes per round of all recordings)"
    }
}
