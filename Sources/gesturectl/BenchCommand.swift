import ArgumentParser
import CAllocCounter
import FoundationEssentials
import GestureConfig
import GestureCore
import GestureDaemon
import GestureTools

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract:
            "Measure the hot path: replay recordings through decoder, arena and the socket's serialisation; print the time per kernel event and the heap allocations per frame.",
        discussion: """
            Each recording is replayed once to warm up, then --iterations times without \
            serialisation and --iterations times with every event encoded as the socket's \
            `event` line; then --allocation-iterations times counting heap allocations \
            per frame. Then the same through the daemon's own turns: its core handed one \
            frame per read, publishing through the socket server to --subscribers clients \
            on a Unix socket in this process. A moving frame is one where touches moved \
            and none began or ended; a steady one is a moving frame that decided nothing \
            (it emitted nothing or only `changed`). With --quick (fewer iterations, for \
            CI) the exit status is 1 when a steady frame allocated; timing never fails it.
            """)

    @OptionGroup var config: ConfigOption

    @Option(help: "Timed replays of each recording, per pass (default 200; 20 with --quick).")
    var iterations: Int?

    @Option(help: "Replays counted for allocations, after the warm-up replay.")
    var allocationIterations = 3

    @Option(help: "Subscribers of the daemon's turns (0: the daemon's core alone).")
    var subscribers = 10

    @Flag(help: "Few iterations; exit 1 if a steady moving frame allocated (never on timing).")
    var quick = false

    @Argument(help: "evemu recordings.")
    var recordings: [String]

    func validate() throws {
        if let iterations, iterations < 1 { throw ValidationError("--iterations must be at least 1") }
        if allocationIterations < 0 { throw ValidationError("--allocation-iterations must not be negative") }
        if !(0...100).contains(subscribers) { throw ValidationError("--subscribers must be 0…100") }
    }

    func run() throws {
        let counted = gestured_allocations_counted() != 0
        let r = try Benchmark.run(
            recordings: recordings, configuration: try config.load(),
            iterations: iterations ?? (quick ? 20 : 200),
            allocationIterations: allocationIterations, subscribers: subscribers,
            allocations: counted ? { gestured_allocations() } : nil)
        print(Self.report(r))
        if !counted { print("(allocations not counted: a sanitizer build brings its own malloc)") }
        var failures: [String] = []
        for (what, a) in [("pipeline", r.total.allocations), ("daemon's turns", r.total.daemonAllocations)] {
            guard let a, let first = a.firstAllocatingSteadyFrame else { continue }
            failures.append(
                "\(what): \(a.allocatingSteadyFrames) steady moving frame(s) allocated, \(a.inSteadyFrames) allocations over \(a.replays) replays; the first at \(first.time) with \(first.allocations), emitting \(first.emitted)"
            )
        }
        if failures.isEmpty { return }
        if quick { throw CleanExit.message("gesturectl bench: FAIL: " + failures.joined(separator: "; "), code: 1) }
        for f in failures { print("note: \(f)") }
    }

    static func report(_ r: Benchmark.Result) -> String {
        func fmt(_ v: Double?, _ d: Int) -> String { v.map { formatFixed($0, decimals: d) } ?? "-" }
        let all = r.recordings + [r.total]
        var out = table(
            [
                "recording", "events", "frames", "moving", "steady", "gestures", "ns/event", "ns/event no JSON",
                "ns/frame",
                "allocs/frame", "allocs/moving", "allocs/steady",
            ],
            all.map { f in
                let a = f.perFrame(f.allocations)
                return [
                    f.name, String(f.events), String(f.frames), String(f.movingFrames), String(f.steadyFrames),
                    String(f.gestureEvents), fmt(f.nanosecondsPerEvent, 0), fmt(f.nanosecondsPerEventPipelineOnly, 0),
                    fmt(f.nanosecondsPerFrame, 0), fmt(a?.all, 3), fmt(a?.moving, 3), fmt(a?.steady, 3),
                ]
            })
        let t = r.total
        out +=
            "\nper recording and replay; \(t.iterations) timed replays per pass (the fastest of 5 rounds counts), "
            + "\(t.allocations?.replays ?? 0) counted for allocations; ns/event includes encoding every emitted event "
            + "as a socket line (\(t.bytes) bytes per round of all recordings)\n\n"
        out +=
            "the daemon's turns: its core handed one frame per read, publishing to \(r.subscribers) subscriber(s) "
            + "on a Unix socket (one gathering write each per turn):\n"
        out += table(
            [
                "recording", "ns/event", "ns/frame", "allocs/frame", "allocs/moving", "allocs/steady",
                "bytes/subscriber",
            ],
            all.map { f in
                let a = f.perFrame(f.daemonAllocations)
                return [
                    f.name, fmt(f.nanosecondsPerEventDaemon, 0),
                    fmt(f.secondsDaemon * 1e9 / Double(max(f.frames * f.iterations, 1)), 0),
                    fmt(a?.all, 3), fmt(a?.moving, 3), fmt(a?.steady, 3), String(f.bytesPerSubscriber),
                ]
            })
        return out
    }

    static func table(_ header: [String], _ body: [[String]]) -> String {
        let rows = [header] + body
        let widths = header.indices.map { c in rows.map { $0[c].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { c, v in
                c == 0
                    ? v + String(repeating: " ", count: widths[0] - v.count)
                    : String(repeating: " ", count: widths[c] - v.count) + v
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
