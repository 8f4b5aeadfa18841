import Foundation
import GestureConfig
import GestureCore
import GestureDaemon

/// Replays recordings through the pipeline many times and measures the hot
/// path: decoder → arena → every event serialised as a socket line (the
/// daemon's own encoder, `ProtocolMessages.writeEvent`, into a reused writer),
/// per recording. Allocations are counted per frame when the caller can count
/// them (gesturectl links a malloc counter).
public enum Benchmark {
    /// The figures of one recording (or of all of them together).
    public struct Figures: Sendable {
        public var name: String
        /// Per iteration.
        public var events = 0
        public var frames = 0
        /// Frames in which every touch moved or stayed and at least one moved:
        /// no touch began or ended.
        public var movingFrames = 0
        /// Moving frames that decided nothing: they emitted nothing or only
        /// `changed` (a pan or pinch going on). Here no allocation is the budget.
        public var steadyFrames = 0
        public var gestureEvents = 0
        public var bytes = 0
        /// All iterations: decoder and arena only, then with serialisation.
        public var secondsPipeline = 0.0
        public var secondsSerialised = 0.0
        public var iterations = 0
        /// Over the counted iterations; nil when allocations were not counted.
        public var allocationIterations = 0
        public var allocations: UInt64?
        public var allocationsInMovingFrames: UInt64 = 0
        public var allocationsInSteadyFrames: UInt64 = 0
        /// Steady frames that allocated, and the first of them (for the failure message).
        public var allocatingSteadyFrames = 0
        /// The first steady frame that allocated: its time, allocations, and what it emitted.
        public var firstAllocatingSteadyFrame: (time: EventTime, allocations: UInt64, emitted: String)?

        public init(name: String) { self.name = name }

        private func per(_ seconds: Double, _ n: Int) -> Double { seconds * 1e9 / Double(max(n * iterations, 1)) }
        public var nanosecondsPerEvent: Double { per(secondsSerialised, events) }
        public var nanosecondsPerEventPipelineOnly: Double { per(secondsPipeline, events) }
        public var nanosecondsPerFrame: Double { per(secondsSerialised, frames) }
        public var allocationsPerFrame: Double? {
            allocations.map { Double($0) / Double(max(frames * allocationIterations, 1)) }
        }
        public var allocationsPerMovingFrame: Double? {
            allocations == nil ? nil : Double(allocationsInMovingFrames) / Double(max(movingFrames * allocationIterations, 1))
        }
        public var allocationsPerSteadyFrame: Double? {
            allocations == nil ? nil : Double(allocationsInSteadyFrames) / Double(max(steadyFrames * allocationIterations, 1))
        }

        mutating func add(_ o: Figures) {
            events += o.events; frames += o.frames; movingFrames += o.movingFrames; steadyFrames += o.steadyFrames
            gestureEvents += o.gestureEvents; bytes += o.bytes
            secondsPipeline += o.secondsPipeline; secondsSerialised += o.secondsSerialised
            iterations = o.iterations; allocationIterations = o.allocationIterations
            if let a = o.allocations { allocations = (allocations ?? 0) + a }
            allocationsInMovingFrames += o.allocationsInMovingFrames
            allocationsInSteadyFrames += o.allocationsInSteadyFrames
            allocatingSteadyFrames += o.allocatingSteadyFrames
            if firstAllocatingSteadyFrame == nil { firstAllocatingSteadyFrame = o.firstAllocatingSteadyFrame }
        }
    }

    public struct Result: Sendable {
        public var recordings: [Figures]
        public var total: Figures
    }

