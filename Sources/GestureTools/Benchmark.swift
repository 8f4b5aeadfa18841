import Foundation
import GestureConfig
import GestureCore
import GestureDaemon

/// Replays recordings through the pipeline many times and measures the cost of
/// the hot path (decode → arena → events), without JSON or output.
public enum Benchmark {
    public struct Result: Sendable {
        public var iterations: Int
        public var events: Int
        public var frames: Int
        public var gestureEvents: Int
        public var seconds: Double
        public var nanosecondsPerEvent: Double { seconds * 1e9 / Double(max(events, 1)) }
        public var nanosecondsPerFrame: Double { seconds * 1e9 / Double(max(frames, 1)) }
    }

    public static func run(recordings: [String], configuration: Configuration, iterations: Int) throws -> Result {
        var loaded: [(DeviceDescription, [RawEvent])] = []
        for path in recordings { loaded.append(try Replay.load(recording: path, descPath: nil)) }
        var pipelines: [(DevicePipeline, [RawEvent])] = []
        for (device, events) in loaded {
            guard let g = configuration.geometry(for: device) else { continue }
            pipelines.append((DevicePipeline(description: device, geometry: g, configuration: configuration), events))
        }
        var result = Result(iterations: iterations, events: 0, frames: 0, gestureEvents: 0, seconds: 0)
        var offset: Int64 = 0
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<iterations {
            for (pipeline, events) in pipelines {
                var lastTime: Int64 = 0
                for var e in events {
                    e.time.microseconds += offset
                    lastTime = e.time.microseconds
                    let before = pipeline.events.count
                    pipeline.feed(e)
                    if e.type == EV.SYN && e.code == SYN.REPORT { result.frames += 1 }
                    result.gestureEvents += pipeline.events.count - before
                    pipeline.drain { _ in }
                }
                result.events += events.count
                // Run the timers out and move the clock on, so every iteration is
                // a fresh run of the same touches.
                pipeline.advance(to: EventTime(microseconds: lastTime + 10_000_000))
                pipeline.drain { _ in }
                offset = lastTime + 20_000_000 - (events.first?.time.microseconds ?? 0)
            }
        }
        result.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return result
    }
}
