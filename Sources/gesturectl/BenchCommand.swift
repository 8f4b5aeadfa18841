import ArgumentParser
import Foundation
import GestureConfig
import GestureCore
import GestureDaemon
import GestureTools

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure the hot path: replay recordings many times through decoder and arena, print the cost per event.")

    @OptionGroup var config: ConfigOption

    @Option(help: "How many times to replay the recordings.")
    var iterations = 200

    @Argument(help: "evemu recordings.")
    var recordings: [String]

    func run() throws {
        let r = try Benchmark.run(recordings: recordings, configuration: try config.load(), iterations: iterations)
        print("iterations \(r.iterations), kernel events \(r.events), frames \(r.frames), gesture events \(r.gestureEvents)")
        print("time \(formatFixed(r.seconds * 1000, decimals: 1)) ms, \(formatFixed(r.nanosecondsPerEvent, decimals: 0)) ns per kernel event, \(formatFixed(r.nanosecondsPerFrame, decimals: 0)) ns per frame")
    }
}