    /// - Parameters:
    ///   - iterations: timed replays of each recording, per pass (one pass
    ///     without serialisation, one with).
    ///   - allocationIterations: replays counted for allocations, after one
    ///     replay that warms every buffer up (the steady state).
    ///   - allocations: the calling thread's allocation count so far; nil: not counted.
    public static func run(recordings: [String], configuration: Configuration, iterations: Int,
                           allocationIterations: Int = 3, allocations: (() -> UInt64)? = nil) throws -> Result {
        var players: [Player] = []
        for path in recordings {
            let (device, events) = try Replay.load(recording: path, descPath: nil)
            guard let g = configuration.geometry(for: device) else {
                throw Failure(message: "\(path): the device has no position axes")
            }
            let pipeline = DevicePipeline(description: device, geometry: g, configuration: configuration)
            players.append(Player(name: (path as NSString).lastPathComponent, pipeline: pipeline, events: events))
        }
        var total = Figures(name: "all")
        var results: [Figures] = []
        var writer = JSONWriter(capacity: 1024)
        for i in players.indices {
            var f = Figures(name: players[i].name)
            f.events = players[i].events.count
            // One untimed replay first, which gives the counts per replay:
            // buffers grow, caches warm.
            players[i].play(writer: &writer, serialise: true, classify: true, into: &f)
            // Timed in rounds, the two passes interleaved; the fastest round of
            // each counts, so other work on the machine shows up less.
            var scratch = Figures(name: f.name)
            let rounds = min(5, iterations)
            let perRound = max(1, iterations / rounds)
            f.iterations = perRound * rounds
            var best = (pipeline: Double.infinity, serialised: Double.infinity)
            for _ in 0..<rounds {
                var start = DispatchTime.now().uptimeNanoseconds
                for _ in 0..<perRound { players[i].play(writer: &writer, serialise: false, into: &scratch) }
                best.pipeline = min(best.pipeline, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                start = DispatchTime.now().uptimeNanoseconds
                for _ in 0..<perRound { players[i].play(writer: &writer, serialise: true, into: &scratch) }
                best.serialised = min(best.serialised, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            f.secondsPipeline = best.pipeline * Double(rounds)
            f.secondsSerialised = best.serialised * Double(rounds)
            if let count = allocations, allocationIterations > 0 {
                var counted = Figures(name: f.name)
                let before = count()
                for _ in 0..<allocationIterations {
                    players[i].play(writer: &writer, serialise: true, counting: count, into: &counted)
                }
                f.allocations = count() - before
                f.allocationIterations = allocationIterations
                f.allocationsInMovingFrames = counted.allocationsInMovingFrames
                f.allocationsInSteadyFrames = counted.allocationsInSteadyFrames
                f.allocatingSteadyFrames = counted.allocatingSteadyFrames
                f.firstAllocatingSteadyFrame = counted.firstAllocatingSteadyFrame
            }
            results.append(f)
            total.add(f)
        }
        return Result(recordings: results, total: total)
    }

    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// One recording on its own pipeline, replayed again and again on a clock
    /// that moves on: each replay starts 20 s after the last one ended, so it
    /// is a fresh run of the same touches.
    struct Player {
        var name: String
        let pipeline: DevicePipeline
        let events: [RawEvent]
        /// Added to every recorded time (saturating: recordings are outside data).
        var offset: Int64 = 0
        /// What the current frame emitted, by name and state.
        var emitted: [(String, GestureState)] = []

        init(name: String, pipeline: DevicePipeline, events: [RawEvent]) {
            self.name = name; self.pipeline = pipeline; self.events = events
        }

        /// One replay. With `classify`, frames are counted by kind into `f`
        /// (and allocations, with `counting`); without, only timed.
        mutating func play(writer: inout JSONWriter, serialise: Bool, classify: Bool = false,
                           counting: (() -> UInt64)? = nil, into f: inout Figures) {
            var lastTime = EventTime.zero
            var frameStart = counting?() ?? 0
            for var e in events {
                e.time = e.time.adding(microseconds: offset)
                lastTime = e.time
                pipeline.feed(e)
                guard e.type == EV.SYN && e.code == SYN.REPORT else { continue }
                // The frame is complete: what it emitted leaves as socket lines.
                let frame = pipeline.decoder.lastFrame
                guard classify || counting != nil else {
                    drain(frameTime: frame.time, writer: &writer, serialise: serialise, into: &f)
                    continue
                }
                var moved = false, moving = !frame.touches.isEmpty
                for t in frame.touches {
                    switch t.phase {
                    case .moved: moved = true
                    case .stationary: break
                    case .began, .ended, .cancelled: moving = false
                    }
                }
                moving = moving && moved
                var steady = moving
                for g in pipeline.events where g.state != .changed { steady = false }
                if counting != nil {
                    // Kept (in storage reused from frame to frame) to say what a
                    // steady frame that allocated emitted.
                    emitted.removeAll(keepingCapacity: true)
                    for g in pipeline.events { emitted.append((g.name, g.state)) }
                }
                drain(frameTime: frame.time, writer: &writer, serialise: serialise, into: &f)
                f.frames += 1
                if moving { f.movingFrames += 1 }
                if steady { f.steadyFrames += 1 }
                if let count = counting {
                    let now = count()
                    let spent = now - frameStart
                    if moving { f.allocationsInMovingFrames += spent }
                    if steady {
                        f.allocationsInSteadyFrames += spent
                        if spent > 0 {
                            f.allocatingSteadyFrames += 1
                            if f.firstAllocatingSteadyFrame == nil {
                                let what = emitted.isEmpty ? "nothing" : emitted.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
                                f.firstAllocatingSteadyFrame = (e.time, spent, what)
                            }
                        }
                    }
                    frameStart = count()
                }
            }
            // Run the timers out, then move the clock on.
            let end = lastTime.adding(microseconds: 10_000_000)
            pipeline.advance(to: end)
            drain(frameTime: pipeline.decoder.lastFrame.time, writer: &writer, serialise: serialise, into: &f)
            let next = lastTime.adding(microseconds: 20_000_000).microseconds
            let (d, overflow) = next.subtractingReportingOverflow(events.first?.time.microseconds ?? 0)
            offset = overflow ? .max : d
        }

        private mutating func drain(frameTime: EventTime, writer: inout JSONWriter, serialise: Bool,
                                    into f: inout Figures) {
            f.gestureEvents += pipeline.events.count
            guard serialise else {
                pipeline.drain { _ in }
                return
            }
            pipeline.drain { e in
                ProtocolMessages.writeEvent(e, frameTime: frameTime, emitted: frameTime, to: &writer)
                f.bytes += writer.count + 1
            }
        }
    }
}
